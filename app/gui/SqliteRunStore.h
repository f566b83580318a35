#pragma once
// The run store of a saved project: engine/store's SQLite project database beside the project
// file. The run list (names, status, times, settings) is read when the store opens; results are
// NOT: a stored run's RunRecord::result stays null until the main window loads it by id (off the
// GUI thread) when the run is selected. Renames, tags, notes and deletions go to the database
// through one writer thread (DatabaseWriter), in order, so the GUI thread never waits for the
// write lock. backgroundSaver() saves a run through the same writer.

#include "gui/RunStore.h"

#include <memory>
#include <string>
#include <vector>

namespace astrolabe {
class ProjectDatabase;
}

namespace astrolabe::gui {

class DatabaseWriter;

class SqliteRunStore : public RunStore {
public:
    /// Opens (creating) the database; throws astrolabe::Error when it cannot be opened.
    explicit SqliteRunStore(const QString& databasePath);
    ~SqliteRunStore() override;

    const QString& databasePath() const { return m_path; }

    int count() const override { return static_cast<int>(m_runs.size()); }
    const RunRecord& at(int row) const override { return m_runs.at(static_cast<size_t>(row)); }
    /// Saves the record unless it is already in this database (databasePath set by the
    /// background saver). When saving fails the run is kept in memory only, with the error
    /// appended to its message, so the user still sees it this session.
    int add(RunRecord record) override;
    bool update(const RunRecord& record) override;
    bool remove(int id) override;
    BackgroundSaver backgroundSaver() const override;
    void flush() override;
    QStringList takeWriteErrors() override;

private:
    void loadRuns();

    QString m_path;
    std::unique_ptr<ProjectDatabase> m_db; ///< reads on the GUI thread (WAL: never blocked)
    std::shared_ptr<DatabaseWriter> m_writer;
    std::vector<RunRecord> m_runs;
    /// Ids of runs that could not be saved: far above any database id.
    int m_nextMemoryId = 1 << 30;
};

} // namespace astrolabe::gui
