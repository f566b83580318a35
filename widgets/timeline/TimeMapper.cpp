#include "timeline/TimeMapper.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

TimeMapper::TimeMapper(int64_t t0Ps, int64_t t1Ps, double left, double width)
    : m_t0(t0Ps)
    , m_t1(t1Ps > t0Ps ? t1Ps : t0Ps + 1)
    , m_left(left)
    , m_width(width > 0 ? width : 1) {
    m_limitBegin = std::min<int64_t>(0, m_t0);
}

double TimeMapper::timeToX(int64_t ps) const {
    // Subtract in integers first: t0 may be large while the offset is small.
    return m_left + static_cast<double>(ps - m_t0) * m_width / static_cast<double>(spanPs());
}

int64_t TimeMapper::xToTime(double x) const {
    return m_t0 + std::llround((x - m_left) * static_cast<double>(spanPs()) / m_width);
}

int64_t TimeMapper::pixelsToDuration(double pixels) const {
    return std::max<int64_t>(0, std::llround(pixels * psPerPixel()));
}

void TimeMapper::setWidth(double left, double width) {
    m_left = left;
    m_width = width > 0 ? width : 1;
}

void TimeMapper::setLimits(int64_t beginPs, int64_t endPs) {
    m_limitBegin = beginPs;
    m_limitEnd = std::max(endPs, beginPs + 1);
    setWindow(m_t0, m_t1);
}

void TimeMapper::setWindow(int64_t t0Ps, int64_t t1Ps) {
    const int64_t limitSpan = m_limitEnd - m_limitBegin;
    int64_t span = std::max(t1Ps - t0Ps, std::min(m_minSpan, limitSpan));
    span = std::min(span, limitSpan);
    int64_t t0 = std::clamp(t0Ps, m_limitBegin, m_limitEnd - span);
    m_t0 = t0;
    m_t1 = t0 + span;
}

void TimeMapper::zoomAround(double x, double factor) {
    if (!(factor > 0))
        return;
    const double fraction = std::clamp((x - m_left) / m_width, 0.0, 1.0);
    const double anchor = static_cast<double>(m_t0) + fraction * static_cast<double>(spanPs());
    const double newSpan = std::max(static_cast<double>(spanPs()) / factor, 1.0);
    const int64_t t0 = std::llround(anchor - fraction * newSpan);
    setWindow(t0, t0 + std::llround(newSpan));
}

void TimeMapper::panPixels(double dx) {
    const int64_t shift = std::llround(dx * psPerPixel());
    const int64_t span = spanPs();
    setWindow(m_t0 + shift, m_t0 + shift + span);
}

} // namespace astrolabe::widgets
