// Folding equivalent ranks (simulation/RankFolding.h) must give exactly what the full run gives:
// on generated training iterations with pipeline send/recv, grouped collectives and compute, on
// 2- and 3-dimensional platforms, every NPU's summary, activities, phase and collective spans,
// every link's load and the report lines are compared field for field.
#include "simulation/RankFolding.h"

#include "engine/golden/GoldenSpec.h"
#include "engine/golden/RunComparison.h"
#include "generate/WorkloadGenerator.h"
#include "simulation/Simulation.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace golden;
using BK = BlockKind;
using NB = NetworkBackend;
namespace gen = astrolabe::generate;

namespace {

struct Case {
    const char* name;
    int tp, pp, dp, ep;
    gen::PipelineSchedule schedule;
    int zero;
    std::vector<DimensionSpec> dims;
    NB backend = NB::CongestionUnaware;
    const char* placement = "tp,dp,pp";
    bool moe = false;
    /// At most this many NPUs simulated (0: the run must not fold). The MoE cases fold only
    /// the data-parallel digits their expert groups allow: an expert group spanning tp x ep
    /// ranks in rank order is not a ring that swapping tensor-parallel peers maps onto itself.
    int simulatedAtMost = 0;
};

gen::GeneratorSpec generatorSpec(const Case& c) {
    gen::GeneratorSpec s;
    gen::ModelSpec& m = s.model;
    m.layers = 4;
    m.hidden = 256;
    m.heads = 4;
    m.ffn = 1024;
    m.vocabulary = 64;
    m.sequence = 128;
    if (c.moe) {
        m.experts = 8;
        m.topK = 2;
        m.expertFfn = 512;
        m.firstDenseLayers = 1;
    }
    s.training = {1, 4 * c.dp, 2, false};
    s.parallel.tp = c.tp;
    s.parallel.pp = c.pp;
    s.parallel.dp = c.dp;
    s.parallel.ep = c.ep;
    s.parallel.schedule = c.schedule;
    s.parallel.virtualStages = c.schedule == gen::PipelineSchedule::Interleaved ? 2 : 1;
    s.parallel.zeroStage = c.zero;
    s.parallel.placement = c.placement;
    s.parallel.bucketBytes = 64 * 1024;
    return s;
}

DimensionSpec ring(int n) {
    return dim(BK::Ring, n, 200.0, 200.0);
}
DimensionSpec fc(int n) {
    return dim(BK::FullyConnected, n, 100.0, 400.0);
}
DimensionSpec sw(int n) {
    return dim(BK::Switch, n, 25.0, 1000.0);
}

constexpr auto k1F1B = gen::PipelineSchedule::OneFOneB;
constexpr auto kGPipe = gen::PipelineSchedule::GPipe;
constexpr auto kInter = gen::PipelineSchedule::Interleaved;

// One case per line, as a table.
// clang-format off
std::vector<Case> cases() {
    using enum NB;
    return {
        {"tp2 pp2 dp4, Ring2 x Switch8", 2, 2, 4, 1, k1F1B, 0, {ring(2), sw(8)}, CongestionUnaware, "tp,dp,pp", false, 2},
        {"tp4 pp2 dp2, Ring4 x Switch4", 4, 2, 2, 1, k1F1B, 0, {ring(4), sw(4)}, CongestionUnaware, "tp,dp,pp", false, 2},
        {"tp2 pp4 dp2, GPipe", 2, 4, 2, 1, kGPipe, 0, {ring(2), sw(8)}, CongestionUnaware, "tp,dp,pp", false, 4},
        {"tp2 pp2 dp2, interleaved", 2, 2, 2, 1, kInter, 0, {ring(2), sw(4)}, CongestionUnaware, "tp,dp,pp", false, 2},
        {"ZeRO-1", 2, 2, 4, 1, k1F1B, 1, {ring(2), sw(8)}, CongestionUnaware, "tp,dp,pp", false, 2},
        {"ZeRO-3", 2, 2, 4, 1, k1F1B, 3, {ring(2), sw(8)}, CongestionUnaware, "tp,dp,pp", false, 2},
        {"3-D Ring2 x FC4 x Switch2", 2, 2, 4, 1, k1F1B, 0, {ring(2), fc(4), sw(2)}, CongestionUnaware, "tp,dp,pp", false, 2},
        {"3-D Ring2 x Switch2 x Ring4", 2, 4, 2, 1, k1F1B, 0, {ring(2), sw(2), ring(4)}, CongestionUnaware, "tp,dp,pp", false, 4},
        {"pp innermost: dp,pp,tp", 2, 2, 4, 1, k1F1B, 0, {sw(4), sw(2), ring(2)}, CongestionUnaware, "dp,pp,tp", false, 2},
        {"placement pp,tp,dp", 2, 2, 4, 1, k1F1B, 0, {sw(2), ring(2), sw(4)}, CongestionUnaware, "pp,tp,dp", false, 2},
        {"dp only (no pipeline), Switch8", 1, 1, 8, 1, k1F1B, 0, {sw(8)}, CongestionUnaware, "tp,dp,pp", false, 1},
        {"pp only, Ring4", 1, 4, 1, 1, k1F1B, 0, {ring(4)}, CongestionUnaware, "tp,dp,pp", false, 0},
        {"tp only, Ring4 x Ring2", 4, 1, 2, 1, k1F1B, 0, {ring(4), ring(2)}, CongestionUnaware, "tp,dp,pp", false, 1},
        {"MoE ep2", 2, 2, 4, 2, k1F1B, 0, {ring(2), sw(8)}, CongestionUnaware, "tp,dp,pp", true, 8},
        {"MoE ep4", 1, 2, 4, 4, k1F1B, 0, {sw(4), sw(2)}, CongestionUnaware, "tp,dp,pp", true, 2},
        {"MoE ep2 GPipe", 2, 2, 2, 2, kGPipe, 0, {ring(2), fc(2), sw(2)}, CongestionUnaware, "tp,dp,pp", true, 4},
        {"wide dp16, Ring2 x Switch32", 2, 2, 16, 1, k1F1B, 0, {ring(2), sw(32)}, CongestionUnaware, "tp,dp,pp", false, 2},
        {"dp on a ring (rotations)", 2, 2, 4, 1, k1F1B, 0, {ring(2), ring(4), sw(2)}, CongestionUnaware, "tp,dp,pp", false, 2},
        {"dp split over two dims", 2, 2, 4, 1, k1F1B, 0, {ring(2), sw(2), sw(4)}, CongestionUnaware, "tp,dp,pp", false, 4},
        {"sequence parallel dp4", 2, 2, 4, 1, k1F1B, 0, {ring(2), sw(8)}, CongestionUnaware, "tp,dp,pp", false, 2},
        {"congestion-aware", 2, 2, 4, 1, k1F1B, 0, {ring(2), sw(8)}, CongestionAware, "tp,dp,pp", false, 2},
        {"congestion-aware 3-D", 2, 2, 2, 1, kGPipe, 0, {ring(2), fc(2), sw(2)}, CongestionAware, "tp,dp,pp", false, 4},
        {"pp only, Ring4, congestion-aware", 1, 4, 1, 1, k1F1B, 0, {ring(4)}, CongestionAware, "tp,dp,pp", false, 0},
    };
}
// clang-format on

} // namespace

