#include "store/Schema.h"

#include "TestPaths.h"
#include "core/Error.h"
#include "store/ProjectDatabase.h"
#include "store/Sqlite.h"
#include "support/SyntheticRun.h"
#include "support/TempDir.h"

#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <sstream>

using namespace astrolabe;
using astrolabe::test::TempDir;

TEST(Schema, OneMigrationStepPerVersion) {
    EXPECT_EQ(migrationSteps().size(), static_cast<size_t>(kSchemaVersion));
}

TEST(Schema, TheResultFormatDocStatesTheCurrentVersion) {
    std::ifstream in(ASTROLABE_SOURCE_DIR + "/docs/result-format.md");
    ASSERT_TRUE(in) << "docs/result-format.md";
    std::stringstream text;
    text << in.rdbuf();
    const std::string stated =
        "`PRAGMA user_version` (currently " + std::to_string(kSchemaVersion) + ")";
    EXPECT_NE(text.str().find(stated), std::string::npos)
        << "docs/result-format.md should say " << stated;
}

TEST(Schema, VersionOneDatabaseIsMigratedInPlaceKeepingItsRuns) {
    TempDir dir("schema_v1");
    const std::string path = dir.path("old.db");
    {
        // What Astrolabe with schema 1 wrote: its tables and a run, and no notes/tags.
        SqliteConnection old(path);
        migrateSchema(old, 1);
        ASSERT_EQ(old.queryInt("PRAGMA user_version"), 1);
        old.exec("INSERT INTO runs(name, created, engine_version, status, config_json, "
                 "sim_time_ps, npu_count) VALUES ('legacy', '2026-01-01T00:00:00Z', '0.0.9', "
                 "'ok', '{}', 117780000, 8)");
        EXPECT_THROW(old.exec("SELECT notes FROM runs"), Error); // not there in version 1
    }
    ProjectDatabase db(path);
    EXPECT_EQ(db.schemaVersion(), kSchemaVersion);
    const auto runs = db.listRuns();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].name, "legacy");
    EXPECT_EQ(runs[0].simulatedTime, SimTime::fromNs(117780));
    EXPECT_EQ(runs[0].notes, "");
    db.setNotes(runs[0].id, "migrated");
    db.setTags(runs[0].id, {"old"});
    EXPECT_EQ(db.run(runs[0].id).notes, "migrated");
    EXPECT_EQ(db.run(runs[0].id).tags, std::vector<std::string>{"old"});
    // And new runs go in beside it.
    db.saveRun(test::makeSyntheticRun(), {});
    EXPECT_EQ(db.listRuns().size(), 2u);
    EXPECT_EQ(db.integrityCheck(), "ok");
}

TEST(Schema, VersionTwoRunsGetNumbersInInsertionOrder) {
    TempDir dir("schema_v2");
    const std::string path = dir.path("old.db");
    {
        // Schema 2 had no per-project run numbers; ids 1, 2, 5 (3 and 4 were deleted).
        SqliteConnection old(path);
        migrateSchema(old, 2);
        for (int id : {1, 2, 5})
            old.exec("INSERT INTO runs(id, name, created, engine_version, status, config_json) "
                     "VALUES (" +
                     std::to_string(id) + ", 'run" + std::to_string(id) +
                     "', '2026-01-01T00:00:00Z', '0.1', 'ok', '{}')");
    }
    ProjectDatabase db(path);
    EXPECT_EQ(db.schemaVersion(), kSchemaVersion);
    const auto runs = db.listRuns(); // newest first
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[2].number, 1);
    EXPECT_EQ(runs[1].number, 2);
    EXPECT_EQ(runs[0].number, 3) << "run 5 is the third run still stored";
    // A new run without a number takes the next one; one with a number keeps it.
    RunProvenance numbered;
    numbered.number = 9;
    const int64_t next = db.saveRun(test::makeSyntheticRun(), {});
    EXPECT_EQ(db.run(next).number, 4);
    EXPECT_EQ(db.run(db.saveRun(test::makeSyntheticRun(), numbered)).number, 9);
    EXPECT_EQ(db.integrityCheck(), "ok");
}

