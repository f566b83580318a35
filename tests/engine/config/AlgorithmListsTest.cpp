// The algorithm lists follow platform edits (issue #53, Researcher 1): a dimension dragged in
// gets its block's algorithm, a removed one takes its entry along, a moved one keeps its own.
#include "spec/AlgorithmLists.h"

#include <gtest/gtest.h>

using namespace astrolabe;

namespace {

DimensionSpec block(BlockKind kind, int size) {
    return DimensionSpec{kind, size, 50.0 * 1073741824.0, 500.0};
}

PlatformSpec platform(std::vector<DimensionSpec> dims) {
    PlatformSpec p;
    p.dimensions = std::move(dims);
    return p;
}

std::string names(const std::vector<AlgorithmSpec>& list) {
    return algorithmNames(list);
}

std::vector<AlgorithmSpec> parse(std::initializer_list<const char*> list) {
    std::vector<AlgorithmSpec> out;
    for (const char* name : list)
        out.push_back(parseAlgorithm(name));
    return out;
}

SystemConfig everyList(std::initializer_list<const char*> list) {
    SystemConfig s;
    s.allReduce = s.reduceScatter = s.allGather = s.allToAll = parse(list);
    return s;
}

const DimensionSpec kRing8 = block(BlockKind::Ring, 8);
const DimensionSpec kSwitch4 = block(BlockKind::Switch, 4);
const DimensionSpec kSwitch6 = block(BlockKind::Switch, 6);
const DimensionSpec kFc4 = block(BlockKind::FullyConnected, 4);

} // namespace

TEST(AlgorithmLists, NaturalAlgorithmOfEachBlock) {
    EXPECT_EQ(algorithmName(naturalAlgorithm(kRing8, CollectiveKind::AllReduce)), "ring");
    EXPECT_EQ(algorithmName(naturalAlgorithm(kFc4, CollectiveKind::AllGather)), "direct");
    EXPECT_EQ(algorithmName(naturalAlgorithm(kSwitch4, CollectiveKind::AllReduce)),
              "halvingDoubling");
    // Halving-doubling needs a power of two and has no all-to-all.
    EXPECT_EQ(algorithmName(naturalAlgorithm(kSwitch6, CollectiveKind::AllReduce)), "direct");
    EXPECT_EQ(algorithmName(naturalAlgorithm(kSwitch4, CollectiveKind::AllToAll)), "direct");
}

TEST(AlgorithmLists, ADimensionDraggedUnderARingGetsItsBlocksAlgorithm) {
    // The case: a Switch dragged under a Ring 8 whose lists are [ring].
    SystemConfig s = everyList({"ring"});
    followPlatformEdit(s, platform({kRing8}), platform({kRing8, kSwitch4}));
    EXPECT_EQ(names(s.allReduce), "ring, halvingDoubling");
    EXPECT_EQ(names(s.reduceScatter), "ring, halvingDoubling");
    EXPECT_EQ(names(s.allToAll), "ring, direct");
    // Dropped above it instead: the ring keeps its algorithm, one dimension down.
    SystemConfig above = everyList({"ring"});
    followPlatformEdit(above, platform({kRing8}), platform({kFc4, kRing8}));
    EXPECT_EQ(names(above.allGather), "direct, ring");
}

TEST(AlgorithmLists, RemovingAndMovingCarryTheEntries) {
    const PlatformSpec three = platform({kRing8, kFc4, kSwitch4});
    SystemConfig s = everyList({"ring", "direct4", "halvingDoubling"});
    followPlatformEdit(s, three, platform({kRing8, kSwitch4}));
    EXPECT_EQ(names(s.allReduce), "ring, halvingDoubling");
    SystemConfig moved = everyList({"ring", "direct4", "halvingDoubling"});
    followPlatformEdit(moved, three, platform({kSwitch4, kRing8, kFc4}));
    EXPECT_EQ(names(moved.allReduce), "halvingDoubling, ring, direct4");
    // Undoing the insertion (the editor's undo applies the old platform) restores the list.
    SystemConfig undo = everyList({"ring"});
    followPlatformEdit(undo, platform({kRing8}), platform({kRing8, kSwitch4}));
    followPlatformEdit(undo, platform({kRing8, kSwitch4}), platform({kRing8}));
    EXPECT_EQ(names(undo.allReduce), "ring");
}

TEST(AlgorithmLists, AShorterListStaysShortAndEditsKeepPositions) {
    // [ring] over two dimensions leaves the Switch out on purpose: a third one dropped at the end
    // stays out too; one dropped first is covered, so the ring keeps its place in the plan.
    const PlatformSpec two = platform({kRing8, kSwitch4});
    SystemConfig atEnd = everyList({"ring"});
    followPlatformEdit(atEnd, two, platform({kRing8, kSwitch4, kFc4}));
    EXPECT_EQ(names(atEnd.allReduce), "ring");
    SystemConfig first = everyList({"ring"});
    followPlatformEdit(first, two, platform({kFc4, kRing8, kSwitch4}));
    EXPECT_EQ(names(first.allReduce), "direct, ring");
    // A dimension's size edited: the lists do not move.
    SystemConfig edited = everyList({"direct", "ring"});
    followPlatformEdit(edited, two, platform({block(BlockKind::Ring, 16), kSwitch4}));
    EXPECT_EQ(names(edited.allReduce), "direct, ring");
    // A one* algorithm spans the dimensions after it: nothing is added, only cut to fit.
    SystemConfig flat = everyList({"oneRing"});
    followPlatformEdit(flat, platform({kRing8}), two);
    EXPECT_EQ(names(flat.allReduce), "oneRing");
    // An empty list (custom collectives) stays empty.
    SystemConfig custom;
    custom.customAllReduce = "tacos";
    followPlatformEdit(custom, platform({kRing8}), two);
    EXPECT_TRUE(custom.allReduce.empty());
}
