#pragma once
// A realistic RunResult built in code, for export/store tests and benchmarks, while the engine
// that fills RunResult is written in parallel.
//
// Shape: every NPU runs `steps` iterations of [compute, all-reduce]; the all-reduce of step k
// overlaps the compute of step k+1 by a quarter of its length (so overlap > 0 and the
// communication track has real intervals), plus a memory load at the start and one CPU op.
// Times are exact multiples of nanoseconds so tests can state expected values in closed form.

#include "record/RunResult.h"

#include <cstdint>
#include <string>

namespace astrolabe::test {

struct SyntheticRunShape {
    int npus = 8;
    int steps = 4;
    int64_t computeNs = 1000; ///< one compute op
    int64_t commNs = 600;     ///< one all-reduce
    uint64_t commBytes = 1 << 20;
    int dims = 2;
    int seriesBuckets = 16;
    bool overlappingComm = false; ///< put two overlapping comm intervals on NPU 0
};

/// Start of the compute op of `step` on `npu` (NPU i is staggered by i ns so NPUs differ).
inline SimTime syntheticComputeStart(const SyntheticRunShape& s, int npu, int step) {
    return SimTime::fromNs(npu + step * (s.computeNs + s.commNs * 3 / 4));
}

inline RunResult makeSyntheticRun(const SyntheticRunShape& s = {}) {
    RunResult r;
    r.name = "synthetic";
    r.npuCount = s.npus;
    r.events = 12345;
    r.wallSeconds = 0.25;
    r.names = {"fwd_matmul", "allreduce_grad", "load_weights", "cpu_prep"};
    const SimTime computeLen = SimTime::fromNs(s.computeNs);
    const SimTime commLen = SimTime::fromNs(s.commNs);
    SimTime end;
    for (int n = 0; n < s.npus; ++n) {
        NpuSummary sum;
        sum.npu = n;
        sum.finished = true;
        const SimTime memStart = syntheticComputeStart(s, n, 0);
        r.activities.push_back({memStart, memStart + SimTime::fromNs(50), n, ActivityKind::Memory,
                                NodeType::MemLoad, 1, 2, 4096});
        r.activities.push_back({memStart, memStart + SimTime::fromNs(20), n, ActivityKind::Cpu,
                                NodeType::Comp, 2, 3, 0});
        uint64_t nodeId = 10;
        SimTime npuEnd;
        for (int k = 0; k < s.steps; ++k) {
            const SimTime c0 = syntheticComputeStart(s, n, k);
            const SimTime a0 = c0 + computeLen;
            r.activities.push_back(
                {c0, a0, n, ActivityKind::Compute, NodeType::Comp, nodeId++, 0, 0});
            r.activities.push_back({a0, a0 + commLen, n, ActivityKind::Communication,
                                    NodeType::CommColl, nodeId, 1, s.commBytes});
            if (n == 0 && k == 0 && s.overlappingComm)
                r.activities.push_back({a0 + SimTime::fromNs(100), a0 + SimTime::fromNs(200), n,
                                        ActivityKind::Communication, NodeType::CommColl, 999, 1,
                                        64});
            r.collectives.push_back(
                {a0, a0 + commLen, n, nodeId, CollectiveType::AllReduce, s.commBytes, 2, 0});
            for (int d = 0; d < s.dims; ++d) {
                const SimTime p0 = a0 + SimTime::fromNs(s.commNs * d / s.dims);
                r.phases.push_back({p0, p0 + SimTime::fromNs(s.commNs / s.dims), n, nodeId, 0,
                                    static_cast<int16_t>(d), static_cast<int16_t>(d), 0, 0,
                                    s.commBytes});
            }
            ++nodeId;
            npuEnd = a0 + commLen;
            sum.gpuTime += computeLen;
        }
        sum.cpuTime = SimTime::fromNs(20);
        sum.finish = npuEnd;
        sum.wall = npuEnd;
        sum.exposedComm = sum.finish - sum.gpuTime;
        sum.computeUnion = sum.gpuTime;
        sum.commUnion = commLen * s.steps;
        sum.cpuUnion = sum.cpuTime;
        sum.remoteMemUnion = SimTime::fromNs(50);
        sum.overlap = SimTime::fromNs(s.commNs / 4) * (s.steps - 1);
        sum.idle = SimTime::fromNs(0);
        sum.peakMemoryBytes = 1u << 30;
        r.npus.push_back(sum);
        end = std::max(end, npuEnd);
        r.reportLines.push_back("[workload] sys[" + std::to_string(n) + "] finished, " +
                                std::to_string(sum.finish.nsFloor()) +
                                " cycles, exposed communication " +
                                std::to_string(sum.exposedComm.nsFloor()) + " cycles.");
    }
    r.endTime = end;
    // A bidirectional ring per dimension over consecutive NPUs (enough for exports).
    for (int d = 0; d < s.dims; ++d)
        for (int n = 0; n < s.npus; ++n) {
            r.links.push_back({n, (n + 1) % s.npus, static_cast<int16_t>(d), 50e9 * (d + 1)});
            r.linkStats.push_back({s.commBytes * s.steps / 2, static_cast<uint64_t>(s.steps * 2),
                                   SimTime::fromNs(s.commNs * s.steps / 2)});
        }
    r.seriesBucket = SimTime::fromPs(std::max<int64_t>(1, end.ps() / s.seriesBuckets));
    for (size_t l = 0; l < r.links.size(); ++l) {
        std::vector<float> series;
        for (int b = 0; b < s.seriesBuckets; ++b)
            series.push_back(static_cast<float>((b + l) % 5) / 4.0f);
        r.linkSeries.push_back(series);
    }
    for (int d = 0; d < s.dims; ++d)
        r.dimensions.push_back({d, s.commBytes * s.steps * s.npus / 2, commLen * s.steps,
                                50e9 * (d + 1) * s.npus, 0.5});
    r.trafficBytes.assign(static_cast<size_t>(s.npus) * s.npus, 0);
    for (int i = 0; i < s.npus; ++i)
        r.trafficBytes[i * s.npus + (i + 1) % s.npus] = s.commBytes * s.steps;
    r.criticalPath = {{0, 10}, {0, 11}, {0, 12}};
    r.reportLines.push_back("[system] Exiting");
    return r;
}

} // namespace astrolabe::test
