// Themis' search and its published greedy rule against the fixed dimension order, on the
// paper's platforms (docs/themis.md has all 72 cases); and its cost model against closed forms.
#include "astra/AstraSystemConfig.h"
#include "collective/DimensionScheduler.h"
#include "engine/golden/GoldenSpec.h"

#include <gtest/gtest.h>

using namespace golden;
using CT = CollectiveType;
using BK = BlockKind;
using CK = CollectiveKind;

namespace {

SystemConfig withAlgorithms(std::vector<AlgorithmKind> kinds) {
    SystemConfig system;
    for (AlgorithmKind k : kinds)
        for (auto* list :
             {&system.allReduce, &system.reduceScatter, &system.allGather, &system.allToAll})
            list->push_back({k, 0});
    return system;
}

DimensionSpec gbps(BK kind, int n, double gbPerSecond, double latencyNs) {
    return {kind, n, gbPerSecond * 1e9, latencyNs};
}

} // namespace

TEST(Themis, PhaseCostsAreTheAlgorithmsClosedForms) {
    const DimensionScheduler s(
        InterDimensionScheduling::Themis,
        {gbps(BK::Ring, 16, 200, 500), gbps(BK::FullyConnected, 8, 100, 500),
         gbps(BK::Switch, 4, 50, 500)},
        withAlgorithms({AlgorithmKind::Ring, AlgorithmKind::Direct, AlgorithmKind::Ring}));
    const double x = 16e6; // bytes in; 200 GB/s = 200 bytes/ns
    // Ring: n - 1 steps, each a hop and a 1/n share.
    EXPECT_DOUBLE_EQ(s.phaseNs(CK::AllReduce, CK::ReduceScatter, 0, x), 15 * (500 + x / 16 / 200));
    EXPECT_DOUBLE_EQ(s.phaseNs(CK::AllReduce, CK::AllGather, 0, x), 15 * (500 + x / 200));
    // Direct on FullyConnected: one hop, the n - 1 shares over n - 1 links at once.
    EXPECT_DOUBLE_EQ(s.phaseNs(CK::AllReduce, CK::ReduceScatter, 1, x), 500 + x / 8 / 100);
    // A Switch step crosses two links (up and down).
    EXPECT_DOUBLE_EQ(s.phaseNs(CK::AllReduce, CK::ReduceScatter, 2, x), 3 * (1000 + x / 4 / 50));
}

TEST(Themis, AReduceScatterAlsoPaysItsReductionInLocalMemory) {
    SystemConfig system = withAlgorithms({AlgorithmKind::Ring, AlgorithmKind::Ring});
    system.localMemBandwidthGBps = 1600; // bytes/ns
    const DimensionScheduler s(InterDimensionScheduling::Themis,
                               {gbps(BK::Switch, 32, 250, 500), gbps(BK::Switch, 16, 250, 500)},
                               system);
    const double x = 250e6;
    const double sent = x * 31 / 32;
    // The token engine's R: 3 x bytes / local-memory bandwidth on every reduce step.
    EXPECT_DOUBLE_EQ(s.phaseNs(CK::AllReduce, CK::ReduceScatter, 0, x),
                     31 * 1000 + sent / 250 + 3 * sent / 1600);
    // An all-gather reduces nothing.
    EXPECT_DOUBLE_EQ(s.phaseNs(CK::AllReduce, CK::AllGather, 0, x / 32),
                     31 * (1000 + x / 32 / 250));
}

TEST(Themis, EqualDimensionsKeepTheNaturalOrder) {
    DimensionScheduler s(InterDimensionScheduling::Themis,
                         {gbps(BK::Ring, 4, 100, 500), gbps(BK::Ring, 4, 100, 500)},
                         withAlgorithms({AlgorithmKind::Ring, AlgorithmKind::Ring}));
    s.beginCollective(1);
    EXPECT_EQ(s.orderFor(CK::AllReduce, kMiB, {0, 1}), (std::vector<int>{0, 1}));
    s.beginCollective(1);
    EXPECT_EQ(s.orderFor(CK::AllGather, kMiB, {0, 1}), (std::vector<int>{1, 0}))
        << "all-gather's natural order is descending";
}

