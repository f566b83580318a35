// A symmetric run (one representative NPU) must give exactly what the full run gives.
#include "simulation/Symmetry.h"

#include "engine/golden/GoldenSpec.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace golden;
using CT = CollectiveType;
using BK = BlockKind;

namespace {

void expectSameAsFullRun(SimulationSpec s, CT type, uint64_t bytes, const std::string& what) {
    s.options.exploitSymmetry = true;
    const auto fast = runCollective(s, type, bytes);
    s.options.exploitSymmetry = false;
    const auto full = runCollective(s, type, bytes);
    ASSERT_EQ(fast->npus.size(), full->npus.size());
    for (size_t i = 0; i < full->npus.size(); ++i)
        ASSERT_EQ(fast->npus[i].finish, full->npus[i].finish) << what << " npu " << i;
    EXPECT_LT(fast->events * 2, full->events) << what << ": the fast run should be cheaper";
    uint64_t fastBytes = 0, fullBytes = 0;
    for (size_t l = 0; l < full->linkStats.size(); ++l) {
        fastBytes += fast->linkStats[l].bytes;
        fullBytes += full->linkStats[l].bytes;
    }
    EXPECT_EQ(fastBytes, fullBytes) << what << ": link bytes spread over all links";
    EXPECT_EQ(fast->trafficBytes, full->trafficBytes) << what;
    // Ranks finishing at the same time may print in another order (upstream too): compare sets.
    auto fastLines = fast->reportLines, fullLines = full->reportLines;
    std::sort(fastLines.begin(), fastLines.end());
    std::sort(fullLines.begin(), fullLines.end());
    EXPECT_TRUE(fastLines == fullLines) << what << ": report lines differ";
}

} // namespace

TEST(Symmetry, MatchesFullRunsOnMultiDimensionalPlatforms) {
    const std::vector<std::vector<DimensionSpec>> platforms{
        {dim(BK::Ring, 4, 100, 500), dim(BK::Switch, 2, 50, 1000)},
        {dim(BK::FullyConnected, 4), dim(BK::Ring, 3), dim(BK::Switch, 2)},
        {dim(BK::Switch, 8, 400, 936.25), dim(BK::Ring, 4, 25, 2000)},
    };
    for (auto backend : {NetworkBackend::CongestionUnaware, NetworkBackend::CongestionAware})
        for (const auto& platform : platforms)
            for (const char* algorithm : {"ring", "direct"})
                for (CT type : {CT::AllReduce, CT::ReduceScatter, CT::AllGather, CT::AllToAll}) {
                    auto s = spec(platform, algorithm, backend);
                    s.system.preferredDatasetSplits = 4;
                    s.system.activeChunksPerDimension = 2;
                    expectSameAsFullRun(s, type, kMiB,
                                        std::string(algorithm) + " " + collectiveTypeName(type) +
                                            " on " + std::to_string(s.platform.npuCount()) +
                                            " NPUs, " + networkBackendName(backend));
                }
}

TEST(Symmetry, RefusedWhereRanksAreNotTranslatesOfEachOther) {
    std::vector<WorkloadTrace> traces(16);
    for (auto& t : traces)
        t.nodes.push_back(coll(0, CT::AllReduce, kMiB));
    auto s = spec({dim(BK::Ring, 4), dim(BK::Ring, 4)});
    EXPECT_EQ(symmetryObstacle(s, traces), "");
    setAlgorithms(s, {"oneRing"});
    EXPECT_NE(symmetryObstacle(s, traces), "");
    EXPECT_NE(symmetryObstacle(spec({dim(BK::Ring, 16)}, "halvingDoubling"), traces), "");
    EXPECT_NE(symmetryObstacle(spec({dim(BK::Ring, 16)}, "doubleBinaryTree"), traces), "");
    traces[3].nodes[0].commSize = 2 * kMiB;
    EXPECT_EQ(symmetryObstacle(spec({dim(BK::Ring, 16)}), traces), "NPU 3 runs a different trace");
}
