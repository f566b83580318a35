// Spec §9.5 golden vectors 1-27, 34, 35: native collectives, each verified upstream.
#include "engine/golden/GoldenSpec.h"

#include <gtest/gtest.h>

using namespace golden;
using CT = CollectiveType;
using BK = BlockKind;
constexpr auto CU = NetworkBackend::CongestionUnaware;
constexpr auto CA = NetworkBackend::CongestionAware;

namespace {
int64_t run(const SimulationSpec& s, CT type, uint64_t bytes) {
    const auto r = runCollective(s, type, bytes);
    EXPECT_EQ(maxCycles(*r), minCycles(*r)) << "every rank should finish together";
    return maxCycles(*r);
}
} // namespace

TEST(Golden, V01_RingAllReduce) {
    EXPECT_EQ(run(spec({dim(BK::Ring, 8)}), CT::AllReduce, kMiB), 96365);
}
TEST(Golden, V02_RingReduceScatter) {
    EXPECT_EQ(run(spec({dim(BK::Ring, 8)}), CT::ReduceScatter, kMiB), 75708);
}
TEST(Golden, V03_RingAllGather) {
    EXPECT_EQ(run(spec({dim(BK::Ring, 8)}), CT::AllGather, kMiB), 140297);
}

TEST(Golden, V04_SwitchUnaware) {
    const auto s = spec({dim(BK::Switch, 8)});
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 103365);
    EXPECT_EQ(run(s, CT::ReduceScatter, kMiB), 79208);
    EXPECT_EQ(run(s, CT::AllGather, kMiB), 143797);
}

TEST(Golden, V05_SwitchAware) {
    const auto s = spec({dim(BK::Switch, 8)}, "ring", CA);
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 137539);
    EXPECT_EQ(run(s, CT::ReduceScatter, kMiB), 96295);
    EXPECT_EQ(run(s, CT::AllGather, kMiB), 280514);
}

TEST(Golden, V06_Ring4BothBackends) {
    for (auto backend : {CU, CA}) {
        const auto s = spec({dim(BK::Ring, 4)}, "ring", backend);
        EXPECT_EQ(run(s, CT::AllReduce, 1000000), 76006);
        EXPECT_EQ(run(s, CT::ReduceScatter, 1000000), 60508);
        EXPECT_EQ(run(s, CT::AllGather, 1000000), 57418);
    }
}

TEST(Golden, V07_FullyConnectedRingAllToAll) {
    EXPECT_EQ(run(spec({dim(BK::FullyConnected, 4)}), CT::AllToAll, kMiB), 32362);
    EXPECT_EQ(run(spec({dim(BK::FullyConnected, 8)}), CT::AllToAll, kMiB), 82638);
}

TEST(Golden, V08_FullyConnectedDirect) {
    const auto s = spec({dim(BK::FullyConnected, 8)}, "direct");
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 13775);
    EXPECT_EQ(run(s, CT::ReduceScatter, kMiB), 10824);
    EXPECT_EQ(run(s, CT::AllGather, kMiB), 20051);
    EXPECT_EQ(run(s, CT::AllToAll, kMiB), 2961);
}

TEST(Golden, V09_HalvingDoubling8) {
    const auto s = spec({dim(BK::FullyConnected, 8)}, "halvingDoubling");
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 60835);
    EXPECT_EQ(run(s, CT::ReduceScatter, kMiB), 42217);
    EXPECT_EQ(run(s, CT::AllGather, kMiB), 138258);
}

TEST(Golden, V10_HalvingDoubling4) {
    const auto s = spec({dim(BK::FullyConnected, 4)}, "halvingDoubling");
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 47070);
    EXPECT_EQ(run(s, CT::ReduceScatter, kMiB), 31403);
    EXPECT_EQ(run(s, CT::AllGather, kMiB), 59623);
}

