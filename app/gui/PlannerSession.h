#pragma once
// The Workload tab's Planner wiring (docs/planner.md): "Plan" ranks every legal configuration of
// the model builder's model on the project's platform (resized to the panel's GPU count) with
// engine/plan's rankConfigurations, "Simulate top K" simulates the K best estimates with
// simulateCandidate on two threads; both run off the GUI thread and deliver by queued call,
// a newer plan drops an older one's results, and Cancel (or closing) stops the simulations
// between events. "Apply" sets the model builder to the selected configuration as one step of
// the project's undo history (WorkloadController::applySpec). MainWindow owns one.

#include "plan/Planner.h"
#include "spec/SimulationSpec.h"

#include <QObject>
#include <memory>
#include <thread>

namespace astrolabe {
class CancelToken;
} // namespace astrolabe

namespace astrolabe::widgets {
class ModelBuilderPanel;
class PlannerPanel;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class ProjectDocument;
class WorkloadController;

class PlannerSession : public QObject {
    Q_OBJECT
public:
    /// All observed, not owned.
    PlannerSession(widgets::PlannerPanel* panel, widgets::ModelBuilderPanel* builder,
                   ProjectDocument* document, WorkloadController* workload,
                   QObject* parent = nullptr);
    ~PlannerSession() override; ///< cancels what runs and waits for it

    /// Ranks the builder's model on `gpus` GPUs with global batch `globalBatch`; false (the
    /// reason in the panel's status and `planned(false)`) when the request cannot be made or
    /// something already runs.
    bool plan(int gpus, int globalBatch);
    /// Simulates the K best estimates of the last plan; false when none or something runs.
    bool simulateTop(int k);
    /// Stops the running simulations (each stops between events; those done stay).
    void cancel();
    /// Sets the model builder to candidate `ranked` of the last plan, one undoable step.
    void apply(int ranked);
    bool isRunning() const { return m_running; }
    const plan::PlanResult* result() const { return m_result.get(); }

signals:
    /// The ranking is in the table (or could not be made: `ok` false).
    void planned(bool ok);
    /// The simulations ended: all ran, or some were cancelled (`cancelled`).
    void simulated(bool cancelled);
    /// A candidate was applied to the model builder (one undo step): "Apply plan t1 p4 d2 ...".
    void applied(const QString& description);

private:
    void join();
    void showModel();
    void simulationsDone(uint64_t id, bool cancelled);

    widgets::PlannerPanel* m_panel;
    widgets::ModelBuilderPanel* m_builder;
    ProjectDocument* m_document;
    WorkloadController* m_workload;
    std::thread m_thread;
    std::shared_ptr<CancelToken> m_cancel;
    bool m_running = false;
    uint64_t m_id = 0;        ///< of the newest plan: results of older ones are dropped
    SimulationSpec m_project; ///< the platform planned on, resized to the GPUs
    plan::PlanRequest m_request;
    std::shared_ptr<const plan::PlanResult> m_result;
    int m_gpus = 0;
    int64_t m_batch = 0;      ///< the builder's global batch the planner last took
    PlatformSpec m_plannedOn; ///< the project's platform when the shown ranking was planned
};

} // namespace astrolabe::gui