TEST(RankFolding, FoldedRunsEqualFullRunsOnMixedTrainingIterations) {
    int folded = 0;
    for (const Case& c : cases()) {
        gen::GeneratorSpec g = generatorSpec(c);
        if (std::string(c.name).find("sequence parallel") != std::string::npos)
            g.parallel.sequenceParallel = true;
        const gen::GeneratedWorkload w = gen::generateWorkload(g);
        SimulationSpec s = spec(c.dims, "ring", c.backend);
        ASSERT_EQ(static_cast<size_t>(s.platform.npuCount()), w.traces.size()) << c.name;
        s.commGroups = w.groups;
        s.options.exploitSymmetry = true;
        const auto fast = runTraces(s, w.traces);
        s.options.exploitSymmetry = false;
        const auto full = runTraces(s, w.traces);
        s.options.exploitSymmetry = true;
        EXPECT_EQ(full->simulatedNpus, full->npuCount) << c.name;
        if (c.simulatedAtMost > 0) {
            EXPECT_LE(fast->simulatedNpus, c.simulatedAtMost)
                << c.name
                << ": did not fold: " << RankFolding(s, w.traces, Topology(s.platform)).obstacle();
            folded += fast->simulatedNpus < fast->npuCount;
        } else {
            EXPECT_EQ(fast->simulatedNpus, fast->npuCount) << c.name << ": should not fold";
        }
        EXPECT_LT(fast->events, full->events + 1) << c.name;
        EXPECT_EQ(runDifference(*fast, *full), "") << c.name;
    }
    EXPECT_GE(folded, 18);
}

