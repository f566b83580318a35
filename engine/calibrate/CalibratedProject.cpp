#include "calibrate/CalibratedProject.h"

#include "core/Error.h"
#include "core/Units.h"
#include "project/ProjectFile.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace astrolabe {
namespace {

/// q / k: the share of the chunks one round runs (active chunks run side by side).
double roundShare(const SimulationSpec& spec, double& rounds) {
    const int k = std::max(1, spec.system.preferredDatasetSplits);
    const int a = std::max(1, spec.system.activeChunksPerDimension);
    rounds = std::ceil(static_cast<double>(k) / a);
    return rounds / k;
}

int hops(BlockKind kind) {
    return kind == BlockKind::Switch ? 2 : 1;
}

std::string percent(double fraction) {
    return units::formatFixed(100 * fraction, 1) + " %";
}

std::string regimeRange(const CostModel& m, size_t k) {
    const std::string from = k == 0 ? "" : thresholdText(m.thresholdBytes[k - 1]);
    const std::string to = k < m.thresholdBytes.size() ? thresholdText(m.thresholdBytes[k]) : "";
    if (from.empty() && to.empty())
        return "all sizes";
    if (from.empty())
        return "below " + to;
    return to.empty() ? "from " + from : from + " to below " + to;
}

} // namespace

double reduceUsPerByte(const SimulationSpec& spec) {
    double rounds = 1;
    const double share = roundShare(spec, rounds);
    const double bytesPerNs = spec.system.localMemBandwidthGBps;
    return bytesPerNs > 0 ? share * 3.0 / (bytesPerNs * 1e3) : 0;
}

