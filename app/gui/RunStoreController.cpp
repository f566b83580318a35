#include "gui/RunStoreController.h"

#include "common/LogModel.h"
#include "gui/Counted.h"
#include "gui/RunsTableModel.h"
#include "store/ProjectDatabase.h"

#include <QThreadPool>
#include <QTimer>
#include <algorithm>

namespace astrolabe::gui {

namespace {
QString errorText(const std::exception& e) {
    return QString::fromStdString(e.what());
}

// A stored run as the views want it, read on a loading worker. Without its timeline: the Timeline
// tab reads that by window (DatabaseTimelineSource). With the intervals of the NPU whose critical
// path set the end time: the Summary's "Why this long" (analysis/RunExplanation.h) walks that
// path, and one NPU's intervals are a small read. Phases and collectives sorted: the timeline
// indexes them by (NPU, start) and (NPU, node id) and would sort copies on the GUI thread, which
// takes a second for millions of spans.
std::shared_ptr<const RunResult> loadForViews(const ProjectDatabase& db, int id) {
    const std::shared_ptr<RunResult> r = db.loadResult(id, false, true);
    if (!r->criticalPath.empty())
        r->activities = db.loadActivities(id, SimTime(), r->endTime + SimTime::fromPs(1),
                                          {r->criticalPath.front().first});
    std::stable_sort(r->phases.begin(), r->phases.end(),
                     [](const PhaseSpan& a, const PhaseSpan& b) {
                         return a.npu != b.npu ? a.npu < b.npu : a.start < b.start;
                     });
    std::stable_sort(r->collectives.begin(), r->collectives.end(),
                     [](const CollectiveSpan& a, const CollectiveSpan& b) {
                         return a.npu != b.npu ? a.npu < b.npu : a.nodeId < b.nodeId;
                     });
    return r;
}
} // namespace

RunStoreController::RunStoreController(OpenStore openStore, widgets::LogModel* log, QObject* parent)
    : QObject(parent)
    , m_openStore(std::move(openStore))
    , m_log(log)
    , m_model(new RunsTableModel(this))
    , m_workers(new QThreadPool(this)) {
    m_workers->setMaxThreadCount(1); // saves and loads in order; one core for the GUI
    auto* writeErrors = new QTimer(this);
    connect(writeErrors, &QTimer::timeout, this, &RunStoreController::reportWriteErrors);
    writeErrors->start(1000);
    // Renamed, tagged, annotated or deleted in the runs list.
    connect(m_model, &QAbstractItemModel::dataChanged, this, &RunStoreController::runsChanged);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &RunStoreController::runsChanged);
    attach({});
}

RunStoreController::~RunStoreController() {
    m_workers->waitForDone(); // their queued replies name `this`
    m_model->setStore(nullptr);
}

void RunStoreController::replaceStore(std::unique_ptr<RunStore> store) {
    m_model->setStore(nullptr);
    m_store = std::move(store);
    ++m_generation; // replies of workers for the previous store are dropped
    m_loading.clear();
    m_loaded.clear();
    m_model->setStore(m_store.get());
}

void RunStoreController::attach(const QString& projectPath) {
    replaceStore(m_openStore(projectPath));
}

void RunStoreController::moveToProject(const QString& projectPath) {
    if (m_store->backgroundSaver())
        return; // already in a project database: its runs stay there
    std::unique_ptr<RunStore> next = m_openStore(projectPath);
    if (!next->backgroundSaver())
        return; // no database for this path either: keep the runs where they are
    // An unsaved project's runs follow it into the database beside its new file. Saved on the
    // GUI thread: runs of an unsaved project are the quick experiments of one session.
    std::vector<RunRecord> runs;
    for (int row = 0; row < m_store->count(); ++row)
        runs.push_back(m_store->at(row));
    replaceStore(std::move(next));
    for (RunRecord& run : runs) {
        run.id = 0;
        run.databasePath.clear();
        m_model->addRun(std::move(run));
    }
    emit runsChanged();
    if (!runs.empty())
        m_log->append(widgets::LogModel::Severity::Info,
                      tr("%1 saved in the project database")
                          .arg(counted(m_store->count(), tr("run"), tr("runs"))));
}

void RunStoreController::added(RunRecord record) {
    emit runStored(m_model->addRun(std::move(record)));
}

