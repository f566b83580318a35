// MainWindow: saving finished runs and loading stored results, both off the GUI thread.
#include "common/LogModel.h"
#include "core/Error.h"
#include "gui/Counted.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "store/ProjectDatabase.h"

#include <QStatusBar>
#include <QThreadPool>
#include <algorithm>

namespace astrolabe::gui {

namespace {
QString errorText(const std::exception& e) {
    return QString::fromStdString(e.what());
}

// The timeline indexes phases by (NPU, start) and collectives by (NPU, node id); it sorts copies
// when they come in another order, which takes a second for millions of spans. Sorting here, on
// the loading worker, keeps that off the GUI thread.
std::shared_ptr<const RunResult> sortedForViews(const RunResult& loaded) {
    auto r = std::make_shared<RunResult>(loaded);
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

void MainWindow::storeRun(int id, RunRecord record) {
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    record.name = it->second.name;
    record.number = it->second.number;
    record.started = it->second.queued;
    record.spec = it->second.spec;
    m_pending.erase(it);
    const RunStore::BackgroundSaver saver = m_store->backgroundSaver();
    if (!saver) {
        addStoredRun(std::move(record)); // an in-memory store
        return;
    }
    // Saving writes the whole timeline in one transaction: seconds for millions of intervals.
    // The worker has its own database connection; the record comes back by queued call.
    // ~MainWindow waits for m_workers, so `this` outlives the task.
    auto shared = std::make_shared<RunRecord>(std::move(record));
    const int generation = m_storeGeneration;
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
                if (generation != m_storeGeneration) {
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
                addStoredRun(std::move(record));
            },
            Qt::QueuedConnection);
    });
}

void MainWindow::moveRunsToProjectStore(const QString& projectPath) {
    if (m_store->backgroundSaver())
        return; // already in a project database: its runs stay there
    std::unique_ptr<RunStore> next = m_services.openRunStore(projectPath);
    if (!next->backgroundSaver())
        return; // no database for this path either: keep the runs where they are
    // An unsaved project's runs follow it into the database beside its new file. Saved on the
    // GUI thread: runs of an unsaved project are the quick experiments of one session.
    std::vector<RunRecord> runs;
    for (int row = 0; row < m_store->count(); ++row)
        runs.push_back(m_store->at(row));
    m_runsModel->setStore(nullptr);
    m_store = std::move(next);
    ++m_storeGeneration;
    m_loading.clear();
    m_loaded.clear();
    m_runsModel->setStore(m_store.get());
    for (RunRecord& run : runs) {
        run.id = 0;
        run.databasePath.clear();
        m_runsModel->addRun(std::move(run));
    }
    refreshExplorer();
    if (!runs.empty())
        m_log->append(widgets::LogModel::Severity::Info,
                      tr("%1 saved in the project database")
                          .arg(counted(m_store->count(), tr("run"), tr("runs"))));
}

void MainWindow::addStoredRun(RunRecord record) {
    const int storedId = m_runsModel->addRun(std::move(record));
    refreshExplorer();
    m_runsPanel->selectRun(storedId);
    emit runStored(storedId);
}

void MainWindow::loadResult(const RunRecord& run) {
    if (m_loading.count(run.id))
        return;
    m_loading.insert(run.id);
    const std::string path = run.databasePath.toStdString();
    const int id = run.id;
    const int generation = m_storeGeneration;
    m_workers->start([this, path, id, generation] {
        std::shared_ptr<const RunResult> result;
        QString error;
        try {
            // Without the timeline: the Timeline tab reads it by window (DatabaseTimelineSource).
            const ProjectDatabase db(path);
            result = sortedForViews(*db.loadResult(id, false, true));
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

void MainWindow::onResultLoaded(int generation, int id, std::shared_ptr<const RunResult> result,
                                const QString& error) {
    if (generation != m_storeGeneration)
        return;
    m_loading.erase(id);
    if (!error.isEmpty() || !result) {
        reportError(tr("Load Run"),
                    tr("The result of run %1 could not be loaded from the project database:\n%2")
                        .arg(id)
                        .arg(error));
        return;
    }
    if (!m_runsModel->setResult(id, std::move(result)))
        return; // deleted meanwhile
    std::erase(m_loaded, id);
    m_loaded.push_back(id);
    const int selected = m_runsPanel->selectedRunId();
    // Drop the least recently loaded results beyond kLoadedResults, never the one on screen.
    for (auto it = m_loaded.begin(); m_loaded.size() > kLoadedResults && it != m_loaded.end();) {
        if (*it == selected || *it == id) {
            ++it;
            continue;
        }
        m_runsModel->setResult(*it, nullptr);
        it = m_loaded.erase(it);
    }
    if (selected == id)
        showRun(id);
    emit resultLoaded(id);
}

void MainWindow::reportStoreErrors() {
    if (!m_store)
        return;
    for (const QString& error : m_store->takeWriteErrors())
        m_log->append(widgets::LogModel::Severity::Error,
                      tr("The project database refused a change: %1").arg(error));
}

} // namespace astrolabe::gui
