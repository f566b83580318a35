#pragma once
// Collects the errors and warnings found while reading one configuration file, so a user sees
// every problem of a file at once instead of fixing them one run at a time.
//
// Errors are rendered by astrolabe::formatError as "file:line:col: key.path: message (hint: ...)".
// Warnings use the same shape; they describe input that is accepted but ignored or suspicious.

#include "core/Error.h"

#include <string>
#include <vector>

namespace astrolabe::config {

class Diagnostics {
public:
    explicit Diagnostics(std::string file);

    const std::string& file() const { return m_file; }

    /// A location in this file; line and column are 1-based, 0 when unknown.
    SourceLocation at(int line, int column, std::string keyPath) const;

    void error(SourceLocation where, std::string message, std::string hint = {},
               ErrorKind kind = ErrorKind::Validation);
    /// Re-raises an error thrown by a location-less helper (units, name registries) here.
    void relocate(const Error& error, SourceLocation where);
    void warning(const SourceLocation& where, const std::string& message,
                 const std::string& hint = {});

    bool hasErrors() const { return !m_errors.empty(); }
    const std::vector<Error>& errors() const { return m_errors; }
    const std::vector<std::string>& warnings() const { return m_warnings; }

    /// Throws an ErrorList with what was collected so far, in file order; does nothing when there
    /// is none. At most kErrorsListed errors are listed, then one line counting the rest.
    void throwIfErrors() const;

    /// A file with thousands of mistakes (a generated list gone wrong, a binary file read as
    /// YAML) gets its first errors listed and the rest counted: a user fixes the first ones, and
    /// neither memory nor the message grows with the number of mistakes (docs/limits.md).
    static constexpr size_t kErrorsListed = 100;
    static constexpr size_t kErrorsKept = 1000;
    /// Appends the warnings to `out` when `out` is not null.
    void moveWarningsTo(std::vector<std::string>* out);

private:
    std::string m_file;
    std::vector<Error> m_errors; ///< the first kErrorsKept, in the order they were found
    size_t m_errorsDropped = 0;  ///< found after the first kErrorsKept
    std::vector<std::string> m_warnings;
};

/// "did you mean \"x\"?" for the closest candidate, or an empty string.
std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates);

} // namespace astrolabe::config
