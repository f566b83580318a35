#pragma once
// The project database schema and its migrations.
//
// PRAGMA user_version holds the schema version. migrationSteps()[k] takes a database from
// version k to k + 1; opening a database runs the missing steps in order, each in its own
// transaction, so an old project file is upgraded in place and a crash mid-upgrade leaves it at
// the last completed version. A database whose version is newer than kSchemaVersion was written
// by a newer Astrolabe: it is refused rather than misread.
//
// Times are stored as integer picoseconds (columns *_ps), sizes as integer bytes.

#include <string>
#include <vector>

namespace astrolabe {

class SqliteConnection;

constexpr int kSchemaVersion = 5;

/// The SQL of each step, oldest first; size() == kSchemaVersion.
const std::vector<std::string>& migrationSteps();

/// Runs steps from the database's user_version up to `target`. Throws astrolabe::Error
/// (Unsupported) naming both versions when the database is newer than this build supports.
void migrateSchema(SqliteConnection& db, int target = kSchemaVersion);

} // namespace astrolabe