// Under the congestion-aware model every link orbit of the folding's group is one FIFO server
// (RankFolding.h). The same iterations as above, each under that model, must fold as far as
// under the congestion-unaware one and give exactly the full run: rings, tori (Ring x Ring),
// switches, fully connected blocks, sub-group and whole-machine collectives, pipeline
// send/recv; plus tori where every collective is a data-parallel one over a ring dimension.
TEST(RankFolding, FoldedCongestionAwareRunsEqualFullRuns) {
    std::vector<Case> all = cases();
    all.push_back({"torus Ring4 x Ring4, tp4 dp4",
                   4,
                   1,
                   4,
                   1,
                   k1F1B,
                   0,
                   {ring(4), ring(4)},
                   NB::CongestionAware,
                   "tp,dp,pp",
                   false,
                   1});
    all.push_back({"torus Ring2 x Ring4 x Ring2, pp2",
                   2,
                   2,
                   4,
                   1,
                   k1F1B,
                   0,
                   {ring(2), ring(4), ring(2)},
                   NB::CongestionAware,
                   "tp,dp,pp",
                   false,
                   2});
    all.push_back({"dp,tp,pp on Switch4 x Ring2 x Ring2",
                   2,
                   2,
                   4,
                   1,
                   kGPipe,
                   0,
                   {sw(4), ring(2), ring(2)},
                   NB::CongestionAware,
                   "dp,tp,pp",
                   false,
                   2});
    int compared = 0, folded = 0;
    for (Case c : all) {
        if (c.simulatedAtMost == 0)
            continue; // the cases that must not fold are checked above
        c.backend = NB::CongestionAware;
        gen::GeneratorSpec g = generatorSpec(c);
        if (std::string(c.name).find("sequence parallel") != std::string::npos)
            g.parallel.sequenceParallel = true;
        const gen::GeneratedWorkload w = gen::generateWorkload(g);
        SimulationSpec s = spec(c.dims, "ring", c.backend);
        ASSERT_EQ(static_cast<size_t>(s.platform.npuCount()), w.traces.size()) << c.name;
        s.commGroups = w.groups;
        s.options.exploitSymmetry = true;
        const auto fast = runTraces(s, w.traces);
        s.options.exploitSymmetry = false;
        const auto full = runTraces(s, w.traces);
        s.options.exploitSymmetry = true;
        ++compared;
        EXPECT_LE(fast->simulatedNpus, c.simulatedAtMost)
            << c.name
            << ": did not fold: " << RankFolding(s, w.traces, Topology(s.platform)).obstacle();
        folded += fast->simulatedNpus < fast->npuCount;
        EXPECT_LT(fast->events, full->events + 1) << c.name;
        EXPECT_EQ(runDifference(*fast, *full), "") << c.name;
    }
    EXPECT_GE(compared, 20);
    EXPECT_EQ(folded, compared);
}