TEST(Golden, V11_DoubleBinaryTree) {
    const auto r =
        runCollective(spec({dim(BK::FullyConnected, 8)}, "doubleBinaryTree"), CT::AllReduce, kMiB);
    EXPECT_EQ(cycles(*r, 7), 248872);
    EXPECT_EQ(cycles(*r, 3), 331826);
    for (int npu : {1, 5})
        EXPECT_EQ(cycles(*r, npu), 414780) << npu;
    for (int npu : {0, 2, 4, 6})
        EXPECT_EQ(cycles(*r, npu), 434821) << npu;
}

TEST(Golden, V12_DoubleBinaryTreeTwoChunks) {
    auto s = spec({dim(BK::FullyConnected, 8)}, "doubleBinaryTree");
    s.system.preferredDatasetSplits = 2;
    const auto r = runCollective(s, CT::AllReduce, kMiB);
    EXPECT_EQ(cycles(*r, 0), 333860);
    EXPECT_EQ(cycles(*r, 4), 375590);
    for (int npu : {2, 6})
        EXPECT_EQ(cycles(*r, npu), 417320) << npu;
    for (int npu : {1, 3, 5, 7})
        EXPECT_EQ(cycles(*r, npu), 427595) << npu;
}

TEST(Golden, V13_DirectOnRingNonUniformHops) {
    const auto s = spec({dim(BK::Ring, 8)}, "direct");
    EXPECT_EQ(run(s, CT::AllToAll, kMiB), 4461);
    EXPECT_EQ(run(s, CT::ReduceScatter, kMiB), 12324);
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 15775);
}

TEST(Golden, V14_DirectAllToAllOnAwareSwitch) {
    EXPECT_EQ(run(spec({dim(BK::Switch, 4)}, "direct", CA), CT::AllToAll, kMiB), 20548);
    EXPECT_EQ(run(spec({dim(BK::Switch, 8)}, "direct", CA), CT::AllToAll, kMiB), 20548);
}

TEST(Golden, V15_EndpointAndMemoryBandwidth) {
    auto s = spec({dim(BK::Ring, 8, 100, 1000)});
    s.system.endpointDelayNs = 100;
    EXPECT_EQ(run(s, CT::AllReduce, 4 * kMiB), 304033);
    s.system.endpointDelayNs = 10;
    s.system.localMemBandwidthGBps = 1600;
    EXPECT_EQ(run(s, CT::AllReduce, 4 * kMiB), 89365);
    s.system.localMemBandwidthGBps = 1;
    EXPECT_EQ(run(s, CT::AllReduce, 4 * kMiB), 11092546);
}

namespace {
SimulationSpec twoDim() {
    return spec({dim(BK::Ring, 4, 100, 500), dim(BK::Switch, 2, 50, 1000)});
}
} // namespace

TEST(Golden, V16_TwoDimAllReduce) {
    auto s = twoDim();
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 81679);
    s.system.collectiveOptimization = CollectiveOptimization::Baseline;
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 119909);
}

TEST(Golden, V17_TwoDimOtherCollectives) {
    const auto s = twoDim();
    EXPECT_EQ(run(s, CT::ReduceScatter, kMiB), 68365);
    EXPECT_EQ(run(s, CT::AllGather, kMiB), 81684);
    EXPECT_EQ(run(s, CT::AllToAll, kMiB), 29501);
}

TEST(Golden, V18_InvolvedDimensions) {
    const auto s = twoDim();
    for (auto [involved, expected] :
         {std::pair{std::vector<bool>{true, false}, 64894}, {{false, true}, 55015}}) {
        std::vector<WorkloadTrace> traces(8);
        for (auto& t : traces) {
            t.nodes.push_back(coll(0, CT::AllReduce, kMiB));
            t.nodes.back().detail.edit().involvedDim = involved;
        }
        EXPECT_EQ(maxCycles(*runTraces(s, traces)), expected);
    }
}

