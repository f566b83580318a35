#pragma once
// "TACOS schedule" beside the timeline (issue #19): for a graph platform, Synthesize runs TACOS
// (engine/tacos) for the project's collective on a worker thread and shows the per-link schedule
// (ScheduleView); a failure is said in the panel. Hidden, by its owner, for dimension stacks.
// A schedule shown can be saved (XML or ET) or used as the project's algorithm and run.

#include "spec/GraphSpec.h"
#include "tacos/Synthesizer.h"

#include <QWidget>
#include <memory>
#include <optional>
#include <string>

class QLabel;
class QPushButton;

namespace astrolabe::widgets {

class ScheduleView;

class SchedulePanel : public QWidget {
    Q_OBJECT
public:
    explicit SchedulePanel(QWidget* parent = nullptr);

    /// The graph and what to synthesize on it; a different one clears the shown schedule.
    /// `customSource`: the project's custom algorithm for that collective (resolved path of an
    /// ET prefix or MSCCL-IR XML), empty when it uses a built-in one. Then Synthesize first
    /// checks whether those files are this graph's exported TACOS schedule
    /// (tacos/ScheduleRecognition.h) and, when they are, shows that schedule.
    void setProblem(const GraphSpec& graph, const SynthesisOptions& options,
                    const std::string& customSource = {});
    /// After a Synthesize with a custom source: whether it was recognized.
    std::optional<bool> customRecognized() const { return m_customRecognized; }
    bool hasSchedule() const { return m_hasSchedule; }
    /// The schedule shown (null before one is).
    const Schedule* schedule() const { return m_scheduleShown.get(); }
    ScheduleView* view() const { return m_view; }
    QPushButton* synthesizeButton() const { return m_synthesize; }
    QPushButton* useButton() const { return m_use; }
    QPushButton* saveButton() const { return m_save; }
    QLabel* status() const { return m_status; }

public slots:
    /// Synthesizes on a worker; scheduleShown() or failed() when done.
    void synthesize();
    /// The timeline's cursor moved: the shown schedule highlights the step running then.
    void setCursorTime(qint64 ps);

signals:
    void scheduleShown();
    void failed(const QString& message);
    /// "Use and run": make the shown schedule the project's algorithm for its collective and
    /// run the project (the owner writes the files and edits the project).
    void useRequested();
    /// "Save…": write the shown schedule as MSCCL-IR XML or Chakra ET files.
    void saveRequested();

private:
    std::optional<GraphSpec> m_graph;
    SynthesisOptions m_options;
    std::string m_customSource;
    std::optional<bool> m_customRecognized;
    uint64_t m_request = 0; ///< the latest synthesis; older ones are dropped
    bool m_hasSchedule = false;
    std::optional<qint64> m_cursorPs; ///< the latest cursor, for a schedule shown after it
    std::shared_ptr<const Schedule> m_scheduleShown;
    QPushButton* m_synthesize;
    QPushButton* m_use;
    QPushButton* m_save;
    QLabel* m_status;
    ScheduleView* m_view;
};

} // namespace astrolabe::widgets
