#pragma once
// The runs of the open project as the user sees them: each run is named ("<project> #3"),
// queued on the RunController, followed while it runs (progress, status and queue texts for
// the window to show) and, once it ends, stored exactly once through the RunStoreController.
// It holds no widget: the window connects its signals to a progress bar, labels and a status
// bar, so tests drive it with a fake run function and read the signals.

#include "gui/RunController.h"
#include "gui/RunStore.h"

#include <QDateTime>
#include <QObject>
#include <functional>
#include <map>

namespace astrolabe::widgets {
class LogModel;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class ProjectDocument;
class RunStoreController;

class RunSession : public QObject {
    Q_OBJECT
public:
    /// All collaborators are observed, not owned; `runner` must stay until this is destroyed.
    RunSession(RunController* runner, ProjectDocument* document, RunStoreController* store,
               widgets::LogModel* log, QObject* parent = nullptr);

    RunController* runner() const { return m_runner; }
    /// Queues a run of `spec` named "<project> #N", with " (<variant>)" when one is given.
    int start(SimulationSpec spec, const QString& variant = {});
    /// Queues a run named by `name(number)`; `traces` (when set) makes its workload on the
    /// worker thread. Returns the run's id.
    int startNamed(SimulationSpec spec, const std::function<QString(int number)>& name,
                   RunController::TraceFactory traces = {});
    /// Cancels the running run and drops the queued ones.
    void stop();
    /// The project changed: runs still going are stopped and their outcome is not stored.
    void reset();
    /// A run is going or waiting.
    bool isActive() const { return m_runner->isBusy() || m_runner->queuedCount() > 0; }
    /// Runs queued or running whose outcome is not stored yet.
    int pendingCount() const { return static_cast<int>(m_pending.size()); }

signals:
    /// The busy indicator is shown while a run goes.
    void progressVisibleChanged(bool visible);
    /// One line about the current (or last) run: starting, progress, outcome.
    void progressTextChanged(const QString& text);
    /// "2 runs waiting", or empty.
    void queueTextChanged(const QString& text);
    void statusMessage(const QString& text, int timeoutMs);
    /// Whether a run is active may have changed (enable or disable Stop).
    void stateChanged();
    void errorOccurred(const QString& title, const QString& message, const QString& keyPath);

private:
    struct PendingRun {
        QString name;
        int number = 0; ///< the run's number in the project (RunRecord::number)
        SimulationSpec spec;
        /// The project's settings the run stands for ("changed since last run" compares with
        /// them): `spec` itself, but for a workload made on the worker thread (Generate and
        /// Run), whose generated trace is no setting of the project, the project as it was.
        SimulationSpec asConfigured;
        QDateTime queued;
    };

    void onStarted(int id);
    void onProgress(int id, const Progress& progress);
    void onFinished(int id, std::shared_ptr<const RunResult> result, double wallSeconds);
    void onFailed(int id, const QString& message, const QString& keyPath, bool cancelled,
                  double wallSeconds);
    void store(int id, RunRecord record);

    RunController* m_runner;
    ProjectDocument* m_document;
    RunStoreController* m_store;
    widgets::LogModel* m_log;
    std::map<int, PendingRun> m_pending;
};

} // namespace astrolabe::gui
