// Opening, run bookkeeping and listing. Writing a run is in ProjectDatabaseWrite.cpp, reading
// results back in ProjectDatabaseRead.cpp.
#include "store/ProjectDatabase.h"

#include "core/Error.h"
#include "store/Schema.h"
#include "store/Sqlite.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <sqlite3.h>
#include <thread>
#include <unistd.h>

namespace astrolabe {

namespace fs = std::filesystem;

const char* runStatusName(RunStatus status) {
    switch (status) {
    case RunStatus::Ok:
        return "ok";
    case RunStatus::Failed:
        return "failed";
    case RunStatus::Cancelled:
        return "cancelled";
    }
    return "failed";
}

std::string attachmentKind(const std::string& name) {
    return "attachment:" + name;
}

namespace {

RunStatus parseStatus(const std::string& text) {
    if (text == "ok")
        return RunStatus::Ok;
    return text == "cancelled" ? RunStatus::Cancelled : RunStatus::Failed;
}

constexpr const char* kRunColumns =
    "id, name, created, engine_version, status, error_message, wall_seconds, sim_time_ps, "
    "npu_count, events, activity_count, notes, number";

RunRecord readRunRow(const SqliteStatement& s) {
    RunRecord r;
    r.id = s.columnInt(0);
    r.name = s.columnText(1);
    r.created = s.columnText(2);
    r.engineVersion = s.columnText(3);
    r.status = parseStatus(s.columnText(4));
    r.errorMessage = s.columnText(5);
    r.wallSeconds = s.columnDouble(6);
    r.simulatedTime = SimTime::fromPs(s.columnInt(7));
    r.npuCount = static_cast<int>(s.columnInt(8));
    r.events = static_cast<uint64_t>(s.columnInt(9));
    r.activityCount = static_cast<uint64_t>(s.columnInt(10));
    r.notes = s.columnText(11);
    r.number = s.columnInt(12);
    return r;
}

// WAL is a property of the file: the first process to open a new database switches it, and
// while it does, SQLite answers another process's switch with "busy" at once, without waiting
// its busy timeout. That process tries again for up to 5 s; by then the file is in WAL already.
void useWriteAheadLog(SqliteConnection& db) {
    for (int attempt = 0;; ++attempt) {
        const int rc =
            sqlite3_exec(db.handle(), "PRAGMA journal_mode = WAL", nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK)
            return;
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || attempt == 500)
            db.fail("cannot switch to write-ahead logging");
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

// Whether this process may write the database and, for its write-ahead log, its folder.
bool writableHere(const std::string& path) {
    const fs::path file(path);
    const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
    // (One access call for the file: another process may create it at this moment.)
    return ::access(folder.c_str(), W_OK) == 0 &&
           (::access(file.c_str(), W_OK) == 0 || errno == ENOENT);
}

std::unique_ptr<SqliteConnection> openConnection(const std::string& path,
                                                 ProjectDatabase::Access access) {
    if (writableHere(path))
        return std::make_unique<SqliteConnection>(path);
    if (access == ProjectDatabase::Access::ReadWrite) {
        std::error_code error;
        const fs::path folder =
            fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
        if (!fs::is_directory(folder, error))
            throw Error(ErrorKind::Input,
                        "cannot create this project database: its folder " + folder.string() +
                            " does not exist",
                        {path, 0, 0, {}}, "create the folder, or choose another with --db");
        throw Error(ErrorKind::Input,
                    std::string("cannot write this project database: ") +
                        (fs::exists(path, error) ? "the file or its folder is read-only"
                                                 : "its folder is read-only") +
                        " for this user (SQLite also writes its log beside the file)",
                    {path, 0, 0, {}},
                    "choose a database in a folder you may write with --db; list, show, export "
                    "and compare read this one as it is");
    }
    // Runs still in the log (a writer that did not close) are not in the file: reading the
    // file alone would show an older database as if it were the whole one.
    std::error_code ignored;
    if (const auto log = fs::file_size(path + "-wal", ignored); !ignored && log > 0)
        throw Error(ErrorKind::Input,
                    "the project database has runs in its write-ahead log (" + path +
                        "-wal), which a reader without write access cannot merge",
                    {path, 0, 0, {}},
                    "open it once as a user who may write its folder (any runs list does), or "
                    "wait until the program writing it closes it");
    return std::make_unique<SqliteConnection>(path, SqliteConnection::Mode::AsOnDisk);
}

} // namespace

ProjectDatabase::ProjectDatabase(const std::string& path, Access access)
    : m_db(openConnection(path, access)) {
    // Check the version before anything that could write to a newer file.
    migrateSchema(*m_db, 0);
    if (sqlite3_db_readonly(m_db->handle(), "main") == 1) {
        if (schemaVersion() != kSchemaVersion)
            throw Error(ErrorKind::Input,
                        "the project database has schema version " +
                            std::to_string(schemaVersion()) + " and this Astrolabe reads " +
                            std::to_string(kSchemaVersion) +
                            ": it would upgrade the file, which is read-only for this user",
                        {path, 0, 0, {}}, "open it once as a user who may write its folder");
        return;
    }
    useWriteAheadLog(*m_db);
    m_db->exec("PRAGMA synchronous = NORMAL");
    m_db->exec("PRAGMA foreign_keys = ON");
    m_db->exec("PRAGMA cache_size = -65536"); // 64 MiB
    migrateSchema(*m_db);
}

ProjectDatabase::~ProjectDatabase() = default;

const std::string& ProjectDatabase::path() const {
    return m_db->path();
}

int ProjectDatabase::schemaVersion() const {
    return static_cast<int>(m_db->queryInt("PRAGMA user_version"));
}

void ProjectDatabase::requireRun(int64_t id) const {
    SqliteStatement s(*m_db, "SELECT 1 FROM runs WHERE id = ?");
    s.bind(1, id);
    if (!s.step())
        throw Error(ErrorKind::Input,
                    "no run " + std::to_string(id) + " in project database " + path(), {},
                    "'astrolabe-cli runs list' shows the stored runs");
}

std::vector<RunRecord> ProjectDatabase::listRuns() const {
    std::vector<RunRecord> runs;
    SqliteStatement s(*m_db, std::string("SELECT ") + kRunColumns + " FROM runs ORDER BY id DESC");
    SqliteStatement tags(*m_db, "SELECT tag FROM run_tags WHERE run_id = ? ORDER BY tag");
    while (s.step()) {
        runs.push_back(readRunRow(s));
        tags.bind(1, runs.back().id);
        while (tags.step())
            runs.back().tags.push_back(tags.columnText(0));
        tags.reset();
    }
    return runs;
}

std::optional<RunRecord> ProjectDatabase::findRun(int64_t id) const {
    SqliteStatement s(*m_db, std::string("SELECT ") + kRunColumns +
                                 ", config_json FROM runs WHERE id = ?");
    s.bind(1, id);
    if (!s.step())
        return std::nullopt;
    RunRecord r = readRunRow(s);
    r.configJson = s.columnText(13); // after the kRunColumns
    SqliteStatement tags(*m_db, "SELECT tag FROM run_tags WHERE run_id = ? ORDER BY tag");
    tags.bind(1, id);
    while (tags.step())
        r.tags.push_back(tags.columnText(0));
    SqliteStatement inputs(*m_db,
                           "SELECT input, sha256 FROM run_inputs WHERE run_id = ? ORDER BY input");
    inputs.bind(1, id);
    while (inputs.step())
        r.inputHashes.emplace_back(inputs.columnText(0), inputs.columnText(1));
    return r;
}

RunRecord ProjectDatabase::run(int64_t id) const {
    std::optional<RunRecord> r = findRun(id);
    if (!r)
        requireRun(id); // throws the message
    return *r;
}

void ProjectDatabase::renameRun(int64_t id, const std::string& name) {
    requireRun(id);
    SqliteStatement s(*m_db, "UPDATE runs SET name = ? WHERE id = ?");
    s.bind(1, name).bind(2, id).run();
}

void ProjectDatabase::setTags(int64_t id, const std::vector<std::string>& tags) {
    requireRun(id);
    SqliteTransaction transaction(*m_db);
    SqliteStatement clear(*m_db, "DELETE FROM run_tags WHERE run_id = ?");
    clear.bind(1, id).run();
    SqliteStatement add(*m_db, "INSERT OR IGNORE INTO run_tags(run_id, tag) VALUES (?, ?)");
    for (const std::string& tag : tags)
        add.bind(1, id).bind(2, tag).run();
    transaction.commit();
}

void ProjectDatabase::setNotes(int64_t id, const std::string& notes) {
    requireRun(id);
    SqliteStatement s(*m_db, "UPDATE runs SET notes = ? WHERE id = ?");
    s.bind(1, notes).bind(2, id).run();
}

void ProjectDatabase::deleteRun(int64_t id) {
    requireRun(id);
    SqliteTransaction transaction(*m_db);
    SqliteStatement s(*m_db, "DELETE FROM runs WHERE id = ?"); // the rest cascades
    s.bind(1, id).run();
    transaction.commit();
}

void ProjectDatabase::requireIntactBeforeWriting() {
    if (m_checkedIntact)
        return;
    SqliteStatement s(*m_db, "PRAGMA quick_check(1)");
    std::string verdict = s.step() ? s.columnText(0) : std::string("no answer");
    if (verdict == "ok") {
        m_checkedIntact = true;
        return;
    }
    // "*** in database main ***\nOn tree page 31 cell 1: ...": the finding, on one line.
    const std::string heading = "*** in database main ***";
    if (verdict.rfind(heading, 0) == 0)
        verdict.erase(0, heading.size());
    std::replace(verdict.begin(), verdict.end(), '\n', ' ');
    verdict.erase(0, verdict.find_first_not_of(' '));
    throw Error(ErrorKind::Input,
                "the project database is damaged (SQLite's check: " + verdict +
                    "), so nothing was written to it",
                {path(), 0, 0, {}},
                "move the file aside and the next run starts a new database; 'sqlite3 FILE "
                ".recover' rescues what it can of the old one");
}

std::string ProjectDatabase::integrityCheck() const {
    SqliteStatement s(*m_db, "PRAGMA integrity_check");
    std::string out;
    while (s.step()) {
        if (!out.empty())
            out += '\n';
        out += s.columnText(0);
    }
    return out;
}

} // namespace astrolabe
