// Writing runs: everything of one run inside one transaction.
#include "core/Error.h"
#include "core/Version.h"
#include "record/LinkGroups.h"
#include "store/ByteCodec.h"
#include "store/ProjectDatabase.h"
#include "store/SpanCodec.h"
#include "store/Sqlite.h"
#include "store/TimelineCodec.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <future>
#include <map>
#include <tuple>

namespace astrolabe {
namespace {

std::string isoNow() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buf;
}

/// The zlib blobs of a run (string tables, spans, matrices), by kind.
std::vector<std::pair<std::string, PackedBlob>> packBlobs(const RunResult& r) {
    ByteWriter names, traffic, critical, report, linkIntervals;
    names.varint(r.names.size());
    for (const std::string& n : r.names)
        names.text(n);
    traffic.varint(r.trafficBytes.size());
    for (uint64_t b : r.trafficBytes)
        traffic.varint(b);
    critical.varint(r.criticalPath.size());
    for (const auto& [npuId, node] : r.criticalPath) {
        critical.zigzag(npuId);
        critical.varint(node);
    }
    report.varint(r.reportLines.size());
    for (const std::string& line : r.reportLines)
        report.text(line);
    linkIntervals.varint(r.linkIntervals.size());
    for (const LinkBusyInterval& b : r.linkIntervals) {
        linkIntervals.zigzag(b.link);
        linkIntervals.zigzag(b.start.ps());
        linkIntervals.zigzag((b.end - b.start).ps());
    }
    std::vector<std::pair<std::string, PackedBlob>> blobs{
        {"names", packBytes(names.view())},
        {"collectives", packCollectives(r.collectives)},
        {"phases", packPhases(r.phases)},
        {"traffic", packBytes(traffic.view())},
        {"critical_path", packBytes(critical.view())},
        {"report", packBytes(report.view())},
        {"link_intervals", packBytes(linkIntervals.view())}};
    // Local memory in use over time (track-local-mem): per NPU, time and byte deltas.
    if (!r.memoryUsage.empty()) {
        ByteWriter memory;
        memory.varint(r.memoryUsage.size());
        for (const std::vector<MemoryUsagePoint>& series : r.memoryUsage) {
            memory.varint(series.size());
            int64_t time = 0, bytes = 0;
            for (const MemoryUsagePoint& p : series) {
                memory.zigzag(p.time.ps() - time);
                memory.zigzag(static_cast<int64_t>(p.bytes) - bytes);
                time = p.time.ps();
                bytes = static_cast<int64_t>(p.bytes);
            }
        }
        blobs.emplace_back("memory_usage", packBytes(memory.view()));
    }
    for (const auto& [name, bytes] : r.attachments)
        blobs.emplace_back(attachmentKind(name), packBytes(bytes));
    return blobs;
}

struct PackedChunk {
    int bucket = 0;
    int group = 0;
    SimTime firstStart, maxEnd;
    uint32_t count = 0;
    PackedBlob blob;
};

struct PackedTimeline {
    TimelineLayout layout;
    std::vector<PackedChunk> chunks;
};

PackedTimeline packTimeline(const RunResult& r) {
    PackedTimeline out;
    const TimelineLayout layout = chooseTimelineLayout(r.npuCount, r.endTime, r.activities.size());
    out.layout = layout;
    const int groups = std::max(1, (r.npuCount + layout.npusPerGroup - 1) / layout.npusPerGroup);
    const size_t keys = static_cast<size_t>(groups) * layout.buckets;
    auto keyOf = [&](const ActivityInterval& a) {
        const int group = std::clamp(layout.groupOf(std::max(0, a.npu)), 0, groups - 1);
        return static_cast<size_t>(group) * layout.buckets + layout.bucketOf(a.start);
    };
    // Counting sort by chunk key; stable, so each chunk keeps the (npu, start) order.
    std::vector<uint32_t> firstOfKey(keys + 1, 0);
    for (const ActivityInterval& a : r.activities)
        ++firstOfKey[keyOf(a) + 1];
    for (size_t k = 0; k < keys; ++k)
        firstOfKey[k + 1] += firstOfKey[k];
    std::vector<uint32_t> order(r.activities.size());
    {
        std::vector<uint32_t> next(firstOfKey.begin(), firstOfKey.end() - 1);
        for (size_t i = 0; i < r.activities.size(); ++i)
            order[next[keyOf(r.activities[i])]++] = static_cast<uint32_t>(i);
    }
    // Pack the chunks on two threads (halves of the key range); the order of chunks in the
    // database does not matter, each row carries its bucket and group.
    auto packRange = [&](size_t keyBegin, size_t keyEnd) {
        std::vector<PackedChunk> chunks;
        IntervalPacker packer;
        for (size_t k = keyBegin; k < keyEnd; ++k) {
            const uint32_t begin = firstOfKey[k], end = firstOfKey[k + 1];
            if (begin == end)
                continue;
            PackedChunk c;
            c.bucket = static_cast<int>(k % layout.buckets);
            c.group = static_cast<int>(k / layout.buckets);
            c.firstStart = SimTime::max();
            c.maxEnd = SimTime::fromPs(INT64_MIN);
            for (uint32_t i = begin; i < end; ++i) {
                c.firstStart = std::min(c.firstStart, r.activities[order[i]].start);
                c.maxEnd = std::max(c.maxEnd, r.activities[order[i]].end);
            }
            c.count = end - begin;
            c.blob = packer.pack(r.activities, order.data() + begin, end - begin);
            chunks.push_back(std::move(c));
        }
        return chunks;
    };
    auto secondHalf = std::async(std::launch::async, packRange, keys / 2, keys);
    out.chunks = packRange(0, keys / 2);
    for (PackedChunk& c : secondHalf.get())
        out.chunks.push_back(std::move(c));
    return out;
}

} // namespace

