#pragma once
// Runs a sweep file (docs/sweeps.md) from the GUI the way astrolabe-cli sweep does, off the GUI
// thread: one coordinator thread plans it (planSweep), opens the base project's database, reads
// the points already stored (shown as done: the sweep resumes), then runs the others on worker
// threads (runSweepOnThreads) and stores each as it finishes - the coordinator is the one
// writer, with its own connection. Each stored point reaches the GUI thread as a small
// SweepPointSummary by queued call; the RunResult stays on the coordinator. Planning errors are
// reported and nothing is stored.

#include "sweep/SweepPointSummary.h"
#include "sweep/SweepResultsModel.h"

#include <QObject>
#include <QString>
#include <memory>
#include <thread>
#include <vector>

namespace astrolabe {
class CancelToken;
struct SweepPlan;
} // namespace astrolabe

namespace astrolabe::widgets {
class SweepView;
}

namespace astrolabe::gui {

class SweepController : public QObject {
    Q_OBJECT
public:
    /// Shows the sweep in `view` (observed, not owned) and takes its Cancel button.
    explicit SweepController(widgets::SweepView* view, QObject* parent = nullptr);
    /// Cancels a running sweep and waits for its threads (points under way stop early).
    ~SweepController() override;

    /// Plans and runs the sweep with `jobs` worker threads; false (and nothing started) while
    /// another sweep runs.
    bool start(const QString& sweepPath, int jobs = 2);
    /// Stops the workers: points under way are cancelled and not stored, so running the same
    /// sweep again finishes it.
    void cancel();
    bool isRunning() const { return m_running; }
    /// The database the current or last sweep stores its points in (empty before one).
    const QString& databasePath() const { return m_databasePath; }
    /// The plan of the current or last sweep (null before one was planned).
    std::shared_ptr<const SweepPlan> plan() const { return m_plan; }

signals:
    /// The plan is on screen: `stored` points were already in the database.
    void planned(int points, int stored, int toRun);
    /// A point was stored as run `runId` of databasePath().
    void pointStored(int runId);
    /// The sweep ended (all points run, or cancelled); its runs are in the database.
    void finished(bool cancelled);
    void errorOccurred(const QString& title, const QString& message, const QString& keyPath);

private:
    void onPlanned(std::shared_ptr<const SweepPlan> plan, widgets::SweepTable table,
                   const std::vector<widgets::SweepPointSummary>& stored,
                   const std::vector<size_t>& todo, const QString& databasePath);
    void onPoint(const widgets::SweepPointSummary& summary);
    void onEnded(bool cancelled, const QString& error);
    void markStarted();

    widgets::SweepView* m_view;
    std::thread m_thread;
    std::shared_ptr<CancelToken> m_cancel;
    bool m_running = false;
    int m_jobs = 2;
    QString m_databasePath;
    std::shared_ptr<const SweepPlan> m_plan;
    std::vector<size_t> m_todo; ///< the points this run works through, in the workers' order
    size_t m_started = 0;       ///< of m_todo, taken by a worker so far
};

} // namespace astrolabe::gui
