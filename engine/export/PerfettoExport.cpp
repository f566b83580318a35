#include "export/PerfettoExport.h"

#include "core/Error.h"
#include "core/OutputFile.h"
#include "export/NumberFormat.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <ostream>
#include <set>

namespace astrolabe {
namespace {

constexpr int kBins = 4096;           // time resolution of the size budget
constexpr uint64_t kSliceBytes = 125; // without the name
constexpr uint64_t kCounterBytes = 90;
constexpr uint64_t kFlowBytes = 180; // both ends
constexpr uint64_t kMetadataBytes = 110;

void appendEscaped(std::string& out, const std::string& s) {
    static const char* hex = "0123456789abcdef";
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            out += "\\u00";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
    }
}

const std::string& sliceName(const RunResult& r, const ActivityInterval& a, std::string& tmp) {
    if (a.nameIndex < r.names.size())
        return r.names[a.nameIndex];
    tmp = nodeTypeName(a.nodeType);
    return tmp;
}

/// A buffered writer: events are separated by commas, flushed every megabyte.
class EventWriter {
public:
    explicit EventWriter(std::ostream& out)
        : m_out(out) {}
    std::string& begin() {
        m_buf += m_first ? "\n" : ",\n";
        m_first = false;
        return m_buf;
    }
    void raw(const std::string& s) { m_buf += s; }
    void maybeFlush() {
        if (m_buf.size() > (1u << 20))
            flush();
    }
    void flush() {
        m_out.write(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
        m_buf.clear();
    }

private:
    std::ostream& m_out;
    std::string m_buf;
    bool m_first = true;
};

struct Plan {
    std::vector<int> lanes;
    std::set<std::pair<int, int>> tracks; // (npu, tid)
    SimTime binWidth;
    std::vector<uint64_t> binBytes; // estimated bytes of events starting in each bin
    uint64_t fixedBytes = 0;        // metadata, repeated in every file
    uint64_t total = 0;
};

int binOf(const Plan& p, SimTime t) {
    const int64_t b = t.ps() / p.binWidth.ps();
    return static_cast<int>(std::clamp<int64_t>(b, 0, kBins - 1));
}

Plan makePlan(const RunResult& r, const PerfettoOptions& o) {
    Plan p;
    p.lanes = assignLanes(r);
    p.binWidth = SimTime::fromPs(std::max<int64_t>(1, (r.endTime.ps() + kBins - 1) / kBins));
    p.binBytes.assign(kBins, 0);
    std::string tmp;
    for (size_t i = 0; i < r.activities.size(); ++i) {
        const ActivityInterval& a = r.activities[i];
        p.tracks.insert({a.npu, perfettoTid(a.kind, p.lanes[i])});
        p.binBytes[binOf(p, a.start)] += kSliceBytes + sliceName(r, a, tmp).size();
    }
    if (o.linkCounters && r.seriesBucket.ps() > 0)
        for (const std::vector<float>& series : r.linkSeries)
            for (size_t b = 0; b < series.size(); ++b)
                p.binBytes[binOf(p, r.seriesBucket * static_cast<int64_t>(b))] += kCounterBytes;
    if (o.memoryCounters)
        for (const std::vector<MemoryUsagePoint>& usage : r.memoryUsage)
            for (const MemoryUsagePoint& point : usage)
                p.binBytes[binOf(p, point.time)] += kCounterBytes;
    if (o.flows)
        p.binBytes[0] += kFlowBytes * r.criticalPath.size();
    p.fixedBytes = kMetadataBytes * (p.tracks.size() + r.npuCount + 2) + 400;
    p.total = p.fixedBytes + std::accumulate(p.binBytes.begin(), p.binBytes.end(), uint64_t{0});
    return p;
}

/// Writes one JSON document holding the events that start in [t0, t1).
void writeWindow(std::ostream& out, const RunResult& r, const Plan& p, const PerfettoOptions& o,
                 SimTime t0, SimTime t1, const std::string& note, PerfettoSummary& sum) {
    EventWriter w(out);
    std::string head = "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"astrolabe\"";
    head += ",\"run\":\"";
    appendEscaped(head, r.name);
    head += "\",\"windowStartUs\":";
    appendScaled(head, t0.ps(), 6);
    if (!note.empty()) {
        head += ",\"truncated\":\"";
        appendEscaped(head, note);
        head += '"';
    }
    head += "},\"traceEvents\":[";
    w.raw(head);
    for (int n = 0; n < r.npuCount; ++n) {
        std::string& b = w.begin();
        b += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(n) +
             ",\"tid\":0,\"args\":{\"name\":\"NPU " + std::to_string(n) + "\"}}";
    }
    for (const auto& [npu, tid] : p.tracks) {
        const int kind = tid % 100 - 1;
        const int lane = tid / 100;
        std::string name = activityKindName(static_cast<ActivityKind>(kind));
        if (lane > 0)
            name += " #" + std::to_string(lane + 1);
        std::string& b = w.begin();
        b += "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(npu) +
             ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"name\":\"" + name + "\"}}";
        w.begin() += "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" + std::to_string(npu) +
                     ",\"tid\":" + std::to_string(tid) +
                     ",\"args\":{\"sort_index\":" + std::to_string(tid) + "}}";
    }
    std::string tmp;
    for (size_t i = 0; i < r.activities.size(); ++i) {
        const ActivityInterval& a = r.activities[i];
        if (a.start < t0 || a.start >= t1)
            continue;
        std::string& b = w.begin();
        b += "{\"ph\":\"X\",\"name\":\"";
        appendEscaped(b, sliceName(r, a, tmp));
        b += "\",\"cat\":\"";
        b += activityKindName(a.kind);
        b += "\",\"pid\":" + std::to_string(a.npu) +
             ",\"tid\":" + std::to_string(perfettoTid(a.kind, p.lanes[i])) + ",\"ts\":";
        appendScaled(b, a.start.ps(), 6);
        b += ",\"dur\":";
        appendScaled(b, (a.end - a.start).ps(), 6);
        b += ",\"args\":{\"node\":" + std::to_string(a.nodeId) +
             ",\"bytes\":" + std::to_string(a.bytes) + "}}";
        ++sum.slices;
        w.maybeFlush();
    }
    if (o.linkCounters && r.seriesBucket.ps() > 0 && !r.linkSeries.empty()) {
        const int pid = r.npuCount;
        w.begin() += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(pid) +
                     ",\"tid\":0,\"args\":{\"name\":\"Network\"}}";
        for (size_t l = 0; l < r.linkSeries.size(); ++l) {
            std::string name = "link " + std::to_string(l);
            if (l < r.links.size())
                name += " (" + std::to_string(r.links[l].src) + "->" +
                        std::to_string(r.links[l].dst) + ", dim " +
                        std::to_string(r.links[l].dimension) + ")";
            const std::vector<float>& series = r.linkSeries[l];
            for (size_t bucket = 0; bucket < series.size(); ++bucket) {
                const SimTime ts = r.seriesBucket * static_cast<int64_t>(bucket);
                if (ts < t0 || ts >= t1)
                    continue;
                std::string& b = w.begin();
                b += "{\"ph\":\"C\",\"name\":\"" + name + "\",\"pid\":" + std::to_string(pid) +
                     ",\"tid\":0,\"ts\":";
                appendScaled(b, ts.ps(), 6);
                char value[32];
                std::snprintf(value, sizeof value, "%.6g", static_cast<double>(series[bucket]));
                b += std::string(",\"args\":{\"utilization\":") + value + "}}";
                ++sum.counters;
            }
            w.maybeFlush();
        }
    }
    if (o.memoryCounters) {
        // Local memory in use (track-local-mem) as a counter track of each NPU's process.
        for (size_t npu = 0; npu < r.memoryUsage.size(); ++npu) {
            for (const MemoryUsagePoint& point : r.memoryUsage[npu]) {
                if (point.time < t0 || point.time >= t1)
                    continue;
                std::string& b = w.begin();
                b += "{\"ph\":\"C\",\"name\":\"local memory\",\"pid\":";
                b += std::to_string(npu);
                b += ",\"tid\":0,\"ts\":";
                appendScaled(b, point.time.ps(), 6);
                b += ",\"args\":{\"bytes\":";
                b += std::to_string(point.bytes);
                b += "}}";
                ++sum.counters;
            }
            w.maybeFlush();
        }
    }
    if (o.flows) {
        // Arrow from each critical-path node to the next, bound to their slices.
        // One scan maps each critical-path (npu, node) to its first slice.
        std::map<std::pair<int32_t, uint64_t>, long> where;
        for (const auto& key : r.criticalPath)
            where.emplace(key, -1);
        for (size_t i = 0; i < r.activities.size() && !where.empty(); ++i) {
            auto it = where.find({r.activities[i].npu, r.activities[i].nodeId});
            if (it != where.end() && it->second < 0)
                it->second = static_cast<long>(i);
        }
        auto find = [&](const std::pair<int32_t, uint64_t>& key) { return where.at(key); };
        for (size_t k = 0; k + 1 < r.criticalPath.size(); ++k) {
            const long from = find(r.criticalPath[k]), to = find(r.criticalPath[k + 1]);
            if (from < 0 || to < 0)
                continue;
            const ActivityInterval& a = r.activities[from];
            const ActivityInterval& c = r.activities[to];
            if (a.start < t0 || a.start >= t1 || c.start < t0 || c.start >= t1)
                continue;
            for (int end = 0; end < 2; ++end) {
                const ActivityInterval& x = end == 0 ? a : c;
                std::string& b = w.begin();
                b += std::string("{\"ph\":\"") + (end == 0 ? "s" : "f") +
                     "\",\"name\":\"critical path\",\"cat\":\"critical\",\"id\":" +
                     std::to_string(k + 1) + ",\"pid\":" + std::to_string(x.npu) + ",\"tid\":" +
                     std::to_string(perfettoTid(x.kind, p.lanes[end == 0 ? from : to])) +
                     ",\"ts\":";
                appendScaled(b, x.start.ps(), 6);
                b += end == 0 ? "}" : ",\"bp\":\"e\"}";
            }
            ++sum.flows;
        }
    }
    if (!note.empty()) {
        std::string& b = w.begin();
        b += "{\"ph\":\"i\",\"s\":\"g\",\"name\":\"truncated\",\"pid\":0,\"tid\":0,\"ts\":";
        appendScaled(b, t1.ps(), 6);
        b += ",\"args\":{\"message\":\"";
        appendEscaped(b, note);
        b += "\"}}";
    }
    w.raw("\n]}\n");
    w.flush();
}

std::string megabytes(uint64_t bytes) {
    return std::to_string((bytes + 999999) / 1000000) + " MB";
}

} // namespace

int perfettoTid(ActivityKind kind, int lane) {
    return static_cast<int>(kind) + 1 + 100 * lane;
}

std::vector<int> assignLanes(const RunResult& r) {
    std::vector<size_t> order(r.activities.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        const ActivityInterval &a = r.activities[x], &b = r.activities[y];
        return std::tie(a.npu, a.kind, a.start) < std::tie(b.npu, b.kind, b.start);
    });
    std::vector<int> lanes(r.activities.size(), 0);
    std::vector<SimTime> laneEnds; // of the current (npu, kind) track
    for (size_t k = 0; k < order.size(); ++k) {
        const ActivityInterval& a = r.activities[order[k]];
        if (k == 0 || r.activities[order[k - 1]].npu != a.npu ||
            r.activities[order[k - 1]].kind != a.kind)
            laneEnds.clear();
        size_t lane = 0;
        while (lane < laneEnds.size() && laneEnds[lane] > a.start)
            ++lane;
        if (lane == laneEnds.size())
            laneEnds.push_back(a.end);
        else
            laneEnds[lane] = a.end;
        lanes[order[k]] = static_cast<int>(lane);
    }
    return lanes;
}