void ProjectDatabase::insertBlob(int64_t id, const std::string& kind, const PackedBlob& blob) {
    SqliteStatement s(*m_db,
                      "INSERT INTO run_blobs(run_id, kind, raw_size, data) VALUES (?, ?, ?, ?)");
    s.bind(1, id).bind(2, kind).bind(3, static_cast<int64_t>(blob.rawSize));
    s.bindStaticBlob(4, blob.data);
    s.run();
}

int64_t ProjectDatabase::insertRunRow(const std::string& name, RunStatus status,
                                      const std::string& message, double wallSeconds,
                                      const RunProvenance& provenance) {
    SqliteStatement s(*m_db, "INSERT INTO runs(name, created, engine_version, status, "
                             "error_message, config_json, wall_seconds, notes, number) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, CASE WHEN ? > 0 THEN ? ELSE "
                             "(SELECT COALESCE(MAX(number), 0) + 1 FROM runs) END)");
    s.bind(1, name)
        .bind(2, provenance.created.empty() ? isoNow() : provenance.created)
        .bind(3, engineVersion())
        .bind(4, runStatusName(status));
    s.bind(5, message).bind(6, provenance.configJson).bind(7, wallSeconds);
    s.bind(8, provenance.notes).bind(9, provenance.number).bind(10, provenance.number).run();
    const int64_t id = m_db->lastInsertRowid();
    insertProvenance(id, provenance);
    return id;
}

void ProjectDatabase::insertProvenance(int64_t id, const RunProvenance& provenance) {
    SqliteStatement input(
        *m_db, "INSERT OR REPLACE INTO run_inputs(run_id, input, sha256) VALUES (?, ?, ?)");
    for (const auto& [name, hash] : provenance.inputHashes)
        input.bind(1, id).bind(2, name).bind(3, hash).run();
    SqliteStatement tag(*m_db, "INSERT OR IGNORE INTO run_tags(run_id, tag) VALUES (?, ?)");
    for (const std::string& t : provenance.tags)
        tag.bind(1, id).bind(2, t).run();
}

