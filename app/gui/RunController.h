#pragma once
// Runs simulations on worker threads, one at a time, in the order they were queued.
//
// The GUI thread never simulates: each run is a QThread calling the run function (by default
// astrolabe::runSimulation). Progress crosses threads through a throttling ProgressSink (at most
// 25 updates per second) and queued signals; results arrive by queued call. stop() sets the
// running job's CancelToken, so a run ends within the engine's 100 ms cancellation bound.

#include "core/Simulator.h"
#include "record/RunResult.h"
#include "spec/SimulationSpec.h"

#include <QObject>
#include <QString>
#include <deque>
#include <functional>
#include <memory>

class QThread;

namespace astrolabe::gui {

class RunController : public QObject {
    Q_OBJECT
public:
    using RunFunction = std::function<std::shared_ptr<const RunResult>(
        const SimulationSpec&, ProgressSink*, const CancelToken*)>;

    /// Minimum wall time between two progress signals (25 Hz).
    static constexpr int kProgressIntervalMs = 40;

    /// `run` defaults to astrolabe::runSimulation; tests inject slow or failing fakes.
    explicit RunController(RunFunction run = {}, QObject* parent = nullptr);
    /// Cancels the running job and waits for its thread.
    ~RunController() override;

    /// Makes a run's per-NPU traces on the worker thread (a workload generator); it may fill
    /// spec.commGroups. The run then uses runSimulation's in-memory traces overload.
    using TraceFactory = std::function<std::vector<WorkloadTrace>(SimulationSpec& spec)>;

    /// Queues a run of `spec`; returns its id (> 0). It starts when the runs before it end.
    int enqueue(const SimulationSpec& spec);
    /// Queues a run over traces made by `traces` on the worker thread (not the run function).
    int enqueue(const SimulationSpec& spec, TraceFactory traces);
    /// Cancels the running job and drops the queued ones.
    void stop();
    /// Drops one queued run or cancels it if running. False when the id is unknown.
    bool cancel(int id);

    bool isBusy() const { return m_current != nullptr; }
    int currentRunId() const;
    int queuedCount() const { return static_cast<int>(m_queue.size()); }

signals:
    void runStarted(int id, const QString& name);
    void progressed(int id, const astrolabe::Progress& progress);
    void runFinished(int id, std::shared_ptr<const astrolabe::RunResult> result,
                     double wallSeconds);
    /// cancelled: the user stopped it; keyPath: the setting the error names, if any.
    void runFailed(int id, const QString& message, const QString& keyPath, bool cancelled,
                   double wallSeconds);
    /// A queued run was dropped before it started.
    void runDropped(int id);
    void queueChanged(int queued);
    /// Nothing runs and nothing waits.
    void idle();

private:
    struct Job;
    struct Queued {
        int id = 0;
        SimulationSpec spec;
        TraceFactory traces;
    };
    void startNext();
    void finishJob(int id);

    RunFunction m_run;
    std::deque<Queued> m_queue;
    std::unique_ptr<Job> m_current;
    int m_nextId = 1;
};

} // namespace astrolabe::gui

Q_DECLARE_METATYPE(astrolabe::Progress)
