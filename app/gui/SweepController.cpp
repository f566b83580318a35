#include "gui/SweepController.h"

#include "core/Error.h"
#include "core/Simulator.h"
#include "store/ProjectDatabase.h"
#include "store/RunStorage.h"
#include "sweep/ServingSweep.h"
#include "sweep/SweepLock.h"
#include "sweep/SweepResultsModel.h"
#include "sweep/SweepRun.h"
#include "sweep/SweepView.h"

#include <QFileInfo>
#include <algorithm>

namespace astrolabe::gui {
namespace {

using widgets::SweepPointStatus;
using widgets::SweepPointSummary;

SimTime maxExposed(const std::vector<NpuSummary>& npus) {
    SimTime most;
    for (const NpuSummary& s : npus)
        most = std::max(most, s.exposedComm);
    return most;
}

SweepPointSummary summaryOf(const astrolabe::RunRecord& run, size_t index, SimTime exposed) {
    SweepPointSummary s;
    s.index = index;
    s.status =
        run.status == astrolabe::RunStatus::Ok ? SweepPointStatus::Ok : SweepPointStatus::Failed;
    s.endTime = run.simulatedTime;
    s.maxExposedComm = exposed;
    s.runId = run.id;
    s.runNumber = run.number;
    s.message = run.errorMessage;
    return s;
}

/// Adds a serving point's numbers (and its objective's value) to its summary.
void addServing(SweepPointSummary& s, const std::optional<serving::ServingSummary>& serving,
                const std::string& objective) {
    if (!serving)
        return;
    s.serving = true;
    s.goodputPerGpu = serving->goodputPerGpu;
    s.outputTokensPerGpuSecond = serving->outputTokensPerGpuSecond;
    s.tpotP50Seconds = serving->tpot.p50;
    s.sloAttainment = serving->sloAttainment;
    s.requestsPerSecond = serving->requestsPerSecond;
    s.objective = servingObjectiveValue(objective, *serving);
}

/// The newest stored run of each point of this sweep (what the CLI's table shows).
std::vector<SweepPointSummary> storedSummaries(const ProjectDatabase& db, const SweepPlan& plan) {
    std::vector<SweepPointSummary> summaries;
    for (const auto& [index, run] : storedSweepRuns(db, plan.identity))
        if (index < plan.points.size()) {
            summaries.push_back(summaryOf(run, index, maxExposed(db.loadNpuSummaries(run.id))));
            if (run.status == astrolabe::RunStatus::Ok)
                addServing(summaries.back(), storedServingSummary(db, run.id),
                           plan.file.serving.objective);
        }
    return summaries;
}

} // namespace

SweepController::SweepController(widgets::SweepView* view, QObject* parent)
    : QObject(parent)
    , m_view(view) {
    connect(m_view, &widgets::SweepView::cancelRequested, this, &SweepController::cancel);
}

SweepController::~SweepController() {
    cancel();
    if (m_thread.joinable())
        m_thread.join();
}

bool SweepController::start(const QString& sweepPath, int jobs) {
    if (m_running)
        return false;
    if (m_thread.joinable())
        m_thread.join(); // the previous sweep's thread, already past its last queued call
    m_running = true;
    m_jobs = std::max(1, jobs);
    m_cancel = std::make_shared<CancelToken>();
    m_view->setTitle(tr("Planning %1…").arg(QFileInfo(sweepPath).fileName()));
    const std::string path = sweepPath.toStdString();
    auto post = [this](auto call) {
        QMetaObject::invokeMethod(this, std::move(call), Qt::QueuedConnection);
    };
    m_thread = std::thread([this, path, jobs = m_jobs, cancel = m_cancel, post] {
        try {
            auto plan = std::make_shared<const SweepPlan>(planSweep(path));
            const std::string dbPath = defaultDatabasePath(plan->file.projectPath);
            const SweepLock lock(dbPath, plan->identity); // the CLI may run the same sweep
            ProjectDatabase db(dbPath);
            const std::vector<SweepPointSummary> stored = storedSummaries(db, *plan);
            // Points that failed are run again, as the CLI does.
            const std::vector<size_t> todo =
                pendingSweepPoints(*plan, storedSweepPoints(db, plan->identity));
            // The table reads every point's project: here, not on the GUI thread.
            auto table = std::make_shared<widgets::SweepTable>(widgets::sweepTableOf(*plan));
            post([this, plan, table, stored, todo, db = QString::fromStdString(dbPath)] {
                onPlanned(plan, std::move(*table), stored, todo, db);
            });
            runSweepOnThreads(
                *plan, todo, jobs,
                [&](PointOutcome&& outcome) {
                    if (outcome.status == astrolabe::RunStatus::Cancelled)
                        return; // not run: the next start runs it
                    const int64_t id = storeSweepPoint(db, *plan, outcome);
                    SweepPointSummary s =
                        summaryOf(db.run(id), outcome.index,
                                  outcome.result ? maxExposed(outcome.result->npus) : SimTime());
                    addServing(s, outcome.serving, plan->file.serving.objective);
                    post([this, s] { onPoint(s); });
                },
                cancel.get());
            post([this, cancelled = cancel->cancelled()] { onEnded(cancelled, {}); });
        } catch (const std::exception& e) {
            post([this, error = QString::fromStdString(e.what())] { onEnded(false, error); });
        }
    });
    return true;
}

void SweepController::cancel() {
    if (m_cancel)
        m_cancel->cancel();
}

void SweepController::onPlanned(std::shared_ptr<const SweepPlan> plan, widgets::SweepTable table,
                                const std::vector<SweepPointSummary>& stored,
                                const std::vector<size_t>& todo, const QString& databasePath) {
    m_databasePath = databasePath;
    m_plan = plan;
    widgets::SweepResultsModel* model = m_view->model();
    model->setTable(std::move(table));
    for (const SweepPointSummary& s : stored)
        model->updatePoint(s);
    m_todo = todo;
    m_started = 0;
    for (int i = 0; i < m_jobs; ++i)
        markStarted();
    const size_t skipped = plan->points.size() - plan->runnable();
    QString title = tr("Sweep \"%1\": %2 points over %3; %4 to run, %5 already stored")
                        .arg(QString::fromStdString(plan->file.name))
                        .arg(plan->points.size())
                        .arg(QString::fromStdString(plan->file.projectPath))
                        .arg(todo.size())
                        .arg(stored.size());
    if (skipped > 0)
        title += tr(", %1 skipped by constraints").arg(skipped);
    m_view->setTitle(title);
    m_view->setRunning(true);
    emit planned(static_cast<int>(plan->points.size()), static_cast<int>(stored.size()),
                 static_cast<int>(todo.size()));
}

void SweepController::markStarted() {
    // Workers take the points in todo's order, the next one as soon as they are free.
    if (m_started >= m_todo.size())
        return;
    SweepPointSummary running;
    running.index = m_todo[m_started++];
    running.status = SweepPointStatus::Running;
    m_view->model()->updatePoint(running);
}

void SweepController::onPoint(const SweepPointSummary& summary) {
    m_view->model()->updatePoint(summary);
    if (!m_cancel->cancelled())
        markStarted();
    emit pointStored(static_cast<int>(summary.runId));
}

void SweepController::onEnded(bool cancelled, const QString& error) {
    m_running = false;
    // Points marked running that a cancel stopped are pending again.
    widgets::SweepResultsModel* model = m_view->model();
    for (const widgets::SweepRow& row : std::vector<widgets::SweepRow>(model->rows()))
        if (row.summary.status == SweepPointStatus::Running) {
            SweepPointSummary pending = row.summary;
            pending.status = SweepPointStatus::Pending;
            model->updatePoint(pending);
        }
    m_view->setRunning(false);
    if (!error.isEmpty()) {
        m_view->setTitle(
            tr("The sweep could not run: %1").arg(error.section(QLatin1Char('\n'), 0, 0)));
        emit errorOccurred(tr("Cannot Run Sweep"), error, QString());
        return;
    }
    emit finished(cancelled);
}

} // namespace astrolabe::gui
