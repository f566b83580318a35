// Reading stored runs back: summaries, windows of the timeline, whole results.
#include "core/Error.h"
#include "store/ByteCodec.h"
#include "store/ProjectDatabase.h"
#include "store/SpanCodec.h"
#include "store/Sqlite.h"
#include "store/TimelineCodec.h"

#include <algorithm>

namespace astrolabe {
namespace {

CollectiveType parseCollectiveType(const std::string& name) {
    for (int t = 0; t <= static_cast<int>(CollectiveType::Barrier); ++t)
        if (name == collectiveTypeName(static_cast<CollectiveType>(t)))
            return static_cast<CollectiveType>(t);
    return CollectiveType::AllReduce;
}

} // namespace

std::optional<std::string> ProjectDatabase::loadBlob(int64_t id, const std::string& kind) const {
    SqliteStatement s(*m_db, "SELECT raw_size, data FROM run_blobs WHERE run_id = ? AND kind = ?");
    s.bind(1, id).bind(2, kind);
    if (!s.step())
        return std::nullopt;
    return zlibDecompress(s.columnBlob(1), static_cast<size_t>(s.columnInt(0)));
}

std::vector<NpuSummary> ProjectDatabase::loadNpuSummaries(int64_t id) const {
    std::vector<NpuSummary> out;
    SqliteStatement s(*m_db, "SELECT * FROM npu_summaries WHERE run_id = ? ORDER BY npu");
    s.bind(1, id);
    while (s.step()) {
        NpuSummary n;
        n.npu = static_cast<int>(s.columnInt(1));
        n.finished = s.columnInt(2) != 0;
        int column = 3;
        for (SimTime* t :
             {&n.finish, &n.gpuTime, &n.cpuTime, &n.exposedComm, &n.wall, &n.computeUnion,
              &n.commUnion, &n.cpuUnion, &n.remoteMemUnion, &n.invalidUnion, &n.overlap, &n.idle})
            *t = SimTime::fromPs(s.columnInt(column++));
        n.peakMemoryBytes = static_cast<uint64_t>(s.columnInt(column++));
        for (double* v : {&n.computeBoundPercent, &n.avgComputeUtilization, &n.avgMemoryUtilization,
                          &n.avgOperationIntensity})
            *v = s.columnDouble(column++);
        out.push_back(n);
    }
    return out;
}

std::vector<CollectiveStats> ProjectDatabase::loadCollectiveStats(int64_t id) const {
    std::vector<CollectiveStats> out;
    SqliteStatement s(*m_db, "SELECT node_id, type, size_bytes, comm_group, npus, first_start_ps, "
                             "last_end_ps, mean_duration_ps, max_duration_ps FROM "
                             "collective_stats WHERE run_id = ? ORDER BY first_start_ps, node_id");
    s.bind(1, id);
    while (s.step())
        out.push_back({static_cast<uint64_t>(s.columnInt(0)), parseCollectiveType(s.columnText(1)),
                       static_cast<uint64_t>(s.columnInt(2)), static_cast<int32_t>(s.columnInt(3)),
                       static_cast<int>(s.columnInt(4)), SimTime::fromPs(s.columnInt(5)),
                       SimTime::fromPs(s.columnInt(6)), s.columnDouble(7),
                       SimTime::fromPs(s.columnInt(8))});
    return out;
}

std::vector<ActivityInterval> ProjectDatabase::loadActivities(int64_t id, SimTime t0, SimTime t1,
                                                              const std::vector<int>& npus) const {
    std::vector<ActivityInterval> out;
    if (!(t0 < t1))
        return out;
    SqliteStatement layoutQuery(
        *m_db, "SELECT timeline_bucket_ps, timeline_buckets, timeline_group_npus, npu_count "
               "FROM runs WHERE id = ?");
    layoutQuery.bind(1, id);
    if (!layoutQuery.step())
        requireRun(id);
    TimelineLayout layout;
    layout.bucketWidth = SimTime::fromPs(std::max<int64_t>(1, layoutQuery.columnInt(0)));
    layout.buckets = static_cast<int>(std::max<int64_t>(1, layoutQuery.columnInt(1)));
    layout.npusPerGroup = static_cast<int>(std::max<int64_t>(1, layoutQuery.columnInt(2)));
    const int npuCount = static_cast<int>(layoutQuery.columnInt(3));
    std::vector<bool> mask, groupWanted;
    if (!npus.empty()) {
        mask.assign(static_cast<size_t>(std::max(npuCount, 1)), false);
        groupWanted.assign(static_cast<size_t>(npuCount / layout.npusPerGroup + 1), false);
        for (int n : npus)
            if (n >= 0 && n < npuCount) {
                mask[static_cast<size_t>(n)] = true;
                groupWanted[static_cast<size_t>(layout.groupOf(n))] = true;
            }
    }
    // Chunks whose intervals start before t1 and may end at or after t0.
    SqliteStatement s(*m_db, "SELECT npu_group, raw_size, data FROM timeline_chunks "
                             "WHERE run_id = ? AND bucket <= ? AND max_end_ps >= ? "
                             "AND first_start_ps < ?");
    const int lastBucket = layout.bucketOf(t1 - SimTime::fromPs(1));
    s.bind(1, id).bind(2, int64_t{lastBucket}).bind(3, t0.ps()).bind(4, t1.ps());
    while (s.step()) {
        const auto group = static_cast<size_t>(s.columnInt(0));
        if (!groupWanted.empty() && (group >= groupWanted.size() || !groupWanted[group]))
            continue;
        const std::string raw =
            zlibDecompress(s.columnBlob(2), static_cast<size_t>(s.columnInt(1)));
        decodeIntervals(raw, t0, t1, mask, out);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const ActivityInterval& a, const ActivityInterval& b) {
                         return a.npu != b.npu ? a.npu < b.npu : a.start < b.start;
                     });
    return out;
}