TEST(Golden, V19_ShorterAlgorithmList) {
    auto s = twoDim();
    setAlgorithms(s, {"ring"});
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 64894);
}

TEST(Golden, V20_OneRing) {
    auto s = twoDim();
    setAlgorithms(s, {"oneRing"});
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 79271);
}

TEST(Golden, V21_ActiveChunksUnaware) {
    auto s = spec({dim(BK::Ring, 8)});
    s.system.preferredDatasetSplits = 4;
    for (auto [active, expected] : {std::pair{1, 113692}, {2, 56846}, {4, 28423}}) {
        s.system.activeChunksPerDimension = active;
        EXPECT_EQ(run(s, CT::AllReduce, 1000000), expected) << "active " << active;
    }
}

TEST(Golden, V22_ActiveChunksAware) {
    auto s = spec({dim(BK::Ring, 8)}, "ring", CA);
    s.system.preferredDatasetSplits = 4;
    for (auto [active, expected] : {std::pair{2, 58354}, {4, 37585}}) {
        s.system.activeChunksPerDimension = active;
        EXPECT_EQ(run(s, CT::AllReduce, 1000000), expected) << "active " << active;
    }
}

TEST(Golden, V23_ExtraFullSizeChunk) {
    for (auto backend : {CU, CA}) {
        auto s = spec({dim(BK::Ring, 8)}, "ring", backend);
        s.system.preferredDatasetSplits = 3;
        EXPECT_EQ(run(s, CT::AllReduce, 1000000), 142028);
    }
}

TEST(Golden, V24_ChunkForcedToNpuCount) {
    auto s = spec({dim(BK::Ring, 8)});
    s.system.preferredDatasetSplits = 4;
    EXPECT_EQ(run(s, CT::AllReduce, 16), 28600);
}

TEST(Golden, V25_UpstreamRing16AllGather) {
    auto s = spec({dim(BK::Ring, 16)}, "ring", CA);
    s.system.preferredDatasetSplits = 4;
    s.system.localMemBandwidthGBps = 1600;
    s.system.schedulingPolicy = SchedulingPolicy::LIFO;
    EXPECT_EQ(run(s, CT::AllGather, kMiB), 323560);
}

TEST(Golden, V26_UpstreamRing4ReduceScatter) {
    auto s = spec({dim(BK::Ring, 4)});
    s.system.preferredDatasetSplits = 4;
    s.system.localMemBandwidthGBps = 1600;
    EXPECT_EQ(run(s, CT::ReduceScatter, kMiB), 22240);
}

TEST(Golden, V27_HgxH100) {
    for (auto [backend, expected] : {std::pair{CU, 55222}, {CA, 57426}}) {
        auto s = spec({dim(BK::Switch, 8, 400, 936.25)}, "ring", backend);
        s.system.preferredDatasetSplits = 4;
        s.system.activeChunksPerDimension = 2;
        s.system.localMemBandwidthGBps = 3350;
        EXPECT_EQ(run(s, CT::AllReduce, kMiB), expected);
    }
}

TEST(Golden, V34_Rendezvous) {
    auto s = spec({dim(BK::Ring, 4)});
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 79540);
    s.options.rendezvousProtocol = true;
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 83452);
}

TEST(Golden, V35_InjectionScale) {
    auto s = spec({dim(BK::Ring, 4)});
    s.system.endpointDelayNs = 30; // endpoint-delay 10 x --injection-scale 3, applied on load
    EXPECT_EQ(run(s, CT::AllReduce, kMiB), 79680);
}

TEST(Golden, RegressionReference8NpuRing) {
    // ASTRA-sim's own regression case (tests/rt_template): 117780 on every NPU.
    auto s = spec({dim(BK::Ring, 8)});
    s.system.preferredDatasetSplits = 4;
    for (auto backend : {CU, CA}) {
        s.options.backend = backend;
        EXPECT_EQ(run(s, CT::AllReduce, kMiB), 117780);
    }
}