// The proof on links: each orbit of a congestion-aware folding holds |H| links of one dimension,
// one per element of H, and every link of it is served by the orbit's lowest link.
TEST(RankFolding, CongestionAwareLinkOrbitsHoldOneLinkPerSymmetry) {
    gen::GeneratorSpec g = generatorSpec({"", 2, 2, 4, 1, k1F1B, 0, {}});
    const gen::GeneratedWorkload w = gen::generateWorkload(g);
    SimulationSpec s = spec({ring(2), sw(8)}, "ring", NB::CongestionAware);
    s.commGroups = w.groups;
    const Topology topology(s.platform);
    const RankFolding f(s, w.traces, topology);
    ASSERT_TRUE(f.folds()) << f.obstacle();
    ASSERT_EQ(f.orbitSize(), 8); // tp 2 x dp 4
    const std::vector<int32_t>& server = f.linkServers();
    ASSERT_EQ(server.size(), static_cast<size_t>(topology.linkCount()));
    std::map<int, std::set<int>> orbit;
    for (int l = 0; l < topology.linkCount(); ++l) {
        const int s0 = server[static_cast<size_t>(l)];
        EXPECT_LE(s0, l);
        EXPECT_EQ(topology.link(s0).dimension, topology.link(l).dimension);
        orbit[s0].insert(l);
    }
    // Ring 2 x Switch 8 (16 NPUs): the ring's 4 links per line x 8 lines and the switch's 16
    // links per line x 2 lines: 64 links in 8 orbits of 8.
    EXPECT_EQ(topology.linkCount(), 64);
    EXPECT_EQ(orbit.size(), 8u);
    for (const auto& [first, links] : orbit) {
        EXPECT_EQ(links.size(), 8u) << "orbit of link " << first;
        std::set<int> images;
        for (int k = 0; k < f.orbitSize(); ++k)
            images.insert(f.linkImage(k, first));
        EXPECT_EQ(images, links) << "orbit of link " << first;
    }
    // Every route between any two NPUs maps onto the route between their images.
    for (int a = 0; a < topology.npuCount(); ++a)
        for (int b = 0; b < topology.npuCount(); ++b) {
            if (a != b) {
                EXPECT_NO_THROW(f.checkRoute(a, b)) << a << " -> " << b;
            }
        }
}

TEST(RankFolding, SaysWhyARunIsNotFolded) {
    gen::GeneratorSpec g = generatorSpec({"", 2, 2, 2, 1, k1F1B, 0, {}});
    const gen::GeneratedWorkload w = gen::generateWorkload(g);
    SimulationSpec s = spec({ring(2), sw(4)}, "ring", NB::CongestionAware);
    s.commGroups = w.groups;
    const Topology topology(s.platform);
    EXPECT_TRUE(RankFolding(s, w.traces, topology).folds());
    s.system.allReduce = {AlgorithmSpec{AlgorithmKind::Ring},
                          AlgorithmSpec{AlgorithmKind::InSwitch}};
    EXPECT_NE(RankFolding(s, w.traces, topology).obstacle().find("not symmetric"),
              std::string::npos);
    s = spec({ring(2), sw(4)}, "halvingDoubling");
    s.commGroups = w.groups;
    EXPECT_FALSE(RankFolding(s, w.traces, topology).folds());
    s = spec({ring(2), sw(4)});
    s.commGroups = w.groups;
    const RankFolding ok(s, w.traces, topology);
    ASSERT_TRUE(ok.folds()) << ok.obstacle();
    EXPECT_EQ(ok.orbitSize(), 4); // tp 2 x dp 2: one NPU per pipeline stage
    EXPECT_EQ(ok.representatives(), (std::vector<int>{0, 4}));
    // A trace that differs on one data-parallel replica breaks that symmetry.
    std::vector<WorkloadTrace> broken = w.traces;
    broken[2].nodes.back().durationMicros += 1;
    const RankFolding partial(s, broken, topology);
    EXPECT_TRUE(!partial.folds() || partial.orbitSize() < 4);
}
