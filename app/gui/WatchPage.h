#pragma once
// The Watch tab ("Watch a collective", issue #21): the shown run's collective messages moving
// over the network drawing, with a compact timeline whose cursor follows the replay (moving
// either moves the other). A run records its messages only on request: "Record and watch" runs
// the shown run's setup again (the project's, when no run is shown) with
// RunOptions::recordTransfers on, and the new run shows here.

#include "gui/WorkspacePages.h"

#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QSplitter;

namespace astrolabe::widgets {
class CollectiveAnimationView;
class TimelineWidget;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class WatchPage : public WorkspacePage {
    Q_OBJECT
public:
    /// Recording simulates every NPU; above this many a demonstration run gets slow.
    static constexpr int kMaxRecordedNpus = 4096;

    explicit WatchPage(QWidget* parent = nullptr);
    void setSpec(const SimulationSpec& spec) override;
    void showRun(const RunRecord* run) override;

    widgets::CollectiveAnimationView* animation() const { return m_animation; }
    widgets::TimelineWidget* timeline() const { return m_timeline; }
    QPushButton* recordButton() const { return m_record; }

    /// Moves the replay and this page's timeline cursor (e.g. from the Timeline tab's cursor).
    void setTime(qint64 ps);

signals:
    /// The replay's time changed (playing, stepping, or a cursor moved).
    void timeChanged(qint64 ps);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void requestRecording();
    /// What Record and watch runs: the shown run's setup, else the project's.
    const SimulationSpec& recordedSpec() const { return m_runSpec ? *m_runSpec : m_spec; }
    void updateRecordButton();

    SimulationSpec m_spec;
    /// The shown run's setup (a lesson's step or a generated workload may differ from the
    /// project's); empty when no run is shown.
    std::optional<SimulationSpec> m_runSpec;
    std::shared_ptr<const RunResult> m_shown;
    QLabel* m_status;
    QPushButton* m_record;
    widgets::CollectiveAnimationView* m_animation;
    widgets::TimelineWidget* m_timeline;
    QSplitter* m_splitter;
    bool m_splitByUser = false; ///< the handle was dragged: the page keeps the user's split
};

} // namespace astrolabe::gui