AppliedCalibration applyCalibration(SimulationSpec& spec, int dimension, const FitResult& fit,
                                    const std::vector<NcclRun>& runs) {
    if (spec.platform.graph)
        throw Error(ErrorKind::Unsupported,
                    "calibration sets a dimension's latency and bandwidth; a graph platform has "
                    "per-link settings instead",
                    {}, "calibrate a stacked platform (Ring, FullyConnected, Switch dimensions)");
    const int count = static_cast<int>(spec.platform.dimensions.size());
    if (dimension < 0 || dimension >= count)
        throw Error(ErrorKind::Validation,
                    "dimension " + std::to_string(dimension) + ": the platform has " +
                        units::countOf(static_cast<uint64_t>(count), "dimension") + " (0 to " +
                        std::to_string(count - 1) + ")");
    if (runs.empty() || fit.model.regimes.empty())
        throw Error(ErrorKind::Validation, "no fitted measurements to apply");
    DimensionSpec& d = spec.platform.dimensions[static_cast<size_t>(dimension)];
    const RegimeCost& last = fit.model.regimes.back();
    double q = 1;
    const double share = roundShare(spec, q);
    AppliedCalibration out;
    out.dimension = dimension;
    if (fit.stepsSeparated) {
        out.endpointDelayNs = std::round(last.alphaUs * 1e3 / q);
        out.latencyNs = (last.stepUs * 1e3 / q - out.endpointDelayNs) / hops(d.kind);
    } else {
        // One step count s: only alpha + s delta is known. The project's endpoint delay stays;
        // the latency takes the rest: q E + s q (h lambda + E) = alpha + s delta.
        const double s = std::max(1.0, ringSteps(runs.front().collective, runs.front().ranks));
        out.endpointDelayNs = static_cast<double>(spec.system.endpointDelayNs);
        const double constantNs = (last.alphaUs + s * last.stepUs) * 1e3;
        out.latencyNs =
            ((constantNs - q * out.endpointDelayNs) / (s * q) - out.endpointDelayNs) / hops(d.kind);
    }
    if (out.latencyNs < 0) {
        out.warnings.push_back(
            "the fitted cost per step (" + units::formatPlain(last.stepUs * 1e3, 4) +
            " ns) is below the per-collective cost (" + units::formatPlain(last.alphaUs * 1e3, 4) +
            " ns), which the simulator charges on every step as the endpoint delay: latency set "
            "to 0, so simulated steps cost more than measured");
        out.latencyNs = 0;
    }
    // 10 ps and 5 significant digits: far below the fit's error, and short in the file.
    out.latencyNs = std::round(out.latencyNs * 100) / 100;
    const double bandwidth = share / last.usPerBusByte * 1e6;
    const double step = std::pow(10.0, std::floor(std::log10(bandwidth)) - 4);
    out.bandwidthBytesPerSecond = std::round(bandwidth / step) * step;
    if (share != 1)
        out.warnings.push_back(
            "the project runs " + std::to_string(spec.system.activeChunksPerDimension) +
            " of its " + std::to_string(spec.system.preferredDatasetSplits) +
            " chunks at once, and the congestion-unaware model lets them share no link: the "
            "bandwidth setting is the measured link rate x " +
            units::formatPlain(share, 4));
    out.efficiency =
        d.bandwidthBytesPerSecond > 0 ? out.bandwidthBytesPerSecond / d.bandwidthBytesPerSecond : 0;
    // Per collective, the fit's bandwidth factor (1 for one absent from the data: the shared
    // bandwidth); sendrecv has no collective setting.
    std::string factors, latencies;
    for (const auto& [nccl, kind] :
         {std::pair{NcclCollective::AllReduce, CollectiveKind::AllReduce},
          {NcclCollective::AllGather, CollectiveKind::AllGather},
          {NcclCollective::ReduceScatter, CollectiveKind::ReduceScatter},
          {NcclCollective::AllToAll, CollectiveKind::AllToAll}}) {
        // 4 significant digits: far below the fit's error.
        const double f = std::stod(units::formatPlain(fit.model.factorOf(nccl), 4));
        out.bandwidthFactor[static_cast<size_t>(kind)] = f;
        if (f != 1)
            factors += std::string(factors.empty() ? "" : ", ") + collectiveKindName(kind) + " " +
                       units::formatPlain(f, 4);
        // 10 ps, as the dimension's latency.
        const double l =
            std::round(fit.model.settingLatencyUs[static_cast<size_t>(nccl)] * 1e5) / 100;
        out.collectiveLatencyNs[static_cast<size_t>(kind)] = l;
        if (l != 0)
            latencies += std::string(latencies.empty() ? "" : ", ") + collectiveKindName(kind) +
                         " " + units::formatPlain(l, 6) + " ns";
    }
    if (!factors.empty() && spec.platform.dimensions.size() > 1)
        out.warnings.push_back("the collectives' bandwidth factors are system settings: they "
                               "apply on every dimension, not only on dimension " +
                               std::to_string(dimension));
    spec.system.bandwidthFactor = out.bandwidthFactor;
    spec.system.collectiveLatencyNs = out.collectiveLatencyNs;
    const DimensionSpec before = d;
    d.latencyNs = out.latencyNs;
    d.bandwidthBytesPerSecond = out.bandwidthBytesPerSecond;
    spec.system.endpointDelayNs = static_cast<int64_t>(out.endpointDelayNs);
    spec.system.endpointDelayConfiguredNs = out.endpointDelayNs;
    spec.system.endpointDelayFromFile = true;

    std::vector<std::string>& c = out.comment;
    c.push_back("Calibrated with 'astrolabe-cli calibrate nccl-tests' (docs/calibration.md) from:");
    for (const NcclRun& run : runs) {
        c.push_back("  " + std::filesystem::path(run.file).filename().string() + ": " +
                    ncclCollectiveName(run.collective) + "_perf, " +
                    units::countOf(static_cast<uint64_t>(run.ranks), "rank") +
                    (run.nodes > 0
                         ? " on " + units::countOf(static_cast<uint64_t>(run.nodes), "node")
                         : "") +
                    (run.version.empty() ? "" : ", " + run.version));
        if (run.ranks != d.size)
            out.warnings.push_back(run.file + " ran on " + std::to_string(run.ranks) +
                                   " ranks; dimension " + std::to_string(dimension) + " has " +
                                   std::to_string(d.size) + " NPUs");
    }
    // Runs on different GPUs, or with different NCCL or RCCL versions, are most likely runs of
    // different machines: one fit over them describes neither.
    for (const auto& [what, field] :
         {std::pair{"GPUs", &NcclRun::device}, std::pair{"library versions", &NcclRun::version}}) {
        std::vector<std::string> seen;
        for (const NcclRun& run : runs)
            if (!(run.*field).empty() &&
                std::find(seen.begin(), seen.end(), run.*field) == seen.end())
                seen.push_back(run.*field);
        if (seen.size() < 2)
            continue;
        std::string list;
        for (const std::string& s : seen)
            list += (list.empty() ? "" : ", ") + s;
        out.warnings.push_back(std::string("the files were measured on different ") + what + " (" +
                               list +
                               "), most likely on different machines: one fit "
                               "describes neither");
        break;
    }
    c.push_back("Fit: " + std::to_string(fit.points) +
                " points (a size's repeats as their median) at " + std::to_string(fit.sizes) +
                " sizes, " + units::countOf(fit.model.regimes.size(), "protocol regime") +
                ", in-sample rms error " + percent(fit.rmsRelativeError));
    for (size_t k = 0; k < fit.model.regimes.size(); ++k)
        c.push_back("  regime " + std::to_string(k + 1) + " (" + regimeRange(fit.model, k) +
                    "): " + regimeText(fit.model.regimes[k]) +
                    (k + 1 < fit.model.regimes.size() ? "  [not a setting]" : ""));
    for (size_t k = 0; k < kNcclCollectiveCount; ++k) {
        const OwnRegimes& o = fit.model.own[k];
        if (!o.fitted || o.lastFrom == 0)
            continue;
        c.push_back(std::string("  ") + ncclCollectiveName(static_cast<NcclCollective>(k)) +
                    "'s own regimes below " + thresholdText(o.lastFrom) +
                    " (fitted from it alone)  [not a setting]:");
        for (size_t r = 0; r < o.regimes.size(); ++r)
            if (r == 0 || o.thresholdBytes[r - 1] < o.lastFrom)
                c.push_back("    from " +
                            (r == 0 ? std::string("0") : thresholdText(o.thresholdBytes[r - 1])) +
                            ": " + regimeText(o.regimes[r]));
    }
    out.settings =
        "Settings from the last regime: platform.dimensions[" + std::to_string(dimension) +
        "] bandwidth " + units::formatBandwidth(before.bandwidthBytesPerSecond) + " -> " +
        units::formatBandwidth(out.bandwidthBytesPerSecond, 0, 5) + " (efficiency " +
        units::formatFixed(out.efficiency, 3) + "), latency " +
        units::formatPlain(before.latencyNs, 6) + " ns -> " + units::formatPlain(out.latencyNs, 6) +
        " ns; system.endpoint-delay " + units::formatPlain(out.endpointDelayNs, 6) + " ns" +
        (factors.empty() ? "" : "; system.<collective>-bandwidth-factor: " + factors) +
        (latencies.empty() ? "" : "; system.<collective>-latency: " + latencies);
    c.push_back(out.settings);
    for (const std::string& w : out.warnings)
        c.push_back("Note: " + w);
    return out;
}

std::string calibratedProjectText(const SimulationSpec& spec, const AppliedCalibration& applied,
                                  const std::string& projectPath) {
    std::string out;
    for (const std::string& line : applied.comment)
        out += "# " + line + "\n";
    return out + projectYamlText(spec, projectPath);
}

} // namespace astrolabe
