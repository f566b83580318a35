#include "SyntheticRun.h"

#include "spec/SystemConfig.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::synthetic {

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// Small deterministic generator (xorshift32): the same data on every machine.
struct Random {
    uint32_t state;
    uint32_t next() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return state;
    }
    int64_t between(int64_t low, int64_t high) {
        return low + static_cast<int64_t>(next() % static_cast<uint32_t>(high - low + 1));
    }
};

void addRingLinks(RunResult& r, const std::vector<int>& dims, double bandwidth) {
    const int npus = r.npuCount;
    int stride = 1;
    for (size_t d = 0; d < dims.size(); ++d) {
        for (int npu = 0; npu < npus; ++npu) {
            const int coordinate = npu / stride % dims[d];
            const int next = npu + ((coordinate + 1) % dims[d] - coordinate) * stride;
            r.links.push_back({npu, next, static_cast<int16_t>(d), bandwidth});
            r.links.push_back({next, npu, static_cast<int16_t>(d), bandwidth});
        }
        stride *= dims[d];
    }
}

void fillLinkData(RunResult& r, Random& random) {
    const int buckets = 200;
    r.seriesBucket = SimTime::fromPs(std::max<int64_t>(r.endTime.ps() / buckets, 1));
    r.linkSeries.assign(r.links.size(), std::vector<float>(buckets, 0.0f));
    r.linkStats.assign(r.links.size(), {});
    const int dims = r.links.empty() ? 0 : r.links.back().dimension + 1;
    r.dimensions.assign(static_cast<size_t>(dims), {});
    for (size_t l = 0; l < r.links.size(); ++l) {
        const LinkInfo& link = r.links[l];
        // Busy in bursts whose height depends on the dimension and the link: a visible pattern.
        double busyFraction = 0;
        for (int b = 0; b < buckets; ++b) {
            const double wave = 0.5 + 0.5 * std::sin(b * 0.21 + link.dimension * 1.3 + l * 0.002);
            const float u = static_cast<float>(std::clamp(
                wave * (0.45 + 0.2 * link.dimension) + (random.next() % 100) / 1000.0, 0.0, 1.0));
            r.linkSeries[l][b] = u;
            busyFraction += u / buckets;
        }
        LinkStats& stats = r.linkStats[l];
        stats.busy = SimTime::fromPsRounded(busyFraction * static_cast<double>(r.endTime.ps()));
        stats.bytes = static_cast<uint64_t>(stats.busy.seconds() * link.bandwidthBytesPerSecond);
        stats.messages = stats.bytes / 65536 + 1;
        DimensionStats& dim = r.dimensions[static_cast<size_t>(link.dimension)];
        dim.dimension = link.dimension;
        dim.bytes += stats.bytes;
        dim.busy += stats.busy;
        dim.peakBandwidthBytesPerSecond += link.bandwidthBytesPerSecond;
    }
    for (DimensionStats& dim : r.dimensions) {
        const double links = dim.peakBandwidthBytesPerSecond / r.links[0].bandwidthBytesPerSecond;
        dim.utilization = dim.busy.seconds() / (links * r.endTime.seconds());
        dim.busy = SimTime::fromPsRounded(static_cast<double>(dim.busy.ps()) / links); // the mean
    }
    const size_t n = static_cast<size_t>(r.npuCount);
    if (n <= 2048) {
        r.trafficBytes.assign(n * n, 0);
        for (size_t l = 0; l < r.links.size(); ++l)
            r.trafficBytes[static_cast<size_t>(r.links[l].src) * n +
                           static_cast<size_t>(r.links[l].dst)] += r.linkStats[l].bytes;
    }
}

void summarize(RunResult& r) {
    r.npus.assign(static_cast<size_t>(r.npuCount), {});
    for (int i = 0; i < r.npuCount; ++i)
        r.npus[i].npu = i;
    for (const ActivityInterval& a : r.activities) {
        NpuSummary& s = r.npus[static_cast<size_t>(a.npu)];
        s.finished = true;
        s.finish = std::max(s.finish, a.end);
        s.wall = s.finish;
        if (a.kind == ActivityKind::Compute) {
            s.gpuTime += a.end - a.start;
            s.computeUnion += a.end - a.start;
        } else if (a.kind == ActivityKind::Communication) {
            s.commUnion += a.end - a.start;
        }
    }
    for (NpuSummary& s : r.npus) {
        s.exposedComm = s.finish - s.gpuTime;
        const int64_t overlap = (s.computeUnion + s.commUnion - s.wall).ps();
        s.overlap = SimTime::fromPs(std::max<int64_t>(overlap, 0));
        r.endTime = std::max(r.endTime, s.finish);
    }
}
} // namespace

PlatformSpec quickStartPlatform() {
    PlatformSpec platform;
    platform.dimensions.push_back({BlockKind::Ring, 8, 50 * kGiB, 500.0});
    return platform;
}

