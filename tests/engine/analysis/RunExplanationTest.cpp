// Explanations on runs whose bound is known by construction. Each case states the closed form
// first (alpha-beta for collectives, durations for compute, the GPipe bubble), then checks the
// named bound and that the quoted numbers agree within the precision printed (0.1 %).
#include "analysis/RunExplanation.h"

#include "engine/golden/GoldenSpec.h"
#include "generate/WorkloadGenerator.h"
#include "simulation/Simulation.h"

#include <cstdio>
#include <gtest/gtest.h>

using namespace golden;
using CT = CollectiveType;

namespace {

constexpr double kGiB = 1073741824.0;
constexpr double kPrinted = 0.001; // sentences print percentages to 0.1 %

/// No endpoint hop, reductions free, one chunk, baseline plans: phase time is the alpha-beta
/// time of its messages alone.
SimulationSpec clean(std::vector<DimensionSpec> dims) {
    SimulationSpec s = spec(std::move(dims));
    s.system.endpointDelayNs = 0;
    s.system.localMemBandwidthGBps = 1e9;
    s.system.collectiveOptimization = CollectiveOptimization::Baseline;
    return s;
}

std::vector<WorkloadTrace> same(int npus, std::vector<WorkloadNode> nodes) {
    std::vector<WorkloadTrace> t(static_cast<size_t>(npus));
    for (WorkloadTrace& trace : t)
        trace.nodes = nodes;
    return t;
}

RunExplanation explain(const SimulationSpec& s, const RunResult& r, const char* label) {
    RunExplanation e = explainRun(r, s.platform, &s.system);
    std::printf("[ explain ] %s: %s\n[ explain ]   %s\n", label, e.sentence.c_str(),
                e.breakdown.c_str());
    return e;
}

/// Ring all-reduce of S bytes over N NPUs, one chunk: 2(N-1) steps of alpha + S/N / beta.
double ringAllReduceNs(int n, double bytes, const DimensionSpec& d) {
    return 2.0 * (n - 1) * d.latencyNs + 2.0 * (n - 1) / n * bytes / d.bytesPerNs();
}

} // namespace

TEST(RunExplanation, ComputeOnlyTraceIsComputeBound) {
    // Three chained compute nodes of 10 us: the critical path is 30 us of compute, so doubling
    // compute speed would save exactly half.
    const SimulationSpec s = clean({dim(BlockKind::Ring, 4)});
    const auto r = runTraces(s, same(4, {comp(1, 10), comp(2, 10, {1}), comp(3, 10, {2})}));
    const RunExplanation e = explain(s, *r, "compute only");
    EXPECT_EQ(e.bound, BoundKind::Compute);
    EXPECT_NEAR(e.share, 1.0, kPrinted);
    EXPECT_NEAR(e.saving, 0.5, kPrinted);
    EXPECT_NEAR(e.computeNs, 30000, 1);
    EXPECT_NE(e.sentence.find("compute-bound: compute is 100.0%"), std::string::npos);
    EXPECT_NE(e.sentence.find("at most 50.0%"), std::string::npos);
}

TEST(RunExplanation, TinyAllReduceOnAHighLatencyRingIsLatencyBound) {
    // Ring 8 at 5 us per hop, 8 KiB: T = 2(N-1) alpha + 2(N-1)/N S/beta = 70,000 + 266.8 ns;
    // the latency part is 70,000 / T = 99.6 %.
    const DimensionSpec ring = dim(BlockKind::Ring, 8, 50, 5000);
    const SimulationSpec s = clean({ring});
    const auto r = runCollective(s, CT::AllReduce, 8192);
    const double closed = ringAllReduceNs(8, 8192, ring);
    EXPECT_NEAR(r->endTime.ns(), closed, 0.001 * closed);
    const RunExplanation e = explain(s, *r, "latency only");
    EXPECT_EQ(e.bound, BoundKind::Latency);
    EXPECT_EQ(e.dimension, 0);
    EXPECT_NEAR(e.share, 14 * 5000.0 / closed, kPrinted);
    EXPECT_NEAR(e.saving, 7 * 5000.0 / closed, kPrinted);
    // The what-if, run: halving the latency saves what the sentence says (all latency is on
    // the path, so the bound is met).
    SimulationSpec half = s;
    half.platform.dimensions[0].latencyNs /= 2;
    const double saved = 1 - runCollective(half, CT::AllReduce, 8192)->endTime.ns() / closed;
    EXPECT_NEAR(saved, e.saving, kPrinted);
}

