#include "store/Schema.h"

#include "core/Error.h"
#include "core/Version.h"
#include "store/Sqlite.h"

namespace astrolabe {

const std::vector<std::string>& migrationSteps() {
    static const std::vector<std::string> steps{
        // 0 -> 1: runs with provenance, summaries, links, chunked timelines.
        R"sql(
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    created TEXT NOT NULL,
    engine_version TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'cancelled')),
    error_message TEXT NOT NULL DEFAULT '',
    config_json TEXT NOT NULL,
    wall_seconds REAL NOT NULL DEFAULT 0,
    sim_time_ps INTEGER NOT NULL DEFAULT 0,
    npu_count INTEGER NOT NULL DEFAULT 0,
    events INTEGER NOT NULL DEFAULT 0,
    activity_count INTEGER NOT NULL DEFAULT 0,
    timeline_bucket_ps INTEGER NOT NULL DEFAULT 1,
    timeline_buckets INTEGER NOT NULL DEFAULT 1,
    timeline_group_npus INTEGER NOT NULL DEFAULT 1,
    series_bucket_ps INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE run_inputs (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    input TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    PRIMARY KEY (run_id, input)
) WITHOUT ROWID;
CREATE TABLE npu_summaries (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    npu INTEGER NOT NULL,
    finished INTEGER NOT NULL,
    finish_ps INTEGER NOT NULL, gpu_ps INTEGER NOT NULL, cpu_ps INTEGER NOT NULL,
    exposed_comm_ps INTEGER NOT NULL, wall_ps INTEGER NOT NULL,
    compute_union_ps INTEGER NOT NULL, comm_union_ps INTEGER NOT NULL,
    cpu_union_ps INTEGER NOT NULL, remote_mem_union_ps INTEGER NOT NULL,
    invalid_union_ps INTEGER NOT NULL, overlap_ps INTEGER NOT NULL, idle_ps INTEGER NOT NULL,
    peak_memory_bytes INTEGER NOT NULL,
    compute_bound_percent REAL NOT NULL, avg_compute_utilization REAL NOT NULL,
    avg_memory_utilization REAL NOT NULL, avg_operation_intensity REAL NOT NULL,
    PRIMARY KEY (run_id, npu)
) WITHOUT ROWID;
CREATE TABLE collective_stats (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    node_id INTEGER NOT NULL,
    type TEXT NOT NULL,
    size_bytes INTEGER NOT NULL,
    comm_group INTEGER NOT NULL,
    npus INTEGER NOT NULL,
    first_start_ps INTEGER NOT NULL,
    last_end_ps INTEGER NOT NULL,
    mean_duration_ps REAL NOT NULL,
    max_duration_ps INTEGER NOT NULL
);
CREATE INDEX collective_stats_run ON collective_stats(run_id);
CREATE TABLE links (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    link INTEGER NOT NULL,
    src INTEGER NOT NULL, dst INTEGER NOT NULL, dimension INTEGER NOT NULL,
    bandwidth_bytes_per_s REAL NOT NULL,
    bytes INTEGER NOT NULL, messages INTEGER NOT NULL, busy_ps INTEGER NOT NULL,
    PRIMARY KEY (run_id, link)
) WITHOUT ROWID;
CREATE TABLE link_series (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    link INTEGER NOT NULL,
    samples INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (run_id, link)
);
CREATE TABLE dimensions (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    dimension INTEGER NOT NULL,
    bytes INTEGER NOT NULL, busy_ps INTEGER NOT NULL,
    peak_bandwidth_bytes_per_s REAL NOT NULL, utilization REAL NOT NULL,
    PRIMARY KEY (run_id, dimension)
) WITHOUT ROWID;
CREATE TABLE timeline_chunks (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    bucket INTEGER NOT NULL,
    npu_group INTEGER NOT NULL,
    first_start_ps INTEGER NOT NULL,
    max_end_ps INTEGER NOT NULL,
    count INTEGER NOT NULL,
    raw_size INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE INDEX timeline_window ON timeline_chunks(run_id, bucket, max_end_ps, npu_group);
CREATE TABLE run_blobs (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    raw_size INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (run_id, kind)
);
)sql",
        // 1 -> 2: notes and tags, and listing by creation time.
        R"sql(
ALTER TABLE runs ADD COLUMN notes TEXT NOT NULL DEFAULT '';
CREATE TABLE run_tags (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (run_id, tag)
) WITHOUT ROWID;
CREATE INDEX runs_created ON runs(created);
)sql",
        // 2 -> 3: runs numbered per project (1, 2, 3... in insertion order), kept with the run
        // so that "#3" means the same run in every session.
        R"sql(
