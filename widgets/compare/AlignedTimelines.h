#pragma once
// Two or more runs' timelines stacked on one time axis (absolute: every run over [0, longest
// end]) or normalized (each run over its own length, so the same x is the same fraction of each
// run). Zoom and pan in one timeline move the others; a vertical cursor follows the mouse in all.

#include "compare/CompareRun.h"

#include <QWidget>
#include <vector>

class QCheckBox;
class QLabel;
class QSplitter;

namespace astrolabe::widgets {

class TimelineWidget;
class TimelineCursor;

class AlignedTimelines : public QWidget {
    Q_OBJECT
public:
    explicit AlignedTimelines(QWidget* parent = nullptr);
    ~AlignedTimelines() override;

    void setRuns(const CompareRuns& runs);
    void setNormalized(bool normalized);
    bool normalized() const { return m_normalized; }

    int count() const { return static_cast<int>(m_timelines.size()); }
    /// The colour key of every kind of bar drawn in the runs.
    QLabel* legend() const { return m_legend; }
    TimelineWidget* timeline(int i) const { return m_timelines.at(static_cast<size_t>(i)); }
    /// Puts the cursor at time `ps` of run `run` (mapped to the others like a zoom).
    void setCursor(int run, int64_t ps);
    /// The cursor's time in each run, or -1 when hidden.
    int64_t cursorTime(int run) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void followWindow(int source, int64_t t0, int64_t t1);
    int64_t mapTime(int from, int to, int64_t ps) const;
    void applyLimits();
    void applyMinimumHeights();
    void clear();

    QCheckBox* m_normalize;
    QLabel* m_legend;
    QSplitter* m_stack;
    std::vector<TimelineWidget*> m_timelines;
    std::vector<TimelineCursor*> m_cursors;
    std::vector<int64_t> m_ends;
    bool m_normalized = false;
    bool m_syncing = false;
    int m_cursorRun = -1; ///< the run whose time m_cursorPs is, -1 when hidden
    int64_t m_cursorPs = 0;
};

} // namespace astrolabe::widgets