namespace {
/// Hierarchical all-reduce on Ring(4) x Ring(4) at 10 ns per hop, one dimension slow.
struct TwoDimensional {
    SimulationSpec spec;
    std::shared_ptr<const RunResult> result;
    RunExplanation explanation;
};

TwoDimensional twoDimensional(double gbps0, double gbps1, const char* label) {
    TwoDimensional t{
        clean({dim(BlockKind::Ring, 4, gbps0, 10), dim(BlockKind::Ring, 4, gbps1, 10)}),
        nullptr,
        {}};
    t.result = runCollective(t.spec, CT::AllReduce, 64 * kMiB);
    t.explanation = explain(t.spec, *t.result, label);
    return t;
}

/// The alpha-beta closed form of NPU 0's phases on dimension d, summed (one chunk: they run
/// one after another). A ring phase over n NPUs: all-reduce 2(n-1) steps of input/n bytes,
/// reduce-scatter n-1 steps of input/n, all-gather n-1 steps of its input (the shard).
struct AlphaBeta {
    double latencyNs = 0, bandwidthNs = 0;
};
AlphaBeta closedFormOnDimension(const TwoDimensional& t, int d) {
    const DimensionSpec& dim = t.spec.platform.dimensions[static_cast<size_t>(d)];
    const int n = dim.size;
    AlphaBeta ab;
    for (const PhaseSpan& p : t.result->phases) {
        if (p.npu != 0 || p.dimension != d)
            continue;
        const auto kind = static_cast<CollectiveKind>(p.phaseKind);
        const double steps = kind == CollectiveKind::AllReduce ? 2.0 * (n - 1) : 1.0 * (n - 1);
        const double message =
            static_cast<double>(p.inputBytes) / (kind == CollectiveKind::AllGather ? 1 : n);
        ab.latencyNs += steps * dim.latencyNs;
        ab.bandwidthNs += steps * message / dim.bytesPerNs();
    }
    return ab;
}

/// The closed forms on both dimensions add up to the run, and the slow one's bandwidth part is
/// what the explanation quotes.
void checkSlowDimension(const TwoDimensional& t, int slow) {
    const RunExplanation& e = t.explanation;
    const double total = t.result->endTime.ns();
    const AlphaBeta d0 = closedFormOnDimension(t, 0), d1 = closedFormOnDimension(t, 1);
    EXPECT_NEAR(d0.latencyNs + d0.bandwidthNs + d1.latencyNs + d1.bandwidthNs, total,
                0.001 * total);
    const AlphaBeta& named = slow == 0 ? d0 : d1;
    EXPECT_EQ(e.bound, BoundKind::Bandwidth);
    EXPECT_EQ(e.dimension, slow);
    EXPECT_NEAR(e.share, named.bandwidthNs / total, kPrinted);
    EXPECT_NEAR(e.saving, named.bandwidthNs / 2 / total, kPrinted);
    EXPECT_NE(e.sentence.find("bandwidth-bound on dimension " + std::to_string(slow)),
              std::string::npos);
    // One chunk, one direction: NPU 0's busiest link on the slow dimension serializes exactly
    // that dimension's bytes / beta part of the run; the reverse links stay idle, so the
    // dimension's average is half of it.
    const DimensionPart& part = e.dimensions[static_cast<size_t>(slow)];
    EXPECT_NEAR(part.busiestLinkUtilization, named.bandwidthNs / total, kPrinted);
    EXPECT_NEAR(part.utilization, part.busiestLinkUtilization / 2, kPrinted);
    // The what-if, run: doubling the slow dimension's bandwidth saves what the sentence says.
    SimulationSpec faster = t.spec;
    faster.platform.dimensions[static_cast<size_t>(slow)].bandwidthBytesPerSecond *= 2;
    const double saved = 1 - runCollective(faster, CT::AllReduce, 64 * kMiB)->endTime.ns() / total;
    EXPECT_LE(saved, e.saving + kPrinted);
    EXPECT_NEAR(saved, e.saving, kPrinted);
}
} // namespace

TEST(RunExplanation, SlowSecondDimensionIsNamed) {
    // 64 MiB on Ring(4, 100 GB/s) x Ring(4, 5 GB/s): dimension 1's bytes/beta dominates. Its
    // part is the ring closed form of each phase on it; doubling its bandwidth halves that part.
    checkSlowDimension(twoDimensional(100, 5, "dimension 1 slow"), 1);
}

