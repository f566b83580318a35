// A dimension no algorithm list reaches moves no data, and the run says so (issue #53,
// Researcher 1): a Switch 4 under a Ring 8 with all-reduce [ring] idles; with the Switch's own
// algorithm added (config/AlgorithmLists.h) both dimensions carry the all-reduce.
#include "analysis/IdleDimensions.h"

#include "engine/golden/GoldenSpec.h"
#include "spec/AlgorithmLists.h"

#include <gtest/gtest.h>

using namespace golden;

namespace {

constexpr uint64_t kSize = 64 * kMiB;

SimulationSpec ringWithSwitch(std::vector<std::string> algorithms) {
    SimulationSpec s = spec({dim(BlockKind::Ring, 8), dim(BlockKind::Switch, 4)});
    setAlgorithms(s, std::move(algorithms));
    return s;
}

} // namespace

TEST(IdleDimensions, AListThatStopsShortLeavesTheSwitchIdleAndTheNoteSaysSo) {
    const SimulationSpec s = ringWithSwitch({"ring"});
    const auto r = runCollective(s, CollectiveType::AllReduce, kSize);
    ASSERT_EQ(r->dimensions.size(), 2u);
    // Ring all-reduce of S over the 8 NPUs of dimension 0: each of the 32 NPUs sends
    // 2 (8 - 1) / 8 S = 1.75 S over one hop, so dimension 0's links carry 32 x 1.75 S = 56 S.
    EXPECT_EQ(r->dimensions[0].bytes, 56 * kSize);
    EXPECT_EQ(r->dimensions[1].bytes, 0u);
    const std::string note = idleDimensionsNote(*r, s.platform, s.system);
    EXPECT_NE(note.find("Dimension 1 (Switch, 4 NPUs) moved no data"), std::string::npos) << note;
    EXPECT_NE(note.find("all-reduce algorithm list [ring] covers dimension 0 only"),
              std::string::npos)
        << note;
}

TEST(IdleDimensions, TheSwitchsOwnAlgorithmMovesBytesOnEveryDimension) {
    SimulationSpec s = ringWithSwitch({"ring"});
    PlatformSpec ringOnly;
    ringOnly.dimensions = {s.platform.dimensions[0]};
    s.system.allReduce = s.system.reduceScatter = s.system.allGather =
        s.system.allToAll = {AlgorithmSpec{}};
    followPlatformEdit(s.system, ringOnly, s.platform); // the Switch dragged in
    ASSERT_EQ(algorithmNames(s.system.allReduce), "ring, halvingDoubling");
    const auto r = runCollective(s, CollectiveType::AllReduce, kSize);
    ASSERT_EQ(r->dimensions.size(), 2u);
    // Dimension 0 as before (reduce-scatter first, all-gather last: 56 S). Dimension 1 reduces
    // the S/8 left on each NPU by halving-doubling over 4: (1/2 + 1/4) S/8 = 3/32 S sent per
    // NPU each way, 3/16 S in all; 32 NPUs, and each byte crosses two links (up to the switch
    // and down): 32 x 2 x 3/16 S = 12 S.
    EXPECT_EQ(r->dimensions[0].bytes, 56 * kSize);
    EXPECT_EQ(r->dimensions[1].bytes, 12 * kSize);
    EXPECT_EQ(idleDimensionsNote(*r, s.platform, s.system), "");
}

TEST(IdleDimensions, AOneStarAlgorithmOrAGraphIsNotReported) {
    const SimulationSpec s = ringWithSwitch({"ring"});
    RunResult r;
    r.collectives.push_back(CollectiveSpan{});
    r.dimensions = {DimensionStats{0, 100}, DimensionStats{1, 0}};
    EXPECT_NE(idleDimensionsNote(r, s.platform, s.system), "");
    SystemConfig flat = s.system;
    flat.allReduce = {parseAlgorithm("oneRing")};
    EXPECT_EQ(idleDimensionsNote(r, s.platform, flat), "");
    // No collective ran: nothing is idle for want of an algorithm.
    r.collectives.clear();
    EXPECT_EQ(idleDimensionsNote(r, s.platform, s.system), "");
}
