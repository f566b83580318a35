#pragma once
// The Timeline tab. A run whose result is in memory with its timeline is drawn from it; a run
// stored in the project database (result loaded without its timeline) is drawn through a
// DatabaseTimelineSource that reads only the windows on screen. Either source is built (indexed)
// on a worker thread; the run's summary shows until it is ready.

#include "gui/WorkspacePages.h"

#include <memory>

namespace astrolabe::widgets {
class SchedulePanel;
class TimelineView;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class TimelinePage : public WorkspacePage {
    Q_OBJECT
public:
    explicit TimelinePage(QWidget* parent = nullptr);
    void showRun(const RunRecord* run) override;
    /// On a graph platform, the TACOS schedule panel beside the timeline (for the project's
    /// microbenchmark collective when it is one TACOS synthesizes, else a 1 MiB all-reduce).
    void setSpec(const SimulationSpec& spec) override;

    widgets::TimelineView* view() const { return m_view; }
    widgets::SchedulePanel* schedulePanel() const { return m_schedule; }
    /// "Use and Run" of the schedule panel: writes the shown TACOS schedule beside the project,
    /// makes it the project's custom algorithm for its collective (an edit) and runs the
    /// project. Returns the custom source written; empty (said in the panel) when there is no
    /// schedule, the project was never saved, or the files cannot be written.
    QString useSchedule();
    /// "Save…": writes the shown schedule to `path` (XML for ".xml", else ET files); returns
    /// false, said in the panel, when it cannot.
    bool saveSchedule(const QString& path);

    /// True when the shown run is read from the project database window by window.
    bool showsDatabaseRun() const { return m_fromDatabase; }
    /// False while the source of the shown run is still being built.
    bool isReady() const { return !m_pending; }

signals:
    /// The source of the shown run was built (on a worker) and is shown.
    void sourceReady();

private:
    void updateVisibility();

    widgets::TimelineView* m_view;
    SimulationSpec m_spec; ///< the project's settings (its file: where a schedule is written)
    widgets::SchedulePanel* m_schedule;
    PlaceholderPage* m_empty;
    std::shared_ptr<const RunResult> m_result;
    bool m_fromDatabase = false;
    bool m_pending = false; ///< the source of m_result is being built
    bool m_shown = false;
    uint64_t m_request = 0; ///< the latest build; older ones are dropped
};

} // namespace astrolabe::gui