int64_t ProjectDatabase::saveFailedRun(const std::string& name, RunStatus status,
                                       const std::string& message, double wallSeconds,
                                       const RunProvenance& provenance) {
    requireIntactBeforeWriting();
    SqliteTransaction transaction(*m_db);
    const int64_t id = insertRunRow(name, status == RunStatus::Ok ? RunStatus::Failed : status,
                                    message, wallSeconds, provenance);
    transaction.commit();
    return id;
}

int64_t ProjectDatabase::saveRun(const RunResult& result, const RunProvenance& provenance,
                                 double wallSeconds) {
    requireIntactBeforeWriting();
    // Compress first, outside the transaction (the write lock is held only for the inserts),
    // and on two threads: the span blobs beside the timeline chunks.
    auto blobs = std::async(std::launch::async, [&result] { return packBlobs(result); });
    const PackedTimeline timeline = packTimeline(result);
    const std::vector<std::pair<std::string, PackedBlob>> packedBlobs = blobs.get();

    SqliteTransaction transaction(*m_db);
    const int64_t id =
        insertRunRow(result.name, RunStatus::Ok, {},
                     wallSeconds >= 0 ? wallSeconds : result.wallSeconds, provenance);
    insertResultTables(id, result);
    for (const auto& [kind, blob] : packedBlobs)
        insertBlob(id, kind, blob);
    SqliteStatement chunk(*m_db, "INSERT INTO timeline_chunks(run_id, bucket, npu_group, "
                                 "first_start_ps, max_end_ps, count, raw_size, data) "
                                 "VALUES (?,?,?,?,?,?,?,?)");
    for (const PackedChunk& c : timeline.chunks) {
        chunk.bind(1, id).bind(2, int64_t{c.bucket}).bind(3, int64_t{c.group});
        chunk.bind(4, c.firstStart.ps()).bind(5, c.maxEnd.ps()).bind(6, int64_t{c.count});
        chunk.bind(7, static_cast<int64_t>(c.blob.rawSize)).bindStaticBlob(8, c.blob.data).run();
    }
    const TimelineLayout& layout = timeline.layout;
    SqliteStatement run(*m_db, "UPDATE runs SET sim_time_ps = ?, npu_count = ?, events = ?, "
                               "activity_count = ?, timeline_bucket_ps = ?, timeline_buckets = ?, "
                               "timeline_group_npus = ?, series_bucket_ps = ? WHERE id = ?");
    run.bind(1, result.endTime.ps()).bind(2, int64_t{result.npuCount});
    run.bind(3, static_cast<int64_t>(result.events));
    run.bind(4, static_cast<int64_t>(result.activities.size())).bind(5, layout.bucketWidth.ps());
    run.bind(6, int64_t{layout.buckets}).bind(7, int64_t{layout.npusPerGroup});
    run.bind(8, result.seriesBucket.ps()).bind(9, id).run();
    transaction.commit();
    return id;
}

