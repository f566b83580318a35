#pragma once
// Progress of a long run on standard error: on a terminal one line that rewrites itself
// ("simulating: 12.5 ms simulated, 41.2 M events at 2.31 M/s, 18 s"), in a log or pipe one
// line per second when asked for with --progress. A run shorter than a second prints nothing
// unless asked for.

#include "cli/ArgParser.h"
#include "core/Simulator.h"

#include <iosfwd>
#include <string>

namespace astrolabe::cli {

enum class ProgressMode : uint8_t {
    Auto,   ///< on a terminal, after the first second
    Always, ///< from the start, also when standard error is not a terminal
    Never,
};

/// --progress=auto|always|never; throws UsageError otherwise.
ProgressMode parseProgressMode(const std::string& text);

/// The --progress option as the run and astra commands list it.
FlagSpec progressFlag();

class TerminalProgress : public ProgressSink {
public:
    /// `terminal`: err is a terminal (a line can be rewritten in place).
    TerminalProgress(std::ostream& err, ProgressMode mode, bool terminal);
    /// For a command's arguments: the mode from --progress, a terminal when `err` is standard
    /// error and that is a terminal.
    TerminalProgress(std::ostream& err, const ParsedArgs& args);
    ~TerminalProgress() override;
    void onProgress(const Progress& progress) override;
    /// The same for work other than a simulation: `line` ("synthesizing: 40 % of ...") after
    /// `wallSeconds` of it.
    void report(double wallSeconds, const std::string& line);
    /// Lines printed so far (for tests).
    int lines() const { return m_lines; }

private:
    std::ostream& m_err;
    bool m_enabled;
    bool m_terminal;
    double m_quietSeconds;
    double m_lastPrinted = -1;
    int m_lines = 0;
    size_t m_width = 0;
};

} // namespace astrolabe::cli
