#pragma once
// Pure time <-> pixel mapping for the timeline: a visible window [t0, t1) of simulated time
// (picoseconds) laid over `width` pixels starting at x = left. No Qt, no state beyond the
// window, so every conversion is unit-tested with exact expectations.
//
// Zoom and pan keep the window inside the limits [limitBegin, limitEnd] and never let it
// shrink below minSpanPs (one picosecond per ten pixels would show nothing useful).

#include <cstdint>

namespace astrolabe::widgets {

class TimeMapper {
public:
    TimeMapper() = default;
    TimeMapper(int64_t t0Ps, int64_t t1Ps, double left, double width);

    int64_t t0() const { return m_t0; }
    int64_t t1() const { return m_t1; }
    int64_t spanPs() const { return m_t1 - m_t0; }
    double left() const { return m_left; }
    double width() const { return m_width; }
    double psPerPixel() const { return static_cast<double>(spanPs()) / m_width; }

    double timeToX(int64_t ps) const;
    /// The time under pixel position x, rounded to the nearest picosecond.
    int64_t xToTime(double x) const;
    /// Duration covered by `pixels` pixels (rounded, at least 0).
    int64_t pixelsToDuration(double pixels) const;

    void setWidth(double left, double width);
    void setLimits(int64_t beginPs, int64_t endPs);
    int64_t limitBegin() const { return m_limitBegin; }
    int64_t limitEnd() const { return m_limitEnd; }
    void setMinSpan(int64_t ps) { m_minSpan = ps > 0 ? ps : 1; }

    /// Shows [t0, t1) clamped to the limits; keeps at least minSpan.
    void setWindow(int64_t t0Ps, int64_t t1Ps);
    /// factor > 1 zooms in, < 1 zooms out; the time under x stays under x (unless clamped).
    void zoomAround(double x, double factor);
    /// Moves the window by dx pixels (positive: later times come into view).
    void panPixels(double dx);
    void showAll() { setWindow(m_limitBegin, m_limitEnd); }

    bool operator==(const TimeMapper&) const = default;

private:
    int64_t m_t0 = 0;
    int64_t m_t1 = 1;
    double m_left = 0;
    double m_width = 1;
    int64_t m_limitBegin = 0;
    int64_t m_limitEnd = INT64_MAX;
    int64_t m_minSpan = 10;
};

} // namespace astrolabe::widgets
