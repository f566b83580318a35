#pragma once
// The project database: one SQLite file beside the project YAML holding every run of the
// project with its provenance, summaries and timeline.
//
// Guarantees:
// * a run is written in ONE transaction: after a crash (even kill -9) it is wholly present or
//   absent; a failed or cancelled run is stored with its status and message;
// * WAL mode with synchronous=NORMAL: durable across application crashes; a power loss may drop
//   the last committed runs but never corrupts the file;
// * timelines are chunked by time and NPU group (store/TimelineCodec.h), so loadActivities reads
//   only the chunks that intersect the window;
// * storage scales with what the views can show: a run with more links than
//   LinkDetailPolicy::maxLinks keeps every link's totals (table links) but its utilization
//   series only per group of links (table link_group_series, record/LinkGroups.h) instead of
//   per link (table link_series). docs/result-format.md gives the sizes; re-running the stored
//   configuration (runs.config_json) gives the per-link series back, bit for bit.
//
// Not thread-safe: one ProjectDatabase per thread (SQLite serializes writers between processes).

#include "record/LinkGroups.h"
#include "record/RunResult.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe {

class SqliteConnection;
struct PackedBlob;

enum class RunStatus : uint8_t { Ok, Failed, Cancelled };
const char* runStatusName(RunStatus status); ///< "ok", "failed", "cancelled"

/// Where a run came from. Filled by storeRun() (store/RunStorage.h) from the SimulationSpec.
struct RunProvenance {
    std::string configJson; ///< the normalized SimulationSpec (export/SpecJson.h)
    /// (input, SHA-256 hex): every file read, plus "configuration" for configJson itself.
    std::vector<std::pair<std::string, std::string>> inputHashes;
    std::vector<std::string> tags;
    std::string notes;
    /// The run's number within the project ("#3"): 0 takes the next one (highest so far + 1).
    int64_t number = 0;
    /// When the run was made, ISO 8601 UTC ("2026-11-21T09:36:29Z"); empty: now. A run moved
    /// into a project's database when the project is first saved keeps its own time.
    std::string created;
};

/// One row of the run list (no timeline, no per-NPU data).
struct RunRecord {
    int64_t id = 0;
    int64_t number = 0; ///< 1, 2, 3... per project database, in the order runs were stored
    std::string name;
    std::string created; ///< ISO 8601 UTC, "2026-11-21T09:36:29Z"
    std::string engineVersion;
    RunStatus status = RunStatus::Ok;
    std::string errorMessage; ///< empty unless failed/cancelled
    std::string configJson;
    double wallSeconds = 0;
    SimTime simulatedTime;
    int npuCount = 0;
    uint64_t events = 0;
    uint64_t activityCount = 0;
    std::string notes;
    std::vector<std::string> tags;
    std::vector<std::pair<std::string, std::string>> inputHashes;
};

/// Per-collective statistics over the NPUs that ran it (one row per node id/type/size/group).
struct CollectiveStats {
    uint64_t nodeId = 0;
    CollectiveType type = CollectiveType::AllReduce;
    uint64_t sizeBytes = 0;
    int32_t commGroup = 0;
    int npus = 0;
    SimTime firstStart, lastEnd;
    double meanDurationPs = 0;
    SimTime maxDuration;
};

/// When saveRun keeps link utilization per group of links rather than per link.
struct LinkDetailPolicy {
    /// Runs with more links than this keep grouped series. 8192 links of 512 buckets are
    /// 16 MiB of per-link series; a 16^4 torus has 524,288 links (1 GB). A fresh run past
    /// kLinkDetailLimit comes grouped already (record/LinkGroups.h) and is stored as it is.
    size_t maxLinks = kLinkDetailLimit;
    /// Groups per dimension when grouped: rows of the utilization heatmap.
    int groupsPerDimension = kLinkGroupsPerDimension;
};

/// The run_blobs kind of a RunResult attachment: "attachment:" + name.
std::string attachmentKind(const std::string& name);

