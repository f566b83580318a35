#include "timeline/ZoomHistory.h"

#include <cstddef>

namespace astrolabe::widgets {

namespace {
constexpr size_t kMaxEntries = 100;
}

void ZoomHistory::visit(Window current) {
    if (!m_back.empty() && m_back.back() == current) {
        m_forward.clear();
        return;
    }
    m_back.push_back(current);
    if (m_back.size() > kMaxEntries)
        m_back.erase(m_back.begin());
    m_forward.clear();
}

ZoomHistory::Window ZoomHistory::back(Window current) {
    if (m_back.empty())
        return current;
    const Window target = m_back.back();
    m_back.pop_back();
    m_forward.push_back(current);
    return target;
}

ZoomHistory::Window ZoomHistory::forward(Window current) {
    if (m_forward.empty())
        return current;
    const Window target = m_forward.back();
    m_forward.pop_back();
    m_back.push_back(current);
    return target;
}

void ZoomHistory::clear() {
    m_back.clear();
    m_forward.clear();
}

} // namespace astrolabe::widgets