TEST(Themis, TheLargestStepGoesWhereItCostsLeast) {
    // Conv-3D: a single chunk. Reducing the whole chunk over the FullyConnected dimension's
    // seven links at once (x/800 ns per byte) costs far less than over the ring (15x/3200), so
    // Themis starts there; the fixed order starts on the ring.
    DimensionScheduler s(
        InterDimensionScheduling::Themis,
        {gbps(BK::Ring, 16, 200, 500), gbps(BK::FullyConnected, 8, 100, 500),
         gbps(BK::Switch, 4, 50, 500)},
        withAlgorithms({AlgorithmKind::Ring, AlgorithmKind::Direct, AlgorithmKind::Ring}));
    s.beginCollective(1);
    const std::vector<int> order = s.orderFor(CK::AllReduce, 1 << 30, {0, 1, 2});
    ASSERT_EQ(order.size(), 3u);
    EXPECT_EQ(order[0], 1);
}

TEST(Themis, SchedulesAreSharedAndRepeatable) {
    auto plans = std::make_shared<DimensionScheduler::Plans>();
    const std::vector<DimensionSpec> dims{gbps(BK::Switch, 32, 250, 500),
                                          gbps(BK::Switch, 16, 250, 500)};
    const SystemConfig system = withAlgorithms({AlgorithmKind::Ring, AlgorithmKind::Ring});
    DimensionScheduler a(InterDimensionScheduling::Themis, dims, system, plans);
    DimensionScheduler b(InterDimensionScheduling::Themis, dims, system, plans);
    DimensionScheduler alone(InterDimensionScheduling::Themis, dims, system);
    a.beginCollective(16);
    b.beginCollective(16);
    alone.beginCollective(16);
    int swapped = 0;
    for (int c = 0; c < 16; ++c) {
        const auto fromA = a.orderFor(CK::AllReduce, 4 << 20, {0, 1});
        EXPECT_EQ(b.orderFor(CK::AllReduce, 4 << 20, {0, 1}), fromA);
        EXPECT_EQ(alone.orderFor(CK::AllReduce, 4 << 20, {0, 1}), fromA);
        swapped += fromA.front() == 1;
    }
    // The 32-wide dimension pays 31 hops per step, the 16-wide 15: most chunks start on dim 1.
    EXPECT_GT(swapped, 8);
}

TEST(Themis, NeverSlowerThanTheFixedOrderOnThePaperPlatforms) {
    // The cases where ASTRA-sim's own Themis (offlineGreedy) loses most: 64 MB in 4 and 16
    // chunks, both network models. Themis must not lose more than 2%, and must gain on the
    // convolutional platforms, where the fixed order reduces the whole chunk on dimension 0.
    for (const PaperPlatform& p : themisPaperPlatforms()) {
        if (p.dims.size() < 2)
            continue; // one dimension: nothing to order
        for (NetworkBackend backend :
             {NetworkBackend::CongestionUnaware, NetworkBackend::CongestionAware})
            for (int splits : {4, 16}) {
                SimulationSpec s = spec(p.dims, "ring", backend);
                setAlgorithms(s, p.algorithms);
                s.system.localMemBandwidthGBps = 1600;
                s.system.preferredDatasetSplits = splits;
                const double fixed =
                    static_cast<double>(maxCycles(*runCollective(s, CT::AllReduce, 64 * kMiB)));
                s.system.interDimensionScheduling = InterDimensionScheduling::Themis;
                const double themis =
                    static_cast<double>(maxCycles(*runCollective(s, CT::AllReduce, 64 * kMiB)));
                SCOPED_TRACE(std::string(p.name) + " " + networkBackendName(backend) + " " +
                             std::to_string(splits) + " chunks");
                EXPECT_LE(themis, fixed * 1.02);
                if (std::string(p.name) != "W-2D") {
                    EXPECT_GT(fixed / themis, 1.3);
                }
            }
    }
}