std::shared_ptr<RunResult> quickStartRun() {
    auto r = std::make_shared<RunResult>();
    r->name = "quick start";
    r->npuCount = 8;
    r->names = {"all_reduce_1MiB"};
    const double stepNs = 500.0 + 32768.0 / (50 * kGiB) * 1e9;
    const SimTime chunk = SimTime::fromNsRounded(14 * stepNs);
    for (int npu = 0; npu < 8; ++npu) {
        const SimTime skew = SimTime::fromNs(10 * npu);
        const SimTime end = skew + chunk * 4;
        r->activities.push_back(
            {skew, end, npu, ActivityKind::Communication, NodeType::CommColl, 1, 0, 1 << 20});
        r->collectives.push_back({skew, end, npu, 1, CollectiveType::AllReduce, 1 << 20, 4, 0});
        for (int c = 0; c < 4; ++c)
            r->phases.push_back({skew + chunk * c, skew + chunk * (c + 1), npu, 1, c, 0, 0,
                                 static_cast<uint8_t>(CollectiveKind::AllReduce),
                                 static_cast<uint8_t>(AlgorithmKind::Ring), 1 << 18});
    }
    summarize(*r);
    r->criticalPath = {{7, 1}};
    Random random{7};
    addRingLinks(*r, {8}, 50 * kGiB);
    fillLinkData(*r, random);
    return r;
}

PlatformSpec syntheticPlatform(const SyntheticOptions& options) {
    PlatformSpec platform;
    double bandwidth = 400e9;
    for (int size : options.dimensions) {
        platform.dimensions.push_back({BlockKind::Ring, size, bandwidth, 500.0});
        bandwidth /= 4;
    }
    return platform;
}

std::shared_ptr<RunResult> syntheticRun(const SyntheticOptions& options) {
    auto r = std::make_shared<RunResult>();
    r->name = "synthetic";
    int npus = 1;
    for (int d : options.dimensions)
        npus *= d;
    r->npuCount = npus;
    const int layers = 48;
    for (int layer = 0; layer < layers; ++layer) {
        r->names.push_back("gemm_fwd_L" + std::to_string(layer));
        r->names.push_back("gemm_bwd_L" + std::to_string(layer));
        r->names.push_back("allreduce_grad_L" + std::to_string(layer));
        r->names.push_back("allgather_param_L" + std::to_string(layer));
    }
    static const CollectiveType types[] = {CollectiveType::AllReduce, CollectiveType::AllGather,
                                           CollectiveType::ReduceScatter, CollectiveType::AllToAll};
    const size_t items = static_cast<size_t>(npus) * static_cast<size_t>(options.itemsPerNpu);
    r->activities.reserve(items);
    if (options.phases)
        r->phases.reserve(items / 2 * options.dimensions.size());
    Random random{options.seed};
    const int dims = static_cast<int>(options.dimensions.size());
    for (int npu = 0; npu < npus; ++npu) {
        int64_t cursor = random.between(0, 2000) * 1000; // ps
        for (int k = 0; k + 1 < options.itemsPerNpu + 1; k += 2) {
            const int layer = (k / 2) % layers;
            const uint64_t id = static_cast<uint64_t>(k);
            const int64_t compute = random.between(20, 120) * 1000'000; // 20..120 us
            r->activities.push_back({SimTime::fromPs(cursor), SimTime::fromPs(cursor + compute),
                                     npu, ActivityKind::Compute, NodeType::Comp, id,
                                     static_cast<uint32_t>(layer * 4 + (k / 2 % 2)), 0});
            if (k + 1 >= options.itemsPerNpu)
                break;
            const int64_t commStart = cursor + compute * 6 / 10;
            const int64_t comm = random.between(30, 160) * 1000'000;
            const CollectiveType type = types[(k / 2) % 4];
            const uint64_t bytes = static_cast<uint64_t>(random.between(1, 64)) << 20;
            r->activities.push_back({SimTime::fromPs(commStart), SimTime::fromPs(commStart + comm),
                                     npu, ActivityKind::Communication, NodeType::CommColl, id + 1,
                                     static_cast<uint32_t>(layer * 4 + 2 + (k / 2 % 2)), bytes});
            r->collectives.push_back({SimTime::fromPs(commStart), SimTime::fromPs(commStart + comm),
                                      npu, id + 1, type, bytes, 1, 0});
            if (options.phases) {
                for (int d = 0; d < dims; ++d)
                    r->phases.push_back({SimTime::fromPs(commStart + comm * d / dims),
                                         SimTime::fromPs(commStart + comm * (d + 1) / dims), npu,
                                         id + 1, 0, static_cast<int16_t>(d),
                                         static_cast<int16_t>(d),
                                         static_cast<uint8_t>(CollectiveKind::AllReduce),
                                         static_cast<uint8_t>(AlgorithmKind::Ring), bytes});
            }
            cursor += compute + random.between(2, 30) * 1000'000;
        }
    }
    // Phases were appended per NPU in start order already; activities too.
    summarize(*r);
    // Critical path: the last NPU to finish, its last few nodes.
    int last = 0;
    for (const NpuSummary& s : r->npus)
        if (s.finish > r->npus[static_cast<size_t>(last)].finish)
            last = s.npu;
    for (const ActivityInterval& a : r->activities)
        if (a.npu == last && a.end.ps() > r->endTime.ps() * 9 / 10)
            r->criticalPath.push_back({last, a.nodeId});
    if (options.links) {
        addRingLinks(*r, options.dimensions, 100e9);
        fillLinkData(*r, random);
    }
    return r;
}

} // namespace astrolabe::synthetic
