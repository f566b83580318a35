#include "serving/ServingTraffic.h"

#include "generate/ModelPresets.h"
#include "topology/Topology.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::serving {

const char* gpuRoleName(GpuRole role) {
    switch (role) {
    case GpuRole::Idle:
        return "idle";
    case GpuRole::Aggregated:
        return "aggregated";
    case GpuRole::Prefill:
        return "prefill";
    case GpuRole::Decode:
        return "decode";
    case GpuRole::Attention:
        return "attention";
    case GpuRole::Ffn:
        return "FFN";
    }
    return "";
}

std::vector<GpuPlacement> servingPlacement(const ServingSpec& spec,
                                           const std::vector<ReplicaStats>& replicas, int npus) {
    std::vector<GpuPlacement> out(size_t(std::max(0, npus)));
    const bool afd = spec.deployment == "afd";
    size_t next = 0;
    for (size_t r = 0; r < replicas.size(); ++r)
        for (int g = 0; g < replicas[r].gpus && next < out.size(); ++g, ++next) {
            GpuPlacement& p = out[next];
            p.replica = int(r);
            switch (replicas[r].role) {
            case PoolRole::Aggregated:
                p.role = GpuRole::Aggregated;
                break;
            case PoolRole::Prefill:
                p.role = GpuRole::Prefill;
                break;
            case PoolRole::Decode:
                p.role = !afd                        ? GpuRole::Decode
                         : g < spec.afdAttentionGpus ? GpuRole::Attention
                                                     : GpuRole::Ffn;
                break;
            }
        }
    return out;
}

namespace {

/// Adds `bytes` from NPU `from` to NPU `to` on every link of the route, in `messages` messages.
void addFlow(const Topology& topology, std::vector<LinkStats>& stats, std::vector<int32_t>& route,
             int from, int to, double bytes, uint64_t messages) {
    route.clear();
    topology.appendRoute(from, to, route);
    for (const int32_t link : route) {
        LinkStats& s = stats[size_t(link)];
        s.bytes += uint64_t(std::llround(bytes));
        s.messages += messages;
        s.busy += SimTime::fromPsRounded(bytes / topology.linkBytesPerNs(link) * 1e3);
    }
}

} // namespace

void addServingTraffic(RunResult& run, const SimulationSpec& spec, const ServingResult& result) {
    const bool afd = spec.serving.deployment == "afd";
    if (!(result.kvBytesPerToken > 0) && !afd)
        return;
    int gpus = 0;
    std::vector<int> first; // each replica's first NPU
    for (const ReplicaStats& r : result.replicas) {
        first.push_back(gpus);
        gpus += r.gpus;
    }
    const Topology topology(spec.platform);
    if (gpus > topology.npuCount())
        return;
    std::vector<LinkStats> stats(size_t(topology.linkCount()));
    std::vector<int32_t> route;
    const int holders = std::max(1, spec.serving.prefillTp);
    for (const RequestRecord& q : result.requests) {
        if (q.transferStart < 0 || q.prefillReplica < 0 || q.decodeReplica < 0)
            continue;
        const double bytes = q.promptTokens * result.kvBytesPerToken;
        const auto& from = result.replicas[size_t(q.prefillReplica)];
        const auto& to = result.replicas[size_t(q.decodeReplica)];
        const int pairs = std::max(1, std::min({holders, from.gpus, to.gpus}));
        for (int h = 0; h < pairs; ++h)
            addFlow(topology, stats, route, first[size_t(q.prefillReplica)] + h,
                    first[size_t(q.decodeReplica)] + h, bytes / pairs, 1);
    }
    if (afd) {
        // Every decode token's activations (BF16, hidden wide) cross to the FFN GPUs and back in
        // every layer, as AfdTiming times them; attention GPU g exchanges with FFN GPU g mod nf.
        const generate::ModelSpec model = generate::presetSpec(spec.serving.model).model;
        const int na = std::max(1, spec.serving.afdAttentionGpus);
        const int nf = std::max(1, spec.serving.afdFfnGpus);
        for (size_t r = 0; r < result.replicas.size(); ++r) {
            const ReplicaStats& replica = result.replicas[r];
            if (replica.role != PoolRole::Decode || replica.gpus < na + nf)
                continue;
            const double bytes = double(replica.tokens) * model.hidden * 2.0 * model.layers / na;
            const uint64_t messages = uint64_t(replica.iterations) * uint64_t(model.layers);
            for (int g = 0; g < na; ++g) {
                const int attention = first[r] + g, ffn = first[r] + na + g % nf;
                addFlow(topology, stats, route, attention, ffn, bytes, messages);
                addFlow(topology, stats, route, ffn, attention, bytes, messages);
            }
        }
    }
    if (std::all_of(stats.begin(), stats.end(), [](const LinkStats& s) { return s.bytes == 0; }))
        return;
    run.links = topology.links();
    run.linkStats = std::move(stats);
    run.dimensions.clear();
    const double end = run.endTime.seconds();
    for (int d = 0; d < topology.dimensionCount(); ++d) {
        DimensionStats dim;
        dim.dimension = d;
        double busyPs = 0;
        int links = 0;
        for (size_t l = 0; l < run.links.size(); ++l)
            if (run.links[l].dimension == d) {
                dim.bytes += run.linkStats[l].bytes;
                busyPs += double(run.linkStats[l].busy.ps());
                dim.peakBandwidthBytesPerSecond += run.links[l].bandwidthBytesPerSecond;
                ++links;
            }
        dim.busy = SimTime::fromPsRounded(links > 0 ? busyPs / links : 0);
        dim.utilization = end > 0 ? dim.busy.seconds() / end : 0;
        run.dimensions.push_back(dim);
    }
}

} // namespace astrolabe::serving