TEST(RunExplanation, SlowFirstDimensionIsNamed) {
    checkSlowDimension(twoDimensional(5, 100, "dimension 0 slow"), 0);
}

TEST(RunExplanation, GPipeWithOneMicroBatchIsBoundByTheBubble) {
    // p = 4 stages, m = 1 micro-batch, communication free: each stage computes f + b once and
    // waits the rest, bubble (p - 1) / (m + p - 1) = 75 % of the iteration without its optimizer
    // step (stage 0's embedding and the last stage's head shift it by well under 1 %). The
    // critical path ends on stage 0, after its optimizer step.
    using namespace astrolabe::generate;
    GeneratorSpec g;
    g.model.layers = 8;
    g.model.hidden = 4096;
    g.model.heads = 32;
    g.model.ffn = 16384;
    g.model.vocabulary = 8;
    g.model.sequence = 2048;
    g.training = {1, 1, 2, false};
    g.parallel.pp = 4;
    g.parallel.schedule = PipelineSchedule::GPipe;
    g.compute.efficiency = 1.0;
    GeneratedWorkload w = generateWorkload(g);
    SimulationSpec s;
    s.platform.dimensions = {{BlockKind::Switch, 4, 1e18, 0}};
    s.system.preferredDatasetSplits = 1;
    s.system.localMemBandwidthGBps = 1e9;
    s.commGroups = w.groups;
    const auto r = runSimulation(s, w.traces);
    const RunExplanation e = explain(s, *r, "GPipe p=4 m=1");
    EXPECT_EQ(e.bound, BoundKind::PipelineBubble);
    // The textbook bubble leaves the optimizer step (stage 0's last node) out of the iteration.
    double stepNs = 0;
    for (const WorkloadNode& n : w.traces.at(static_cast<size_t>(e.npu)).nodes)
        if (n.name == "optimizer.step")
            stepNs += 1000.0 * static_cast<double>(n.durationMicros);
    EXPECT_NEAR(e.waitingNs / (r->endTime.ns() - stepNs), 0.75, 0.01);
    // Exactly: the waiting is the run minus the compute of the NPU on the critical path.
    const NpuSummary& n = r->npus.at(static_cast<size_t>(e.npu));
    EXPECT_NEAR(e.share, 1 - n.gpuTime.ns() / r->endTime.ns(), kPrinted);
    EXPECT_NEAR(e.saving, e.share, 1e-12);
    EXPECT_NEAR(e.peerWaitingNs, e.waitingNs, 0.001 * e.waitingNs) << "all of it in receives";
    EXPECT_NE(e.sentence.find("(pipeline bubble)"), std::string::npos);
}

TEST(RunExplanation, AlternatingComputeAndCommunicationIsADependencyChain) {
    // comp 8 us -> all-reduce -> comp 8 us -> all-reduce on Ring(2) x Ring(2), both 50 GB/s:
    // each all-reduce splits its time between the two dimensions, so no one part reaches half
    // and compute (16 us) and communication run one after another. Overlapping them fully would
    // save min(compute, communication) / T.
    const SimulationSpec s =
        clean({dim(BlockKind::Ring, 2, 50, 10), dim(BlockKind::Ring, 2, 50, 10)});
    const uint64_t bytes = 256 * 1024;
    const auto r = runTraces(s, same(4, {comp(1, 8), coll(2, CT::AllReduce, bytes, {1}),
                                         comp(3, 8, {2}), coll(4, CT::AllReduce, bytes, {3})}));
    const RunExplanation e = explain(s, *r, "dependency chain");
    EXPECT_EQ(e.bound, BoundKind::DependencyChain);
    const double total = r->endTime.ns(), comm = total - 16000;
    EXPECT_NEAR(e.computeNs, 16000, 1);
    EXPECT_NEAR(e.communicationNs(), comm, 1);
    EXPECT_NEAR(e.saving, std::min(16000.0, comm) / total, kPrinted);
    EXPECT_LT(e.computeNs / total, 0.5);
    for (const DimensionPart& d : e.dimensions)
        EXPECT_LT((d.latencyNs + d.bandwidthNs) / total, 0.5);
}