TEST(Schema, VersionThreeRunsKeepTheirPerLinkSeries) {
    TempDir dir("schema_v3");
    const std::string path = dir.path("old.db");
    {
        // Schema 3 had no link_group_series: every run kept one series per link.
        SqliteConnection old(path);
        migrateSchema(old, 3);
        old.exec("INSERT INTO runs(id, name, created, engine_version, status, config_json) "
                 "VALUES (1, 'v3', '2026-01-01T00:00:00Z', '0.1', 'ok', '{}')");
        old.exec("INSERT INTO links VALUES (1, 0, 0, 1, 0, 50e9, 1024, 2, 5000)");
        old.exec("INSERT INTO link_series VALUES (1, 0, 1, x'0000003f')"); // 0.5f
        EXPECT_THROW(old.exec("SELECT * FROM link_group_series"), Error);
    }
    ProjectDatabase db(path);
    EXPECT_EQ(db.schemaVersion(), kSchemaVersion);
    const auto r = db.loadResult(1);
    ASSERT_EQ(r->linkSeries.size(), 1u);
    EXPECT_EQ(r->linkSeries[0], std::vector<float>{0.5f});
    EXPECT_TRUE(r->linkGroupSeries.empty());
    EXPECT_EQ(r->linkStats.at(0).bytes, 1024u);
    EXPECT_EQ(db.integrityCheck(), "ok");
}

TEST(Schema, VersionFourDimensionBusyTimesBecomeTheirLinksMean) {
    TempDir dir("schema_v4");
    const std::string path = dir.path("old.db");
    {
        // Schema 4 stored a dimension's busy time as the sum over its links: here 2 links busy
        // 600 ps in all of a 1000 ps run (utilization 600 / (2 x 1000) = 0.3).
        SqliteConnection old(path);
        migrateSchema(old, 4);
        old.exec("INSERT INTO runs(id, name, created, engine_version, status, config_json, "
                 "sim_time_ps) VALUES (1, 'v4', '2026-01-01T00:00:00Z', '0.1', 'ok', '{}', 1000)");
        old.exec("INSERT INTO dimensions VALUES (1, 0, 30, 600, 5e9, 0.3)");
    }
    ProjectDatabase db(path);
    EXPECT_EQ(db.schemaVersion(), kSchemaVersion);
    const auto r = db.loadResult(1);
    ASSERT_EQ(r->dimensions.size(), 1u);
    EXPECT_EQ(r->dimensions[0].busy, SimTime::fromPs(300));
    EXPECT_DOUBLE_EQ(r->dimensions[0].utilization, 0.3);
    EXPECT_EQ(db.integrityCheck(), "ok");
}

TEST(Schema, NewerDatabaseIsRefusedNamingBothVersions) {
    TempDir dir("schema_newer");
    const std::string path = dir.path("future.db");
    {
        SqliteConnection future(path);
        future.exec("CREATE TABLE runs(id INTEGER PRIMARY KEY, mystery BLOB)");
        future.exec("PRAGMA user_version = 7");
    }
    try {
        ProjectDatabase db(path);
        FAIL() << "a version-7 database was opened";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
        const std::string m = e.what();
        EXPECT_NE(m.find("schema version 7"), std::string::npos) << m;
        EXPECT_NE(m.find("up to " + std::to_string(kSchemaVersion)), std::string::npos) << m;
    }
    SqliteConnection check(path); // untouched: still version 7, not switched to WAL
    EXPECT_EQ(check.queryInt("PRAGMA user_version"), 7);
}

TEST(Schema, NotADatabaseIsAClearError) {
    TempDir dir("schema_garbage");
    const std::string path = dir.path("garbage.db");
    {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        std::fputs("this is not an SQLite database, just some text long enough to have a header",
                   f);
        std::fclose(f);
    }
    try {
        ProjectDatabase db(path);
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
}

// Another program's SQLite file given as the project database is refused and left as it was:
// creating the tables in it failed half-way ("table runs already exists") after switching the
// file to write-ahead logging.
TEST(Schema, AnotherProgramsSqliteFileIsRefusedUntouched) {
    TempDir dir("schema_foreign");
    const std::string path = dir.path("foreign.db");
    {
        SqliteConnection other(path);
        other.exec("CREATE TABLE runs (x INTEGER)");
    }
    const auto bytes = [&] {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string before = bytes();
    try {
        ProjectDatabase db(path);
        ADD_FAILURE() << "another program's database was opened as a project database";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Input);
        EXPECT_NE(std::string(e.what()).find("foreign.db: an SQLite database, but not a project "
                                             "database: it holds another program's tables"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(bytes(), before);
}
