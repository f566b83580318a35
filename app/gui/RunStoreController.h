#pragma once
// Where the open project's runs are kept: the RunStore (the SQLite project database beside a
// saved project, memory for an unsaved one) behind the runs list's RunsTableModel. Saving a
// finished run and loading a stored result both happen on a worker thread; replies that come
// back after the store was replaced (another project) are dropped. At most kLoadedResults
// stored results stay loaded.

#include "gui/RunStore.h"

#include <QList>
#include <QObject>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <vector>

class QThreadPool;

namespace astrolabe::widgets {
class LogModel;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class RunsTableModel;

class RunStoreController : public QObject {
    Q_OBJECT
public:
    using OpenStore = std::function<std::unique_ptr<RunStore>(const QString& projectPath)>;

    /// Stored runs whose results stay loaded (least recently loaded are dropped first).
    static constexpr size_t kLoadedResults = 4;
    /// A finished run with more intervals than this keeps none in memory once it is saved: the
    /// timeline reads them back from the project database window by window.
    static constexpr size_t kKeepTimelineIntervals = 1'000'000;

    /// Opens the store of an unsaved project at once. `log` is observed, not owned.
    RunStoreController(OpenStore openStore, widgets::LogModel* log, QObject* parent = nullptr);
    /// Waits for the saves and loads under way.
    ~RunStoreController() override;

    RunsTableModel* model() const { return m_model; }
    RunStore* store() const { return m_store.get(); }
    /// The run shown on screen, whose loaded result is never dropped (0: none).
    void setShownRun(std::function<int()> shownRun) { m_shownRun = std::move(shownRun); }

    /// Replaces the store with the one of the project at `projectPath` (empty: unsaved).
    void attach(const QString& projectPath);
    /// After "save as" of an unsaved project: its in-memory runs move into the new database.
    void moveToProject(const QString& projectPath);
    /// The number of the project's next run.
    int takeRunNumber() { return m_store->takeRunNumber(); }
    /// Stores a finished or failed run (off the GUI thread when the store is a database); emits
    /// runStored once it is in the list.
    void save(RunRecord record);
    /// Loads a stored run's result off the GUI thread; emits resultLoaded (or errorOccurred).
    void loadResult(const RunRecord& run);
    /// The record of a run about to be shown (nullptr: none); a finished run's stored result
    /// that is not loaded starts loading (the pages say "loading" until resultLoaded).
    const RunRecord* runToShow(int id);
    /// The records of these runs with their summaries loaded (read now, for a comparison).
    std::vector<const RunRecord*> loadForComparison(const QList<int>& ids);
    /// Logs the store's failed asynchronous writes (called once a second).
    void reportWriteErrors();

signals:
    void runStored(int storedId);
    void resultLoaded(int storedId);
    /// Runs changed other than by runStored: edited or deleted in the list, or moved into the
    /// project database.
    void runsChanged();
    void errorOccurred(const QString& title, const QString& message, const QString& keyPath);

private:
    void replaceStore(std::unique_ptr<RunStore> store);
    void added(RunRecord record);
    void onResultLoaded(int generation, int id, std::shared_ptr<const RunResult> result,
                        const QString& error);

    OpenStore m_openStore;
    widgets::LogModel* m_log;
    RunsTableModel* m_model;
    std::unique_ptr<RunStore> m_store;
    int m_generation = 0;             ///< changes with m_store: late worker replies are dropped
    QThreadPool* m_workers = nullptr; ///< saves and loads results off the GUI thread
    std::set<int> m_loading;
    std::deque<int> m_loaded;
    std::function<int()> m_shownRun;
};

} // namespace astrolabe::gui