void RunStoreController::save(RunRecord record) {
    const RunStore::BackgroundSaver saver = m_store->backgroundSaver();
    if (!saver) {
        added(std::move(record)); // an in-memory store
        return;
    }
    // Saving writes the whole timeline in one transaction: seconds for millions of intervals.
    // The worker has its own database connection; the record comes back by queued call.
    // The destructor waits for m_workers, so `this` outlives the task.
    auto shared = std::make_shared<RunRecord>(std::move(record));
    const int generation = m_generation;
    m_workers->start([this, shared, saver, generation] {
        QString error;
        try {
            saver(*shared);
        } catch (const std::exception& e) {
            error = errorText(e);
        }
        QMetaObject::invokeMethod(
            this,
            [this, shared, generation, error] {
                if (generation != m_generation) {
                    m_log->append(
                        widgets::LogModel::Severity::Warning,
                        tr("%1 was saved in the previous project's database").arg(shared->name));
                    return;
                }
                RunRecord record = std::move(*shared);
                if (!error.isEmpty())
                    m_log->append(widgets::LogModel::Severity::Error,
                                  tr("%1 could not be saved: %2").arg(record.name, error));
                else if (record.result && record.result->activities.size() > kKeepTimelineIntervals)
                    record.result.reset(); // reloaded lazily, timeline read by window
                added(std::move(record));
            },
            Qt::QueuedConnection);
    });
}

const RunRecord* RunStoreController::runToShow(int id) {
    const RunRecord* run = m_model->run(id);
    if (run && !run->result && run->status == RunStatus::Finished && !run->databasePath.isEmpty())
        loadResult(*run);
    return run;
}

void RunStoreController::loadResult(const RunRecord& run) {
    if (m_loading.count(run.id))
        return;
    m_loading.insert(run.id);
    const std::string path = run.databasePath.toStdString();
    const int id = run.id;
    const int generation = m_generation;
    m_workers->start([this, path, id, generation] {
        std::shared_ptr<const RunResult> result;
        QString error;
        try {
            result = loadForViews(ProjectDatabase(path, ProjectDatabase::Access::ReadOnly), id);
        } catch (const std::exception& e) {
            error = errorText(e);
        }
        QMetaObject::invokeMethod(
            this,
            [this, generation, id, result, error] {
                onResultLoaded(generation, id, result, error);
            },
            Qt::QueuedConnection);
    });
}

void RunStoreController::onResultLoaded(int generation, int id,
                                        std::shared_ptr<const RunResult> result,
                                        const QString& error) {
    if (generation != m_generation)
        return;
    m_loading.erase(id);
    if (!error.isEmpty() || !result) {
        emit errorOccurred(
            tr("Load Run"),
            tr("The result of run %1 could not be loaded from the project database:\n%2")
                .arg(id)
                .arg(error),
            {});
        return;
    }
    if (!m_model->setResult(id, std::move(result)))
        return; // deleted meanwhile
    std::erase(m_loaded, id);
    m_loaded.push_back(id);
    const int shown = m_shownRun ? m_shownRun() : 0;
    // Drop the least recently loaded results beyond kLoadedResults, never the one on screen.
    for (auto it = m_loaded.begin(); m_loaded.size() > kLoadedResults && it != m_loaded.end();) {
        if (*it == shown || *it == id) {
            ++it;
            continue;
        }
        m_model->setResult(*it, nullptr);
        it = m_loaded.erase(it);
    }
    emit resultLoaded(id);
}

std::vector<const RunRecord*> RunStoreController::loadForComparison(const QList<int>& ids) {
    std::vector<const RunRecord*> runs;
    for (int id : ids) {
        const RunRecord* run = m_model->run(id);
        if (!run)
            continue;
        if (!run->result && !run->databasePath.isEmpty()) {
            // A stored run not loaded yet: the comparison needs its summaries and spans (not its
            // timeline), a quick read.
            try {
                m_model->setResult(id,
                                   loadForViews(ProjectDatabase(run->databasePath.toStdString(),
                                                                ProjectDatabase::Access::ReadOnly),
                                                id));
            } catch (const std::exception& e) {
                emit errorOccurred(tr("Compare"),
                                   tr("Run %1 could not be loaded: %2").arg(id).arg(e.what()), {});
            }
            run = m_model->run(id);
        }
        runs.push_back(run);
    }
    return runs;
}

void RunStoreController::reportWriteErrors() {
    if (!m_store)
        return;
    for (const QString& error : m_store->takeWriteErrors())
        m_log->append(widgets::LogModel::Severity::Error,
                      tr("The project database refused a change: %1").arg(error));
}

} // namespace astrolabe::gui
