#include "store/Sqlite.h"

#include "core/Error.h"

#include <sqlite3.h>

namespace astrolabe {

namespace {

// A file name as an SQLite URI path: the characters a URI gives a meaning are escaped.
std::string uriPath(const std::string& path) {
    std::string out;
    for (const char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            static const char digits[] = "0123456789ABCDEF";
            const auto byte = static_cast<unsigned char>(c);
            out += '%';
            out += digits[byte >> 4];
            out += digits[byte & 15];
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

SqliteConnection::SqliteConnection(const std::string& path, Mode mode)
    : m_path(path) {
    const int rc = mode == Mode::ReadWrite
                       ? sqlite3_open_v2(path.c_str(), &m_db,
                                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr)
                       : sqlite3_open_v2(("file:" + uriPath(path) + "?immutable=1").c_str(), &m_db,
                                         SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        m_db = nullptr;
        throw Error(ErrorKind::Input, "cannot open project database " + path + ": " + message,
                    {path, 0, 0, {}});
    }
    sqlite3_busy_timeout(m_db, 5000);
}

SqliteConnection::~SqliteConnection() {
    sqlite3_close(m_db);
}

void SqliteConnection::fail(const std::string& what) const {
    throw Error(ErrorKind::Input,
                "project database " + m_path + ": " + what + ": " + sqlite3_errmsg(m_db),
                {m_path, 0, 0, {}});
}

void SqliteConnection::exec(const std::string& sql) {
    char* message = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        const std::string text = message ? message : "unknown error";
        sqlite3_free(message);
        throw Error(ErrorKind::Input,
                    "project database " + m_path + ": " + text + " (in: " + sql.substr(0, 80) + ")",
                    {m_path, 0, 0, {}});
    }
}

int64_t SqliteConnection::queryInt(const std::string& sql) {
    SqliteStatement s(*this, sql);
    return s.step() ? s.columnInt(0) : 0;
}

int64_t SqliteConnection::lastInsertRowid() const {
    return sqlite3_last_insert_rowid(m_db);
}

SqliteStatement::SqliteStatement(const SqliteConnection& db, const std::string& sql)
    : m_db(db)
    , m_sql(sql) {
    if (sqlite3_prepare_v2(db.handle(), sql.c_str(), static_cast<int>(sql.size()), &m_stmt,
                           nullptr) != SQLITE_OK)
        db.fail("cannot prepare \"" + sql.substr(0, 80) + "\"");
}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(m_stmt);
}

SqliteStatement& SqliteStatement::bind(int index, int64_t value) {
    sqlite3_bind_int64(m_stmt, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
    sqlite3_bind_double(m_stmt, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
    sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    return *this;
}

SqliteStatement& SqliteStatement::bindBlob(int index, std::string_view bytes) {
    sqlite3_bind_blob64(m_stmt, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
    return *this;
}

SqliteStatement& SqliteStatement::bindStaticBlob(int index, std::string_view bytes) {
    sqlite3_bind_blob64(m_stmt, index, bytes.data(), bytes.size(), SQLITE_STATIC);
    return *this;
}

bool SqliteStatement::step() {
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    m_db.fail("\"" + m_sql.substr(0, 80) + "\" failed");
}

void SqliteStatement::run() {
    step();
    reset();
}

void SqliteStatement::reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

int64_t SqliteStatement::columnInt(int index) const {
    return sqlite3_column_int64(m_stmt, index);
}

double SqliteStatement::columnDouble(int index) const {
    return sqlite3_column_double(m_stmt, index);
}

std::string SqliteStatement::columnText(int index) const {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, index));
    return text ? std::string(text, static_cast<size_t>(sqlite3_column_bytes(m_stmt, index)))
                : std::string();
}

std::string_view SqliteStatement::columnBlob(int index) const {
    const void* data = sqlite3_column_blob(m_stmt, index);
    const int size = sqlite3_column_bytes(m_stmt, index);
    return data ? std::string_view(static_cast<const char*>(data), static_cast<size_t>(size))
                : std::string_view();
}

SqliteTransaction::SqliteTransaction(SqliteConnection& db)
    : m_db(db) {
    m_db.exec("BEGIN IMMEDIATE");
}

SqliteTransaction::~SqliteTransaction() {
    if (!m_done)
        sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void SqliteTransaction::commit() {
    m_db.exec("COMMIT");
    m_done = true;
}

} // namespace astrolabe
