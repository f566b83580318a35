#pragma once
// A thin RAII layer over the SQLite C API: a connection and prepared statements whose errors
// become astrolabe::Error naming the database file and the failing statement.

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace astrolabe {

class SqliteConnection {
public:
    /// ReadWrite opens the file, creating it when missing. AsOnDisk reads it as it is on disk
    /// and never writes anything, not even the write-ahead log's companion files (SQLite's
    /// immutable mode): for a database in a place this process may not write.
    enum class Mode { ReadWrite, AsOnDisk };
    /// Throws astrolabe::Error (Input) on failure.
    explicit SqliteConnection(const std::string& path, Mode mode = Mode::ReadWrite);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;

    void exec(const std::string& sql);
    int64_t queryInt(const std::string& sql);
    int64_t lastInsertRowid() const;
    sqlite3* handle() const { return m_db; }
    const std::string& path() const { return m_path; }
    [[noreturn]] void fail(const std::string& what) const;

private:
    sqlite3* m_db = nullptr;
    std::string m_path;
};

class SqliteStatement {
public:
    SqliteStatement(const SqliteConnection& db, const std::string& sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    // Parameters are 1-based, as in SQLite. Text and blobs are copied (SQLITE_TRANSIENT) unless
    // bindStaticBlob is used, which requires the bytes to outlive the next step().
    SqliteStatement& bind(int index, int64_t value);
    SqliteStatement& bind(int index, double value);
    SqliteStatement& bind(int index, std::string_view text);
    SqliteStatement& bindBlob(int index, std::string_view bytes);
    SqliteStatement& bindStaticBlob(int index, std::string_view bytes);
    /// True while a row is available; false when done. Throws on error.
    bool step();
    /// step() for statements that return no rows, then reset() for reuse.
    void run();
    void reset();

    int64_t columnInt(int index) const;
    double columnDouble(int index) const;
    std::string columnText(int index) const;
    std::string_view columnBlob(int index) const; ///< valid until the next step()/reset()

private:
    const SqliteConnection& m_db;
    sqlite3_stmt* m_stmt = nullptr;
    std::string m_sql;
};

/// BEGIN IMMEDIATE on construction; ROLLBACK on destruction unless commit() was called.
class SqliteTransaction {
public:
    explicit SqliteTransaction(SqliteConnection& db);
    ~SqliteTransaction();
    void commit();

private:
    SqliteConnection& m_db;
    bool m_done = false;
};

} // namespace astrolabe