class ProjectDatabase {
public:
    /// What a command does with the database. ReadOnly (list, show, export, compare) works on a
    /// database this process may not write, in a read-only file or folder: it is then read as
    /// it is on disk, leaving no files behind. ReadWrite refuses such a database when opening,
    /// before any work whose result could not be stored.
    enum class Access { ReadWrite, ReadOnly };

    /// Opens or creates the database and migrates it to kSchemaVersion. Throws astrolabe::Error
    /// when the file cannot be opened or has a newer schema (the message names both versions),
    /// and for the cases `access` describes.
    explicit ProjectDatabase(const std::string& path, Access access = Access::ReadWrite);
    ~ProjectDatabase();
    ProjectDatabase(const ProjectDatabase&) = delete;
    ProjectDatabase& operator=(const ProjectDatabase&) = delete;

    const std::string& path() const;
    int schemaVersion() const;

    /// Stores a finished run (status ok) with everything in `result` (link series grouped when
    /// it has more links than linkDetailPolicy().maxLinks); returns its id.
    /// `wallSeconds` >= 0 is stored instead of result.wallSeconds (no copy of the result).
    int64_t saveRun(const RunResult& result, const RunProvenance& provenance,
                    double wallSeconds = -1);

    const LinkDetailPolicy& linkDetailPolicy() const { return m_linkDetail; }
    void setLinkDetailPolicy(const LinkDetailPolicy& policy) { m_linkDetail = policy; }
    /// Stores a run that did not finish: status failed or cancelled, with its message.
    int64_t saveFailedRun(const std::string& name, RunStatus status, const std::string& message,
                          double wallSeconds, const RunProvenance& provenance);

    std::vector<RunRecord> listRuns() const; ///< newest first, without configJson
    std::optional<RunRecord> findRun(int64_t id) const;
    RunRecord run(int64_t id) const; ///< throws astrolabe::Error when there is no such run

    void renameRun(int64_t id, const std::string& name);
    void setTags(int64_t id, const std::vector<std::string>& tags);
    void setNotes(int64_t id, const std::string& notes);
    void deleteRun(int64_t id);

    std::vector<NpuSummary> loadNpuSummaries(int64_t id) const;
    std::vector<CollectiveStats> loadCollectiveStats(int64_t id) const;
    /// Intervals that overlap [t0, t1), for the given NPUs (all when empty), sorted by
    /// (npu, start). Reads only the chunks that can hold such intervals.
    std::vector<ActivityInterval> loadActivities(int64_t id, SimTime t0, SimTime t1,
                                                 const std::vector<int>& npus = {}) const;
    /// The whole stored result (with its attachments); activities only when withTimeline,
    /// collective and phase spans only when withSpans (summaries, links, dimensions and report
    /// lines always). A run stored with grouped link detail comes back with linkGroupSeries and no
    /// linkSeries. A fresh object the caller owns alone: it may complete it (the GUI's loader adds
    /// one NPU's intervals and sorts the spans) without a copy.
    std::shared_ptr<RunResult> loadResult(int64_t id, bool withTimeline = true,
                                          bool withSpans = true) const;

    /// A run's attachment (RunResult::attachments) by name, or nothing when it has none of that
    /// name; reads only that record.
    std::optional<std::string> loadAttachment(int64_t id, const std::string& name) const;

    /// "ok" or SQLite's list of problems (PRAGMA integrity_check).
    std::string integrityCheck() const;

private:
    void requireRun(int64_t id) const;
    /// Before this connection's first new run: SQLite's quick check of the whole file; a
    /// damaged file is refused, naming its first problem, with nothing written.
    void requireIntactBeforeWriting();
    int64_t insertRunRow(const std::string& name, RunStatus status, const std::string& message,
                         double wallSeconds, const RunProvenance& provenance);
    void insertProvenance(int64_t id, const RunProvenance& provenance);
    void insertResultTables(int64_t id, const RunResult& result);
    void insertBlob(int64_t id, const std::string& kind, const PackedBlob& blob);
    std::optional<std::string> loadBlob(int64_t id, const std::string& kind) const;

    std::unique_ptr<SqliteConnection> m_db;
    LinkDetailPolicy m_linkDetail;
    bool m_checkedIntact = false;
};

} // namespace astrolabe
