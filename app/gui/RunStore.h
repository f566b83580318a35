#pragma once
// SEAM: where finished runs are kept. The GUI talks to this interface only; InMemoryRunStore
// serves until engine/store's SQLite project database plugs in (GuiServices::openRunStore).

#include "core/SimTime.h"
#include "record/RunResult.h"
#include "spec/SimulationSpec.h"

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <functional>
#include <memory>

namespace astrolabe::gui {

enum class RunStatus { Finished, Failed, Cancelled };
QString runStatusName(RunStatus status);

struct RunRecord {
    int id = 0; ///< unique within a store, > 0
    /// The run's number within its project ("#3"), kept in the project database; 0: not given.
    int number = 0;
    QString name;
    QDateTime started;
    RunStatus status = RunStatus::Finished;
    SimTime simulatedTime; ///< the run's end time (zero when it did not finish)
    double wallSeconds = 0;
    uint64_t events = 0;
    QString message; ///< the error for failed runs
    QString keyPath; ///< the failing setting, when the error named one
    QStringList tags;
    QString notes;
    SimulationSpec spec;
    /// Null for failed or cancelled runs, and for stored runs whose result is not loaded yet
    /// (databasePath set: the main window loads it by id off the GUI thread when selected).
    std::shared_ptr<const RunResult> result;
    /// The project database holding this run under `id`; empty for runs kept in memory only.
    QString databasePath;
    uint64_t activityCount = 0; ///< timeline intervals stored (0 when unknown)
};

/// "8 NPUs · Ring 8 · all-reduce 1 MiB · 4 chunks · congestion-unaware"
QString keySettings(const SimulationSpec& spec);
/// What a serving project serves: "deepseek-v3 on h800 (pd)".
QString servedModel(const ServingSpec& serving);

class RunStore {
public:
    virtual ~RunStore() = default;
    virtual int count() const = 0;
    /// Rows in insertion order (oldest first).
    virtual const RunRecord& at(int row) const = 0;
    /// Stores the record, assigning record.id when it is 0; returns the id.
    virtual int add(RunRecord record) = 0;
    /// Replaces the record with the same id (names, tags, notes). False when there is none.
    virtual bool update(const RunRecord& record) = 0;
    virtual bool remove(int id) = 0;

    /// Saving a run may take long (a large timeline). When this returns a function, the main
    /// window calls it on a worker thread with the finished (or failed) record, then add()s the
    /// record with the id and databasePath it set. It throws astrolabe::Error on failure.
    /// Empty: add() is cheap enough for the GUI thread.
    using BackgroundSaver = std::function<void(RunRecord& record)>;
    virtual BackgroundSaver backgroundSaver() const { return {}; }
    /// Waits until changes made so far are durable (stores that write asynchronously).
    virtual void flush() {}
    /// Changes that could not be written since the last call (asynchronous stores).
    virtual QStringList takeWriteErrors() { return {}; }

    /// The row of a run id, or -1.
    int rowOf(int id) const;

    /// Reserves the number of the project's next run: one more than any run numbered so far
    /// (stored, moved in or reserved), so the first run of every project is #1.
    int takeRunNumber() { return m_nextNumber++; }

protected:
    /// Stores call this for each run they hold, so that numbers continue after them.
    void noteRunNumber(int number) { m_nextNumber = std::max(m_nextNumber, number + 1); }

private:
    int m_nextNumber = 1;
};

class InMemoryRunStore : public RunStore {
public:
    int count() const override { return static_cast<int>(m_runs.size()); }
    const RunRecord& at(int row) const override { return m_runs.at(static_cast<size_t>(row)); }
    int add(RunRecord record) override;
    bool update(const RunRecord& record) override;
    bool remove(int id) override;

private:
    std::vector<RunRecord> m_runs;
    int m_nextId = 1;
};

} // namespace astrolabe::gui
