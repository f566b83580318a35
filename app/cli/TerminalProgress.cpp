#include "cli/TerminalProgress.h"

#include "cli/Commands.h"
#include "core/Units.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <ostream>
#include <unistd.h>

namespace astrolabe::cli {

namespace {

std::string millions(double value) {
    char text[32];
    if (value >= 1e6)
        std::snprintf(text, sizeof text, "%.1f M", value / 1e6);
    else if (value >= 1e3)
        std::snprintf(text, sizeof text, "%.1f k", value / 1e3);
    else
        std::snprintf(text, sizeof text, "%.0f", value);
    return text;
}

} // namespace

ProgressMode parseProgressMode(const std::string& text) {
    if (text == "always")
        return ProgressMode::Always;
    if (text == "auto")
        return ProgressMode::Auto;
    if (text == "never")
        return ProgressMode::Never;
    throw UsageError("--progress: expected auto, always or never, found \"" + text + "\"");
}

TerminalProgress::TerminalProgress(std::ostream& err, ProgressMode mode, bool terminal)
    : m_err(err)
    , m_enabled(mode == ProgressMode::Always || (mode == ProgressMode::Auto && terminal))
    , m_terminal(terminal)
    , m_quietSeconds(mode == ProgressMode::Always ? 0.0 : 1.0) {}

FlagSpec progressFlag() {
    return {"progress", "WHEN",
            "progress on standard error: auto (on a terminal, after the first second), always "
            "or never",
            "auto"};
}

TerminalProgress::TerminalProgress(std::ostream& err, const ParsedArgs& args)
    : TerminalProgress(err, parseProgressMode(args.value("progress", "auto")),
                       &err == &std::cerr && ::isatty(STDERR_FILENO) == 1) {}

TerminalProgress::~TerminalProgress() {
    if (m_terminal && m_width > 0) // leave the terminal as it was: the report follows
        m_err << '\r' << std::string(m_width, ' ') << '\r' << std::flush;
}

void TerminalProgress::onProgress(const Progress& p) {
    if (!m_enabled || p.wallSeconds < m_quietSeconds)
        return;
    report(p.wallSeconds, "simulating: " + units::formatTime(p.now) + " simulated, " +
                              millions(static_cast<double>(p.eventsProcessed)) + " events at " +
                              millions(p.eventsPerSecond) + "/s");
}

void TerminalProgress::report(double wallSeconds, const std::string& what) {
    if (!m_enabled || wallSeconds < m_quietSeconds)
        return;
    // A log gets a line a second; a terminal line is rewritten at every report (10 a second).
    if (!m_terminal && m_lastPrinted >= 0 && wallSeconds - m_lastPrinted < 1.0)
        return;
    m_lastPrinted = wallSeconds;
    char wall[32];
    std::snprintf(wall, sizeof wall, ", %.1f s", wallSeconds);
    const std::string line = what + wall;
    ++m_lines;
    if (m_terminal) {
        const size_t pad = m_width > line.size() ? m_width - line.size() : 0;
        m_err << '\r' << line << std::string(pad, ' ') << std::flush;
        m_width = std::max(m_width, line.size());
    } else {
        m_err << "astrolabe-cli: " << line << '\n' << std::flush;
    }
}

} // namespace astrolabe::cli
