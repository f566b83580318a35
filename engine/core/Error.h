#pragma once
// Typed errors. engine/ never exits the process: bad input throws astrolabe::Error, which
// carries where (file, line, column, key path), what was expected and found, and a hint.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe {

enum class ErrorKind {
    Input,       ///< a file cannot be read or parsed
    Validation,  ///< parsed, but inconsistent or out of range
    Unsupported, ///< valid input asking for something the engine does not model
    Deadlock,    ///< the simulation cannot finish (who waits on whom is in the message)
    Cancelled,   ///< the user stopped the run
    Internal,    ///< a broken invariant: a bug in Astrolabe
};

struct SourceLocation {
    std::string file;    ///< empty when unknown
    int line = 0;        ///< 1-based; 0 when unknown
    int column = 0;      ///< 1-based; 0 when unknown
    std::string keyPath; ///< e.g. "platform.dimensions[1].bandwidth"; empty when unknown
};

class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, std::string message, SourceLocation where = {}, std::string hint = {});

    ErrorKind kind() const { return m_kind; }
    const std::string& message() const { return m_message; }
    const SourceLocation& where() const { return m_where; }
    const std::string& hint() const { return m_hint; }

private:
    ErrorKind m_kind;
    std::string m_message;
    SourceLocation m_where;
    std::string m_hint;
};

/// "file:line:col: key.path: message (hint: ...)", leaving out the parts that are unknown.
std::string formatError(ErrorKind kind, const std::string& message, const SourceLocation& where,
                        const std::string& hint);

/// Several errors found in one pass (config validation collects them all before throwing).
class ErrorList : public Error {
public:
    explicit ErrorList(std::vector<Error> errors);
    const std::vector<Error>& errors() const { return m_errors; }

private:
    std::vector<Error> m_errors;
};

/// Simulated time past what SimTime holds (about 106 days in picoseconds). Thrown deep inside
/// the event loop, where the input behind the duration is unknown: runSimulation catches it and
/// names what was in flight and the slowest rates of the platform.
class TimeOverflow : public Error {
public:
    explicit TimeOverflow(const std::string& operation);
};

/// The hint of every message that refuses an input past one of the stated limits.
inline constexpr const char* kLimitsHint = "limits and their reasons are listed in docs/limits.md";

/// Closest candidate by edit distance, for "did you mean" hints; empty when none is close.
std::string closestMatch(const std::string& word, const std::vector<std::string>& candidates);
/// Levenshtein distance: the fewest single-letter insertions, deletions and substitutions.
size_t editDistance(const std::string& a, const std::string& b);

/// "a, b or c" — for messages that list the valid names.
std::string joinAlternatives(const std::vector<std::string>& names);

/// Input text quoted for a message: in double quotes, at most `maxBytes` of it (then "..." and
/// the whole length), with every byte a terminal would not show as itself written \xNN: control
/// bytes (NUL included), DEL, bytes that are not UTF-8, and the invisible byte-order mark. So a
/// message stays one short line whatever a file holds (a 10 MB field, a binary file's bytes).
std::string quotedExcerpt(std::string_view text, size_t maxBytes = 60);

} // namespace astrolabe
