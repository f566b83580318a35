#pragma once
// Back / forward over visited time windows, like a browser's history: visiting a new window
// after going back drops the forward entries. Pure, unit-tested.

#include <cstdint>
#include <utility>
#include <vector>

namespace astrolabe::widgets {

class ZoomHistory {
public:
    using Window = std::pair<int64_t, int64_t>;

    /// Records `current` as the window being left, before moving to a new one.
    void visit(Window current);
    bool canGoBack() const { return !m_back.empty(); }
    bool canGoForward() const { return !m_forward.empty(); }
    /// The window to return to; `current` becomes a forward entry.
    Window back(Window current);
    Window forward(Window current);
    void clear();

private:
    std::vector<Window> m_back;
    std::vector<Window> m_forward;
};

} // namespace astrolabe::widgets