TEST(Themis, AtLeastAsFastAsAstraSimsThemisOnW2DWithFourChunks) {
    // W-2D (Switch 32 x Switch 16, 250/250 GB/s), 1 GB in 4 chunks, congestion-unaware: the one
    // case of the 72 where ASTRA-sim's offlineGreedy once beat us (7.1459 against 7.1842 ms).
    // The engine's phases: reduce-scatter 1,454 us, all-gather 1,000 us for the same traffic on
    // dimension 0; only a 2 + 2 split of the chunks over the two start dimensions reaches
    // 7.1459 ms, a 3 + 1 split takes 7.1842 ms. A cost model without the reduction picks 3 + 1.
    const std::vector<PaperPlatform> platforms = themisPaperPlatforms();
    const PaperPlatform* w2d = nullptr;
    for (const PaperPlatform& p : platforms)
        if (std::string(p.name) == "W-2D")
            w2d = &p;
    ASSERT_NE(w2d, nullptr);
    SimulationSpec s = spec(w2d->dims, "ring", NetworkBackend::CongestionUnaware);
    setAlgorithms(s, w2d->algorithms);
    s.system.localMemBandwidthGBps = 1600;
    s.system.preferredDatasetSplits = 4;
    s.system.interDimensionScheduling = InterDimensionScheduling::OfflineGreedy;
    const uint64_t bytes = 1000000000;
    const double astra = static_cast<double>(maxCycles(*runCollective(s, CT::AllReduce, bytes)));
    s.system.interDimensionScheduling = InterDimensionScheduling::Themis;
    const double themis = static_cast<double>(maxCycles(*runCollective(s, CT::AllReduce, bytes)));
    EXPECT_LE(themis, astra) << "themis " << themis << " cycles, offlineGreedy " << astra;
}

TEST(Themis, TheGreedyRuleSendsTheLargestStepToTheLeastLoadedDimension) {
    // Two rings of 4 at 100 GB/s, 500 ns: a reduce-scatter of x bytes costs 3 (500 + x / 400) ns
    // on the first dimension it visits, 3 (500 + x / 1600) ns on the second. The first chunk
    // finds both idle and keeps the natural order, loading dimension 0 with the larger step; the
    // second starts on dimension 1; then each carries one large and one small step, equal
    // loads, and the third keeps the natural order again. All-to-all keeps the natural order.
    DimensionScheduler s(InterDimensionScheduling::ThemisGreedy,
                         {gbps(BK::Ring, 4, 100, 500), gbps(BK::Ring, 4, 100, 500)},
                         withAlgorithms({AlgorithmKind::Ring, AlgorithmKind::Ring}));
    s.beginCollective(3);
    EXPECT_EQ(s.orderFor(CK::ReduceScatter, kMiB, {0, 1}), (std::vector<int>{0, 1}));
    EXPECT_EQ(s.orderFor(CK::ReduceScatter, kMiB, {0, 1}), (std::vector<int>{1, 0}));
    EXPECT_EQ(s.orderFor(CK::ReduceScatter, kMiB, {0, 1}), (std::vector<int>{0, 1}));
    s.beginCollective(2);
    EXPECT_EQ(s.orderFor(CK::AllGather, kMiB, {0, 1}), (std::vector<int>{1, 0}));
    EXPECT_EQ(s.orderFor(CK::AllGather, kMiB, {0, 1}), (std::vector<int>{0, 1}))
        << "all-gather's largest step is its last: the least loaded dimension comes last";
    s.beginCollective(2);
    EXPECT_EQ(s.orderFor(CK::AllToAll, kMiB, {0, 1}), (std::vector<int>{0, 1}));
    EXPECT_EQ(s.orderFor(CK::AllToAll, kMiB, {0, 1}), (std::vector<int>{0, 1}));
    EXPECT_TRUE(s.splitsAllReduce());
    EXPECT_EQ(parseInterDimensionScheduling("themisGreedy"),
              InterDimensionScheduling::ThemisGreedy);
}