ALTER TABLE runs ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
UPDATE runs SET number = (SELECT COUNT(*) FROM runs AS earlier WHERE earlier.id <= runs.id);
)sql",
        // 3 -> 4: link utilization per group of links (record/LinkGroups.h), kept instead of
        // link_series for a run with more links than the detail limit. Runs stored before keep
        // their per-link series; nothing to convert.
        R"sql(
CREATE TABLE link_group_series (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    dimension INTEGER NOT NULL,
    first_rank INTEGER NOT NULL,
    links INTEGER NOT NULL,
    samples INTEGER NOT NULL,
    mean BLOB NOT NULL,
    max BLOB NOT NULL,
    PRIMARY KEY (run_id, dimension, first_rank)
);
)sql",
        // 4 -> 5: a dimension's busy time is its links' mean, not their sum (which passes the
        // simulated clock in a long run of many links). utilization = sum / (links * end) =
        // mean / end, so the mean is utilization * end for the runs stored before.
        R"sql(
UPDATE dimensions SET busy_ps = CAST(ROUND(utilization *
    (SELECT sim_time_ps FROM runs WHERE runs.id = dimensions.run_id)) AS INTEGER);
)sql",
    };
    return steps;
}

void migrateSchema(SqliteConnection& db, int target) {
    const int found = static_cast<int>(db.queryInt("PRAGMA user_version"));
    if (found > kSchemaVersion)
        throw Error(ErrorKind::Unsupported,
                    "project database " + db.path() + " has schema version " +
                        std::to_string(found) + ", but this Astrolabe (" + engineVersion() +
                        ") supports schema versions up to " + std::to_string(kSchemaVersion),
                    {db.path(), 0, 0, {}},
                    "open it with a newer Astrolabe, or choose another database with --db");
    // Version 0 with tables is another program's SQLite file: creating ours in it would fail
    // half-way ("table runs already exists") after switching the file to write-ahead logging.
    // One statement reads both, from one snapshot: another process creating the database at
    // this moment commits its tables and its version together.
    if (found == 0)
        if (const int64_t objects =
                db.queryInt("SELECT count(*) FROM sqlite_master WHERE (SELECT user_version FROM "
                            "pragma_user_version) = 0");
            objects > 0)
            throw Error(ErrorKind::Input,
                        "an SQLite database, but not a project database: it holds another "
                        "program's tables and indexes (" +
                            std::to_string(objects) + ") and no Astrolabe schema version",
                        {db.path(), 0, 0, {}},
                        "choose another file with --db; Astrolabe creates its database itself");
    if (found >= target)
        return;
    // Each step re-reads the version under the write lock (BEGIN IMMEDIATE): another process
    // creating or upgrading the same new database at the same moment has then either done the
    // step already or waits for this one, never runs it twice ("table runs already exists").
    while (true) {
        SqliteTransaction transaction(db);
        const int version = static_cast<int>(db.queryInt("PRAGMA user_version"));
        if (version >= target)
            return;
        db.exec(migrationSteps().at(static_cast<size_t>(version)));
        db.exec("PRAGMA user_version = " + std::to_string(version + 1));
        transaction.commit();
    }
}

} // namespace astrolabe
