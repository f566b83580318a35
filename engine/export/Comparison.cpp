#include "export/Comparison.h"

#include "astra/AstraSystemConfig.h"
#include "core/Collectives.h"
#include "schema/Setting.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace astrolabe {
namespace {

/// The microbenchmark's collective by name ("collective" for a number no algorithm implements).
const char* microbenchmarkName(int collective) {
    const CollectiveNames* names = findCollective(collective);
    return names && collectiveKindOf(names->type) ? names->name : "collective";
}

} // namespace

std::vector<SettingValue> flattenSpec(const SimulationSpec& spec) {
    std::vector<SettingValue> out;
    auto text = [&](std::string key, std::string label, std::string value) {
        out.push_back({std::move(key), std::move(label), std::move(value), std::nullopt, false});
    };
    auto number = [&](std::string key, std::string label, std::string value, double v) {
        out.push_back({std::move(key), std::move(label), std::move(value), v, false});
    };
    const PlatformSpec& p = spec.platform;
    out.push_back({"platform.npus", "NPUs", std::to_string(p.npuCount()),
                   static_cast<double>(p.npuCount()), true});
    number("platform.dims", "dimensions", std::to_string(p.dimensions.size()),
           static_cast<double>(p.dimensions.size()));
    for (size_t d = 0; d < p.dimensions.size(); ++d) {
        const std::string k = "platform.dim" + std::to_string(d) + ".";
        const std::string l = "dimension " + std::to_string(d) + " ";
        for (settings::CompareRow& row : settings::compareRows(
                 settings::dimensionGroup(), settings::dimensionView(p.dimensions[d])))
            out.push_back({k + row.key, l + row.label, std::move(row.text), row.numeric, false});
    }
    for (settings::CompareRow& row : settings::compareRows(settings::systemGroup(), spec))
        out.push_back(
            {std::move(row.key), std::move(row.label), std::move(row.text), row.numeric, false});
    for (settings::CompareRow& row : settings::compareRows(settings::memoryGroup(), spec))
        out.push_back(
            {std::move(row.key), std::move(row.label), std::move(row.text), row.numeric, false});
    for (settings::CompareRow& row : settings::compareRows(settings::runGroup(), spec))
        out.push_back(
            {std::move(row.key), std::move(row.label), std::move(row.text), row.numeric, false});
    if (spec.serving.enabled) // a serving run: its deployment, requests and objectives
        for (settings::CompareRow& row : settings::compareRows(settings::servingGroup(), spec))
            out.push_back({std::move(row.key), std::move(row.label), std::move(row.text),
                           row.numeric, false});
    if (spec.workload.kind == WorkloadSource::Kind::Microbenchmark) {
        const MicrobenchmarkSpec& m = spec.workload.microbenchmark;
        text("workload.kind", "workload", "microbenchmark");
        text("workload.collective", "collective", microbenchmarkName(m.collective));
        number("workload.size", "message size",
               settings::displayQuantity(settings::Unit::Bytes, static_cast<double>(m.sizeBytes)),
               static_cast<double>(m.sizeBytes));
        number("workload.group", "communicator group", std::to_string(m.commGroup), m.commGroup);
    } else {
        text("workload.kind", "workload", "Chakra traces");
        text("workload.traces", "trace prefix", spec.workload.tracePrefix);
    }
    number("workload.comm-groups", "communicator groups", std::to_string(spec.commGroups.size()),
           static_cast<double>(spec.commGroups.size()));
    return out;
}

std::vector<SettingRow> compareSettings(const std::vector<SimulationSpec>& specs) {
    std::vector<SettingRow> rows;
    std::map<std::string, size_t> index;
    for (size_t run = 0; run < specs.size(); ++run) {
        for (SettingValue& v : flattenSpec(specs[run])) {
            auto [it, added] = index.emplace(v.key, rows.size());
            if (added)
                rows.push_back({v.key, v.label, std::vector<std::string>(specs.size()),
                                std::vector<std::optional<double>>(specs.size()), v.derived,
                                false});
            SettingRow& row = rows[it->second];
            row.texts[run] = std::move(v.text);
            row.numeric[run] = v.numeric;
        }
    }
    for (SettingRow& row : rows)
        row.differs = std::any_of(row.texts.begin(), row.texts.end(),
                                  [&](const std::string& t) { return t != row.texts.front(); });
    return rows;
}