void ProjectDatabase::insertResultTables(int64_t id, const RunResult& r) {
    SqliteStatement npu(*m_db, "INSERT INTO npu_summaries VALUES "
                               "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (const NpuSummary& n : r.npus) {
        npu.bind(1, id).bind(2, int64_t{n.npu}).bind(3, int64_t{n.finished});
        int column = 4;
        for (SimTime t :
             {n.finish, n.gpuTime, n.cpuTime, n.exposedComm, n.wall, n.computeUnion, n.commUnion,
              n.cpuUnion, n.remoteMemUnion, n.invalidUnion, n.overlap, n.idle})
            npu.bind(column++, t.ps());
        npu.bind(column++, static_cast<int64_t>(n.peakMemoryBytes));
        for (double v : {n.computeBoundPercent, n.avgComputeUtilization, n.avgMemoryUtilization,
                         n.avgOperationIntensity})
            npu.bind(column++, v);
        npu.run();
    }
    // Collective statistics: one row per (node id, type, size, group) over the NPUs.
    struct Acc {
        int npus = 0;
        SimTime first = SimTime::max(), last;
        double sum = 0;
        SimTime max;
    };
    std::map<std::tuple<uint64_t, uint8_t, uint64_t, int32_t>, Acc> stats;
    for (const CollectiveSpan& c : r.collectives) {
        Acc& a = stats[{c.nodeId, static_cast<uint8_t>(c.type), c.sizeBytes, c.commGroup}];
        ++a.npus;
        a.first = std::min(a.first, c.start);
        a.last = std::max(a.last, c.end);
        a.sum += static_cast<double>((c.end - c.start).ps());
        a.max = std::max(a.max, c.end - c.start);
    }
    SqliteStatement coll(*m_db, "INSERT INTO collective_stats VALUES (?,?,?,?,?,?,?,?,?,?)");
    for (const auto& [key, a] : stats) {
        const auto& [node, type, size, group] = key;
        coll.bind(1, id).bind(2, static_cast<int64_t>(node));
        coll.bind(3, collectiveTypeName(static_cast<CollectiveType>(type)));
        coll.bind(4, static_cast<int64_t>(size)).bind(5, int64_t{group}).bind(6, int64_t{a.npus});
        coll.bind(7, a.first.ps()).bind(8, a.last.ps()).bind(9, a.sum / a.npus);
        coll.bind(10, a.max.ps()).run();
    }
    SqliteStatement link(*m_db, "INSERT INTO links VALUES (?,?,?,?,?,?,?,?,?)");
    SqliteStatement series(*m_db, "INSERT INTO link_series VALUES (?,?,?,?)");
    for (size_t i = 0; i < r.links.size(); ++i) {
        const LinkInfo& l = r.links[i];
        const LinkStats st = i < r.linkStats.size() ? r.linkStats[i] : LinkStats{};
        link.bind(1, id).bind(2, static_cast<int64_t>(i)).bind(3, int64_t{l.src});
        link.bind(4, int64_t{l.dst}).bind(5, int64_t{l.dimension});
        link.bind(6, l.bandwidthBytesPerSecond).bind(7, static_cast<int64_t>(st.bytes));
        link.bind(8, static_cast<int64_t>(st.messages)).bind(9, st.busy.ps()).run();
    }
    if (r.linkSeries.size() > m_linkDetail.maxLinks || !r.linkGroupSeries.empty()) {
        // Beyond the detail limit: one series per group of links (record/LinkGroups.h). A run
        // read back already grouped is stored as it is.
        const std::vector<LinkGroupSeries> grouped =
            r.linkGroupSeries.empty() ? groupLinkSeries(r, m_linkDetail.groupsPerDimension)
                                      : std::vector<LinkGroupSeries>{};
        SqliteStatement group(*m_db, "INSERT INTO link_group_series VALUES (?,?,?,?,?,?,?)");
        for (const LinkGroupSeries& g : r.linkGroupSeries.empty() ? grouped : r.linkGroupSeries) {
            ByteWriter mean, max;
            for (float v : g.mean)
                mean.f32(v);
            for (float v : g.max)
                max.f32(v);
            group.bind(1, id).bind(2, int64_t{g.dimension}).bind(3, int64_t{g.firstRank});
            group.bind(4, int64_t{g.linkCount}).bind(5, static_cast<int64_t>(g.mean.size()));
            group.bindBlob(6, mean.view()).bindBlob(7, max.view()).run();
        }
    } else {
        for (size_t i = 0; i < r.linkSeries.size(); ++i) {
            ByteWriter w;
            for (float v : r.linkSeries[i])
                w.f32(v);
            series.bind(1, id).bind(2, static_cast<int64_t>(i));
            series.bind(3, static_cast<int64_t>(r.linkSeries[i].size())).bindBlob(4, w.view());
            series.run();
        }
    }
    SqliteStatement dim(*m_db, "INSERT INTO dimensions VALUES (?,?,?,?,?,?)");
    for (const DimensionStats& d : r.dimensions) {
        dim.bind(1, id).bind(2, int64_t{d.dimension}).bind(3, static_cast<int64_t>(d.bytes));
        dim.bind(4, d.busy.ps()).bind(5, d.peakBandwidthBytesPerSecond).bind(6, d.utilization);
        dim.run();
    }
}

} // namespace astrolabe