TEST(RunExplanation, RemoteMemoryLoadsAreMemoryBound) {
    // Two loads of 1 MB from per-NPU remote memory at 64 B/ns and 100 ns: each 100 + 15,625 ns,
    // after 2 us of compute: memory is 31,450 / 33,450 of the run.
    SimulationSpec s = clean({dim(BlockKind::Ring, 4)});
    s.memory.type = RemoteMemoryType::PerNpuMemoryExpansion;
    s.memory.latencyNs = 100;
    s.memory.bandwidthBytesPerNs = 64;
    WorkloadNode load;
    load.id = 2;
    load.type = NodeType::MemLoad;
    load.hasTensorSize = true;
    load.tensorSize = 1000000;
    load.dataDeps = {1};
    WorkloadNode store = load;
    store.id = 3;
    store.type = NodeType::MemStore;
    store.dataDeps = {2};
    const auto r = runTraces(s, same(4, {comp(1, 2), load, store}));
    EXPECT_NEAR(r->endTime.ns(), 33450, 1);
    const RunExplanation e = explain(s, *r, "remote memory");
    EXPECT_EQ(e.bound, BoundKind::Memory);
    EXPECT_NEAR(e.share, 31450.0 / 33450, kPrinted);
    EXPECT_NEAR(e.saving, 31450.0 / 2 / 33450, kPrinted);
    // The what-if, run: at twice the bandwidth only the bytes part halves (the 100 ns stay).
    SimulationSpec faster = s;
    faster.memory.bandwidthBytesPerNs *= 2;
    const double saved =
        1 - runTraces(faster, same(4, {comp(1, 2), load, store}))->endTime.ns() / r->endTime.ns();
    EXPECT_LE(saved, e.saving + kPrinted);
    EXPECT_NEAR(saved, 31250.0 / 2 / 33450, kPrinted);
}

TEST(RunExplanation, ComputeDominatesAMixedRun) {
    // comp 100 us -> ring all-reduce of 1 MiB on Ring(4, 50 GB/s, 500 ns) -> comp 100 us.
    // T = 200 us + 6 alpha + 6/4 S/beta; compute 200 us of it.
    const DimensionSpec ring = dim(BlockKind::Ring, 4, 50, 500);
    const SimulationSpec s = clean({ring});
    const auto r =
        runTraces(s, same(4, {comp(1, 100), coll(2, CT::AllReduce, kMiB, {1}), comp(3, 100, {2})}));
    const double closed = 200000 + ringAllReduceNs(4, kMiB, ring);
    EXPECT_NEAR(r->endTime.ns(), closed, 0.001 * closed);
    const RunExplanation e = explain(s, *r, "mixed, compute dominant");
    EXPECT_EQ(e.bound, BoundKind::Compute);
    EXPECT_NEAR(e.share, 200000 / closed, kPrinted);
    EXPECT_NEAR(e.saving, 100000 / closed, kPrinted);
    // The all-reduce's own alpha : beta split follows the closed form too.
    EXPECT_NEAR(e.dimensions[0].latencyNs, 6 * 500.0, 0.001 * closed);
    // The what-if, run: compute twice as fast (50 us nodes) saves what the sentence says.
    const auto faster =
        runTraces(s, same(4, {comp(1, 50), coll(2, CT::AllReduce, kMiB, {1}), comp(3, 50, {2})}));
    EXPECT_NEAR(1 - faster->endTime.ns() / r->endTime.ns(), e.saving, kPrinted);
}

TEST(RunExplanation, CommunicationHiddenBehindComputeIsNotBlamed) {
    // An all-reduce that runs beside (not after) a long compute node is off the critical path.
    const SimulationSpec s = clean({dim(BlockKind::Ring, 4, 50, 500)});
    const auto r = runTraces(s, same(4, {comp(1, 100), coll(2, CT::AllReduce, kMiB)}));
    const RunExplanation e = explain(s, *r, "overlapped");
    EXPECT_EQ(e.bound, BoundKind::Compute);
    EXPECT_NEAR(e.share, 1.0, kPrinted);
}

TEST(RunExplanation, WithoutATimelineSaysSo) {
    SimulationSpec s = clean({dim(BlockKind::Ring, 4)});
    s.options.recordTimeline = false;
    const auto r = runTraces(s, same(4, {comp(1, 10)}));
    const RunExplanation e = explainRun(*r, s.platform);
    EXPECT_EQ(e.bound, BoundKind::Unknown);
    EXPECT_NE(e.sentence.find("no timeline"), std::string::npos);
}