std::optional<std::string> ProjectDatabase::loadAttachment(int64_t id,
                                                           const std::string& name) const {
    requireRun(id);
    return loadBlob(id, attachmentKind(name));
}

std::shared_ptr<RunResult> ProjectDatabase::loadResult(int64_t id, bool withTimeline,
                                                       bool withSpans) const {
    const RunRecord record = run(id);
    auto r = std::make_shared<RunResult>();
    r->name = record.name;
    r->npuCount = record.npuCount;
    r->endTime = record.simulatedTime;
    r->events = record.events;
    r->wallSeconds = record.wallSeconds;
    r->npus = loadNpuSummaries(id);
    // A finished run keeps one summary per NPU (a serving run keeps its figures in its serving
    // attachment instead): fewer is a file changed outside Astrolabe or damaged, not a run
    // that did nothing, and is not shown or exported as one.
    if (record.status == RunStatus::Ok && r->npus.size() != static_cast<size_t>(record.npuCount)) {
        SqliteStatement serving(*m_db, "SELECT 1 FROM run_blobs WHERE run_id = ? AND kind = ?");
        serving.bind(1, id).bind(2, attachmentKind("serving")); // whether it has one, unread
        if (!serving.step())
            throw Error(ErrorKind::Input,
                        "run " + std::to_string(id) + " is incomplete in project database " +
                            path() + ": it ran on " + std::to_string(record.npuCount) +
                            " NPUs and the database holds the figures of " +
                            std::to_string(r->npus.size()),
                        {path(), 0, 0, {}},
                        "its rows were deleted or the file is damaged; run the project again");
    }
    if (withTimeline)
        r->activities = loadActivities(id, SimTime::fromPs(INT64_MIN), SimTime::max());
    if (auto blob = loadBlob(id, "names")) {
        ByteReader in(*blob);
        for (uint64_t n = in.varint(); n > 0; --n)
            r->names.push_back(in.text());
    }
    if (withSpans) {
        if (auto blob = loadBlob(id, "collectives"))
            r->collectives = decodeCollectives(*blob);
        if (auto blob = loadBlob(id, "phases"))
            r->phases = decodePhases(*blob);
    }
    SqliteStatement links(*m_db, "SELECT src, dst, dimension, bandwidth_bytes_per_s, bytes, "
                                 "messages, busy_ps FROM links WHERE run_id = ? ORDER BY link");
    links.bind(1, id);
    while (links.step()) {
        r->links.push_back({static_cast<int32_t>(links.columnInt(0)),
                            static_cast<int32_t>(links.columnInt(1)),
                            static_cast<int16_t>(links.columnInt(2)), links.columnDouble(3)});
        r->linkStats.push_back({static_cast<uint64_t>(links.columnInt(4)),
                                static_cast<uint64_t>(links.columnInt(5)),
                                SimTime::fromPs(links.columnInt(6))});
    }
    SqliteStatement series(*m_db, "SELECT series_bucket_ps FROM runs WHERE id = ?");
    series.bind(1, id);
    if (series.step())
        r->seriesBucket = SimTime::fromPs(series.columnInt(0));
    SqliteStatement samples(*m_db,
                            "SELECT samples, data FROM link_series WHERE run_id = ? ORDER BY link");
    samples.bind(1, id);
    while (samples.step()) {
        ByteReader in(samples.columnBlob(1));
        std::vector<float> values(static_cast<size_t>(samples.columnInt(0)));
        for (float& v : values)
            v = in.f32();
        r->linkSeries.push_back(std::move(values));
    }
    SqliteStatement groups(*m_db, "SELECT dimension, first_rank, links, samples, mean, max FROM "
                                  "link_group_series WHERE run_id = ? ORDER BY dimension, "
                                  "first_rank");
    groups.bind(1, id);
    while (groups.step()) {
        LinkGroupSeries g;
        g.dimension = static_cast<int16_t>(groups.columnInt(0));
        g.firstRank = static_cast<int32_t>(groups.columnInt(1));
        g.linkCount = static_cast<int32_t>(groups.columnInt(2));
        const auto samples = static_cast<size_t>(groups.columnInt(3));
        for (auto [column, values] : {std::pair{4, &g.mean}, std::pair{5, &g.max}}) {
            const std::string_view blob = groups.columnBlob(column);
            ByteReader in(blob);
            values->resize(std::min(samples, blob.size() / sizeof(float)));
            for (float& v : *values)
                v = in.f32();
        }
        r->linkGroupSeries.push_back(std::move(g));
    }
    SqliteStatement dims(*m_db, "SELECT dimension, bytes, busy_ps, peak_bandwidth_bytes_per_s, "
                                "utilization FROM dimensions WHERE run_id = ? ORDER BY dimension");
    dims.bind(1, id);
    while (dims.step())
        r->dimensions.push_back(
            {static_cast<int>(dims.columnInt(0)), static_cast<uint64_t>(dims.columnInt(1)),
             SimTime::fromPs(dims.columnInt(2)), dims.columnDouble(3), dims.columnDouble(4)});
    if (auto blob = loadBlob(id, "traffic")) {
        ByteReader in(*blob);
        r->trafficBytes.resize(in.varint());
        for (uint64_t& b : r->trafficBytes)
            b = in.varint();
    }
    if (auto blob = loadBlob(id, "critical_path")) {
        ByteReader in(*blob);
        for (uint64_t n = in.varint(); n > 0; --n) {
            const auto npu = static_cast<int32_t>(in.zigzag());
            r->criticalPath.emplace_back(npu, in.varint());
        }
    }
    if (auto blob = loadBlob(id, "report")) {
        ByteReader in(*blob);
        for (uint64_t n = in.varint(); n > 0; --n)
            r->reportLines.push_back(in.text());
    }
    if (auto blob = loadBlob(id, "link_intervals")) {
        ByteReader in(*blob);
        for (uint64_t n = in.varint(); n > 0; --n) {
            LinkBusyInterval b;
            b.link = static_cast<int32_t>(in.zigzag());
            b.start = SimTime::fromPs(in.zigzag());
            b.end = b.start + SimTime::fromPs(in.zigzag());
            r->linkIntervals.push_back(b);
        }
    }
    SqliteStatement attachments(
        *m_db, "SELECT kind FROM run_blobs WHERE run_id = ? AND kind LIKE 'attachment:%' "
               "ORDER BY kind");
    attachments.bind(1, id);
    while (attachments.step()) {
        const std::string kind = attachments.columnText(0);
        const std::string name = kind.substr(attachmentKind("").size());
        if (auto bytes = loadBlob(id, kind))
            r->attachments.emplace_back(name, std::move(*bytes));
    }
    if (auto blob = loadBlob(id, "memory_usage")) {
        ByteReader in(*blob);
        // Each count is checked against the bytes left (a point takes at least two), so a
        // corrupt blob cannot make the reader reserve more than the blob could hold.
        auto count = [&in](size_t bytesPerItem) {
            const uint64_t n = in.varint();
            if (n > in.remaining() / bytesPerItem)
                throw Error(ErrorKind::Input, "corrupt memory-usage record in the project "
                                              "database: a count beyond its data");
            return static_cast<size_t>(n);
        };
        r->memoryUsage.resize(count(1));
        for (std::vector<MemoryUsagePoint>& series : r->memoryUsage) {
            series.resize(count(2));
            int64_t time = 0, bytes = 0;
            for (MemoryUsagePoint& p : series) {
                time += in.zigzag();
                bytes += in.zigzag();
                p.time = SimTime::fromPs(time);
                p.bytes = static_cast<uint64_t>(bytes);
            }
        }
    }
    return r;
}

} // namespace astrolabe
