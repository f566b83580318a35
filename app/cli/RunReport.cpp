#include "cli/RunReport.h"

#include "analysis/IdleDimensions.h"
#include "analysis/RunExplanation.h"
#include "core/Error.h"
#include "core/OutputFile.h"
#include "core/Units.h"
#include "export/MemoryTraceExport.h"
#include "export/ResultJson.h"
#include "record/Oversubscription.h"
#include "simulation/Simulation.h"
#include "spec/PlatformSpec.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <ostream>

namespace astrolabe::cli {

namespace {

std::string ns(SimTime t) {
    return units::formatTime(t);
}

std::string percent(double fraction) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * fraction);
    return buf;
}

std::string platformLine(const PlatformSpec& p) {
    std::string out;
    if (p.graph) {
        // docs/graph-platforms.md: the links carry the timing, the dimensions are only logical.
        out = "a graph";
        if (!p.graph->generator.empty()) {
            out += " (";
            out += p.graph->generator;
            out += ")";
        }
        out +=
            " of " + units::countOf(static_cast<uint64_t>(p.graph->switches), "switch", "switches");
        out += " and " + units::countOf(p.graph->links.size(), "link");
        return out;
    }
    for (size_t d = 0; d < p.dimensions.size(); ++d) {
        const DimensionSpec& dim = p.dimensions[d];
        if (d > 0)
            out += " x ";
        out += std::string(blockKindName(dim.kind)) + "(" + std::to_string(dim.size) + ", " +
               units::formatBandwidth(dim.bandwidthBytesPerSecond) + ", " +
               units::formatTime(SimTime::fromNsRounded(dim.latencyNs)) + ")";
    }
    return out;
}

} // namespace

void printRunSummary(std::ostream& out, const SimulationSpec& spec, const RunResult& r) {
    out << (spec.name.empty() ? std::string("run") : spec.name) << ": "
        << units::countOf(r.npuCount, "NPU") << " on " << platformLine(spec.platform) << ", "
        << networkBackendName(spec.options.backend) << "\n";
    char wall[64];
    std::snprintf(wall, sizeof wall, "%.3f s", r.wallSeconds);
    out << "  finished at " << ns(r.endTime) << " (" << r.endTime.nsFloor() << " cycles); "
        << "simulated in " << wall << ", " << r.events << " events";
    if (r.simulatedNpus > 0 && r.simulatedNpus < r.npuCount)
        out << " (" << r.simulatedNpus << " of " << r.npuCount
            << " NPUs simulated, the others by symmetry)";
    out << "\n";
    for (const std::string& line : r.reportLines)
        if (line.starts_with(kAssumedLinePrefix))
            out << "  assumed " << line.substr(std::string_view(kAssumedLinePrefix).size()) << "\n";
    if (r.npus.empty())
        return;
    auto spread = [&](auto field) {
        SimTime lo = SimTime::max(), hi;
        for (const NpuSummary& n : r.npus) {
            lo = std::min(lo, field(n));
            hi = std::max(hi, field(n));
        }
        return lo == hi ? ns(hi) : ns(lo) + " .. " + ns(hi);
    };
    out << "  per NPU      finish " << spread([](const NpuSummary& n) { return n.finish; })
        << "; compute " << spread([](const NpuSummary& n) { return n.computeUnion; })
        << "; exposed communication " << spread([](const NpuSummary& n) { return n.exposedComm; })
        << "; overlap " << spread([](const NpuSummary& n) { return n.overlap; }) << "; idle "
        << spread([](const NpuSummary& n) { return n.idle; }) << "\n";
    std::map<std::string, std::pair<int, SimTime>> perType;
    for (const CollectiveSpan& c : r.collectives) {
        auto& [count, longest] =
            perType[std::string(collectiveTypeName(c.type)) + " " + units::formatSize(c.sizeBytes)];
        ++count;
        longest = std::max(longest, c.end - c.start);
    }
    for (const auto& [what, stats] : perType)
        out << "  collective   " << what << ": " << stats.first << " spans, longest "
            << ns(stats.second) << "\n";
    for (const DimensionStats& d : r.dimensions) {
        const double seconds = r.endTime.seconds();
        const double achieved = seconds > 0 ? static_cast<double>(d.bytes) / seconds : 0.0;
        out << "  dimension " << d.dimension << "  " << units::formatSize(d.bytes) << " moved, "
            << units::formatBandwidth(achieved, d.peakBandwidthBytesPerSecond) << " achieved of "
            << units::formatBandwidth(d.peakBandwidthBytesPerSecond) << " peak; links busy "
            << percent(d.utilization) << " of the run\n";
    }
    if (!r.memoryUsage.empty()) {
        uint64_t lo = UINT64_MAX, hi = 0;
        for (const NpuSummary& n : r.npus) {
            lo = std::min(lo, n.peakMemoryBytes);
            hi = std::max(hi, n.peakMemoryBytes);
        }
        out << "  local memory peak " << units::formatSize(lo);
        if (lo != hi)
            out << " .. " << units::formatSize(hi);
        out << " per NPU\n";
    }
    if (const Oversubscription over = findOversubscription(r); over.any())
        out << "  note         " << explainOversubscription(over)
            << "; try --backend=congestion-aware\n";
    if (const std::string idle = idleDimensionsNote(r, spec.platform, spec.system); !idle.empty())
        out << "  note         " << idle << "\n";
    if (!r.criticalPath.empty()) {
        out << "  critical path on NPU " << r.criticalPath.front().first << ": "
            << units::countOf(r.criticalPath.size(), "node") << ", ending with node "
            << r.criticalPath.back().second << "\n";
    }
    if (const RunExplanation why = explainRun(r, spec.platform, &spec.system);
        why.bound != BoundKind::Unknown)
        out << "  bound        " << why.sentence << "\n"
            << "               " << why.breakdown << "\n";
}

void writeMemoryTraces(std::ostream& out, const SimulationSpec& spec, const RunResult& result,
                       const std::string& folder) {
    if (!spec.system.trackLocalMemory || result.memoryUsage.empty())
        return;
    std::filesystem::path prefix(spec.system.localMemTraceFilename);
    if (prefix.is_relative() && !folder.empty())
        prefix = std::filesystem::path(folder) / prefix;
    const std::vector<std::string> files =
        writeMemoryTraceFiles(prefix.lexically_normal().string(), result);
    if (files.empty())
        return;
    out << "  local memory traces: " << files.front();
    if (files.size() > 1)
        out << " .. " << files.back();
    out << "\n";
}

void writeResultJsonFile(const RunResult& result, const SimulationSpec& spec,
                         const std::string& path) {
    writeOutputFile(path, "the JSON result",
                    [&](std::ostream& out) { writeResultJson(out, result, &spec); });
}

} // namespace astrolabe::cli