std::optional<SettingRow> findSweepAxis(const std::vector<SettingRow>& rows) {
    const SettingRow* axis = nullptr;
    for (const SettingRow& row : rows) {
        if (!row.differs || row.derived)
            continue;
        if (axis)
            return std::nullopt; // two settings changed: not a one-dimensional sweep
        axis = &row;
    }
    if (!axis || axis->texts.size() < 2)
        return std::nullopt;
    for (const auto& v : axis->numeric)
        if (!v)
            return std::nullopt;
    return *axis;
}

std::vector<CollectiveTiming> collectiveTimings(const RunResult& result) {
    struct Acc {
        CollectiveTiming timing;
        SimTime firstStart = SimTime::fromPs(INT64_MAX);
        double sumNs = 0;
        int count = 0;
    };
    std::map<std::pair<uint64_t, int32_t>, Acc> byNode;
    for (const CollectiveSpan& c : result.collectives) {
        Acc& a = byNode[{c.nodeId, c.commGroup}];
        const double ns = (c.end - c.start).ns();
        a.timing.type = c.type;
        a.timing.sizeBytes = c.sizeBytes;
        a.timing.maxDurationNs = std::max(a.timing.maxDurationNs, ns);
        a.firstStart = std::min(a.firstStart, c.start);
        a.sumNs += ns;
        ++a.count;
    }
    std::vector<std::pair<SimTime, CollectiveTiming>> ordered;
    for (auto& [key, a] : byNode) {
        a.timing.meanDurationNs = a.sumNs / a.count;
        ordered.push_back({a.firstStart, a.timing});
    }
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<CollectiveTiming> out;
    for (auto& [start, t] : ordered)
        out.push_back(t);
    return out;
}

const char* metricUnitName(MetricUnit unit) {
    switch (unit) {
    case MetricUnit::Nanoseconds:
        return "ns";
    case MetricUnit::Bytes:
        return "B";
    case MetricUnit::BytesPerSecond:
        return "B/s";
    }
    return "";
}

std::optional<double> metricRatio(const std::optional<double>& value,
                                  const std::optional<double>& baseline) {
    if (!value || !baseline || *baseline == 0)
        return std::nullopt;
    return *value / *baseline;
}