PerfettoSummary writePerfettoTrace(std::ostream& out, const RunResult& r,
                                   const PerfettoOptions& o) {
    PerfettoSummary sum;
    const Plan p = makePlan(r, o);
    sum.estimatedBytes = p.total;
    SimTime cut = SimTime::max();
    std::string note;
    if (p.total > o.sizeBudgetBytes) {
        uint64_t used = p.fixedBytes;
        int bin = 0;
        while (bin < kBins && used + p.binBytes[bin] <= o.sizeBudgetBytes)
            used += p.binBytes[bin++];
        cut = p.binWidth * bin;
        sum.truncated = true;
        sum.cutAt = cut;
        note = "trace cut at " + usText(cut) + " us of " + usText(r.endTime) +
               " us: the whole trace would be about " + megabytes(p.total) +
               ", over the budget of " + megabytes(o.sizeBudgetBytes) +
               "; export a time window or split into several files";
        sum.message = note;
    }
    writeWindow(out, r, p, o, SimTime::zero(), cut, note, sum);
    return sum;
}

PerfettoSummary writePerfettoTraceFiles(const std::string& path, const RunResult& r,
                                        const PerfettoOptions& o) {
    namespace fs = std::filesystem;
    PerfettoSummary sum;
    const Plan p = makePlan(r, o);
    sum.estimatedBytes = p.total;
    // Greedy windows of whole bins, each within the budget (a single huge bin stands alone).
    std::vector<SimTime> bounds{SimTime::zero()};
    if (p.total > o.sizeBudgetBytes) {
        uint64_t used = p.fixedBytes;
        for (int bin = 0; bin < kBins; ++bin) {
            if (used + p.binBytes[bin] > o.sizeBudgetBytes && used > p.fixedBytes) {
                bounds.push_back(p.binWidth * bin);
                used = p.fixedBytes;
            }
            used += p.binBytes[bin];
        }
    }
    bounds.push_back(SimTime::max());
    const size_t parts = bounds.size() - 1;
    const fs::path base(path);
    for (size_t k = 0; k < parts; ++k) {
        fs::path file = base;
        if (parts > 1)
            file = base.parent_path() /
                   (base.stem().string() + ".part" + std::to_string(k + 1) + ".json");
        writeOutputFile(file.string(), "the Perfetto trace file", [&](std::ostream& out) {
            writeWindow(out, r, p, o, bounds[k], bounds[k + 1], {}, sum);
        });
        sum.files.push_back(file.string());
    }
    if (parts > 1)
        sum.message = "trace split into " + std::to_string(parts) +
                      " files by time window (about " + megabytes(p.total) + " in all, budget " +
                      megabytes(o.sizeBudgetBytes) + " per file)";
    return sum;
}

} // namespace astrolabe