std::vector<MetricRow> comparisonRows(const std::vector<ComparisonInput>& runs,
                                      const ComparisonOptions& options) {
    using Opt = std::optional<double>;
    const size_t n = runs.size();
    std::vector<MetricRow> rows;
    if (n == 0)
        return rows;
    auto add = [&](std::string key, std::string label, MetricUnit unit, auto valueOf) {
        MetricRow row{std::move(key), std::move(label), unit, {}};
        for (size_t k = 0; k < n; ++k)
            row.values.push_back(runs[k].result ? valueOf(*runs[k].result, k) : Opt{});
        rows.push_back(std::move(row));
    };
    const bool useMax = options.npuStatistic == ComparisonOptions::NpuStatistic::Max;
    const std::string stat = useMax ? " (max)" : " (mean)";
    auto npuStat = [useMax](const RunResult& r, SimTime NpuSummary::*field) -> Opt {
        if (r.npus.empty())
            return std::nullopt;
        double acc = 0;
        for (const NpuSummary& s : r.npus)
            acc = useMax ? std::max(acc, (s.*field).ns()) : acc + (s.*field).ns();
        return useMax ? acc : acc / static_cast<double>(r.npus.size());
    };
    add("end_time", "end time", MetricUnit::Nanoseconds,
        [](const RunResult& r, size_t) { return Opt(r.endTime.ns()); });
    if (options.maxNpuFinish)
        add("max_npu_finish", "max NPU finish", MetricUnit::Nanoseconds,
            [](const RunResult& r, size_t) -> Opt {
                if (r.npus.empty())
                    return std::nullopt;
                SimTime m;
                for (const NpuSummary& s : r.npus)
                    m = std::max(m, s.finish);
                return m.ns();
            });
    add("compute", "compute" + stat, MetricUnit::Nanoseconds,
        [&](const RunResult& r, size_t) { return npuStat(r, &NpuSummary::gpuTime); });
    add("exposed_comm", "exposed comm" + stat, MetricUnit::Nanoseconds,
        [&](const RunResult& r, size_t) { return npuStat(r, &NpuSummary::exposedComm); });
    add("overlap", "overlap" + stat, MetricUnit::Nanoseconds,
        [&](const RunResult& r, size_t) { return npuStat(r, &NpuSummary::overlap); });

    size_t most = 0;
    for (const ComparisonInput& in : runs)
        most = std::max(most, in.collectives.size());
    const bool positional = options.collectives == ComparisonOptions::Collectives::ByPosition &&
                            most <= options.maxPositionalRows;
    if (positional) {
        for (size_t i = 0; i < most; ++i) {
            std::string label = "collective " + std::to_string(i + 1);
            for (const ComparisonInput& in : runs)
                if (in.collectives.size() > i) {
                    label += " " + std::string(collectiveTypeName(in.collectives[i].type)) + " " +
                             std::to_string(in.collectives[i].sizeBytes) + " B";
                    break;
                }
            add("collective" + std::to_string(i + 1), label + " (mean)", MetricUnit::Nanoseconds,
                [&, i](const RunResult&, size_t k) -> Opt {
                    if (runs[k].collectives.size() <= i)
                        return std::nullopt;
                    return runs[k].collectives[i].meanDurationNs;
                });
        }
    } else {
        const bool sumOfMeans = options.collectives == ComparisonOptions::Collectives::ByPosition;
        std::map<std::pair<int, uint64_t>, bool> groups;
        for (const ComparisonInput& in : runs)
            for (const CollectiveTiming& c : in.collectives)
                groups[{static_cast<int>(c.type), c.sizeBytes}] = true;
        for (const auto& entry : groups) {
            const auto key = entry.first;
            const std::string name = collectiveTypeName(static_cast<CollectiveType>(key.first));
            const std::string size = std::to_string(key.second);
            add("collective." + name + "." + size,
                sumOfMeans ? "all " + name + " " + size + " B (sum of means)"
                           : name + " " + size + " B (max)",
                MetricUnit::Nanoseconds, [&, key](const RunResult&, size_t k) -> Opt {
                    double acc = 0;
                    bool any = false;
                    for (const CollectiveTiming& c : runs[k].collectives)
                        if (static_cast<int>(c.type) == key.first && c.sizeBytes == key.second) {
                            acc = sumOfMeans ? acc + c.meanDurationNs
                                             : std::max(acc, c.maxDurationNs);
                            any = true;
                        }
                    return any ? Opt(acc) : std::nullopt;
                });
        }
    }

    int dims = 0;
    for (const ComparisonInput& in : runs)
        if (in.result)
            dims = std::max(dims, static_cast<int>(in.result->dimensions.size()));
    auto dimension = [](const RunResult& r, int d) -> const DimensionStats* {
        for (const DimensionStats& s : r.dimensions)
            if (s.dimension == d)
                return &s;
        return nullptr;
    };
    for (int d = 0; d < dims; ++d) {
        const std::string k = "dim" + std::to_string(d);
        add(k + ".bytes", "dimension " + std::to_string(d) + " bytes", MetricUnit::Bytes,
            [&, d](const RunResult& r, size_t) -> Opt {
                const DimensionStats* s = dimension(r, d);
                return s ? Opt(static_cast<double>(s->bytes)) : std::nullopt;
            });
        if (options.achievedBandwidth)
            add(k + ".bandwidth", "dimension " + std::to_string(d) + " achieved bandwidth",
                MetricUnit::BytesPerSecond, [&, d](const RunResult& r, size_t) -> Opt {
                    const DimensionStats* s = dimension(r, d);
                    if (!s || r.endTime.ps() <= 0)
                        return std::nullopt;
                    // Aggregate over the dimension's links, averaged over the whole run.
                    return static_cast<double>(s->bytes) / (r.endTime.ns() * 1e-9);
                });
        if (options.achievedBandwidth)
            for (const ComparisonInput& in : runs)
                if (const DimensionStats* s = in.result ? dimension(*in.result, d) : nullptr) {
                    rows.back().like = s->peakBandwidthBytesPerSecond;
                    break;
                }
    }
    return rows;
}

} // namespace astrolabe
