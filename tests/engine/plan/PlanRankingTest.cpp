// The ranking's shortcuts change no figure: rankConfigurations ranks placements whose groups
// land on the same dimensions with the same hops once (PlanEstimate.h: placementKey), builds a
// shape's profile only once one of its candidates fits, and spreads the shapes over threads. Every
// ranked candidate's estimate must be, to the bit, the one evaluateCandidate computes for it alone,
// and the ranking the same on any number of threads.
#include "engine/golden/GoldenSpec.h"
#include "plan/Planner.h"
#include "support/SmallGpt.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace astrolabe;
using namespace astrolabe::plan;

namespace {

/// The label without the rank order: candidates that differ only in placement share it.
std::string withoutPlacement(const Candidate& c) {
    Candidate unplaced = c;
    unplaced.placement = 0;
    return candidateLabel(unplaced);
}

} // namespace

TEST(PlanRanking, EveryEstimateIsTheCandidatesOwnOnAnyNumberOfThreads) {
    // The small GPT with 4 layers and fused attention (cp 2-8) on 16 NPUs of a 4-NPU ring (hops
    // depend on the stride) times 4 switches, with a per-NPU memory tier (offload x 2).
    PlanRequest request{test::smallGpt(), 16};
    request.base.model.layers = 4;
    request.base.training.globalBatch = 32;
    request.base.training.flashAttention = true;
    RemoteMemoryConfig tier;
    tier.type = RemoteMemoryType::PerNpuMemoryExpansion;
    tier.bandwidthBytesPerNs = 10;
    offloadTierOf(request, tier);
    const SimulationSpec s = golden::spec(
        {golden::dim(BlockKind::Ring, 4, 300, 1000), golden::dim(BlockKind::Switch, 4, 25, 2000)});
    const NetworkCosts network(s.platform, s.system);
    request.threads = 1;
    const PlanResult one = rankConfigurations(request, network);
    request.threads = 3;
    const PlanResult three = rankConfigurations(request, network);
    ASSERT_TRUE(one.unsatisfiable.empty()) << one.unsatisfiable;
    ASSERT_GT(one.ranked.size(), 1000u);
    ASSERT_EQ(one.ranked.size(), three.ranked.size());
    EXPECT_EQ(one.enumerated, three.enumerated);
    EXPECT_EQ(one.rejectedForMemory, three.rejectedForMemory);
    EXPECT_EQ(candidateLabel(one.leastMemory.candidate),
              candidateLabel(three.leastMemory.candidate));
    int withCp = 0, offloaded = 0, walked = 0, closed = 0;
    uint64_t twins = 0;
    // Per (shape, ZeRO, offload): the distinct estimates of its placements.
    std::map<std::string, std::set<double>> placed;
    std::map<std::string, int> placements;
    for (size_t i = 0; i < one.ranked.size(); ++i) {
        const RankedCandidate& r = one.ranked[i];
        const std::string label = candidateLabel(r.candidate);
        EXPECT_EQ(label, candidateLabel(three.ranked[i].candidate)) << "rank " << i;
        EXPECT_EQ(r.seconds(), three.ranked[i].seconds()) << label;
        // The best kWalkedCandidates by the closed forms are walked, the rest not.
        EXPECT_EQ(r.pipeline, three.ranked[i].pipeline) << label;
        const RankedCandidate alone = evaluateCandidate(request, network, r.candidate, r.pipeline);
        EXPECT_EQ(alone.estimate.compute, r.estimate.compute) << label;
        EXPECT_EQ(alone.estimate.communication, r.estimate.communication) << label;
        EXPECT_EQ(alone.estimate.bubble, r.estimate.bubble) << label;
        EXPECT_EQ(alone.estimate.tail, r.estimate.tail) << label;
        EXPECT_EQ(alone.memoryBytes, r.memoryBytes) << label;
        withCp += r.candidate.cp > 1;
        walked += r.candidate.pp > 1 && r.pipeline == PipelineModel::Walk;
        closed += r.candidate.pp > 1 && r.pipeline == PipelineModel::ClosedForm;
        offloaded += r.candidate.offloadOptimizer;
        placed[withoutPlacement(r.candidate)].insert(r.seconds());
        ++placements[withoutPlacement(r.candidate)];
        // Its twins, ranked as it: each estimated alone gives its estimate, to the bit.
        for (uint8_t p = 0; p < placementNames().size(); ++p) {
            if (!(r.twinPlacements & (1u << p)))
                continue;
            ASSERT_NE(p, r.candidate.placement) << label;
            Candidate twin = r.candidate;
            twin.placement = p;
            const RankedCandidate t = evaluateCandidate(request, network, twin, r.pipeline);
            EXPECT_EQ(t.seconds(), r.seconds()) << label << " and " << placementNames()[p];
            ++twins;
        }
    }
    EXPECT_EQ(twins, one.twins);
    EXPECT_EQ(one.ranked.size() + one.rejectedForMemory + one.twins, one.enumerated);
    EXPECT_GT(withCp, 100);
    EXPECT_GT(offloaded, 100);
    EXPECT_GT(walked, 100); // pipelines among the best kWalkedCandidates
    EXPECT_GT(closed, 100); // and beyond them
    // Both kinds occur: twins ranked once, and placements whose estimates differ.
    int differing = 0;
    for (const auto& [label, estimates] : placed)
        differing += estimates.size() > 1;
    EXPECT_GT(twins, 10u);
    EXPECT_GT(differing, 10);
}

TEST(PlanRanking, TwinPlacementsAreRankedOnceOnOneSwitch) {
    // 8 NPUs on one switch: every group is one hop on dimension 0 whatever its stride, so the
    // orders of tp 2 x dp 4 (tp,dp,pp and dp,tp,pp) are twins, ranked once as Megatron's. On a
    // ring of 4 times a switch of 2 they are not: tp 2 innermost is 1 hop of the ring, outermost
    // it crosses the switch.
    PlanRequest request{test::smallGpt(), 8};
    request.base.training.globalBatch = 16;
    request.threads = 1;
    auto count = [&](const SimulationSpec& s, const std::string& unplaced) {
        const NetworkCosts network(s.platform, s.system);
        const PlanResult r = rankConfigurations(request, network);
        EXPECT_EQ(r.ranked.size() + r.rejectedForMemory + r.twins, r.enumerated);
        std::vector<const RankedCandidate*> found;
        for (const RankedCandidate& c : r.ranked)
            if (withoutPlacement(c.candidate) == unplaced)
                found.push_back(&c);
        return found;
    };
    Candidate c;
    c.tp = 2;
    c.dp = 4;
    c.microBatch = 4;
    c.microBatches = 1;
    const std::string label = withoutPlacement(c);
    const auto oneSwitch =
        count(golden::spec({golden::dim(BlockKind::Switch, 8, 300, 1000)}), label);
    ASSERT_EQ(oneSwitch.size(), 1u) << label;
    EXPECT_EQ(placementNames()[oneSwitch[0]->candidate.placement], "tp,dp,pp");
    EXPECT_EQ(twinPlacementsText(*oneSwitch[0]), "dp,tp,pp");
    const auto twoDims = count(golden::spec({golden::dim(BlockKind::Ring, 4, 300, 1000),
                                             golden::dim(BlockKind::Switch, 2, 25, 2000)}),
                               label);
    ASSERT_EQ(twoDims.size(), 2u) << label;
    for (const RankedCandidate* r : twoDims)
        EXPECT_EQ(r->twinPlacements, 0) << candidateLabel(r->candidate);
}

// The groups the estimate (and the congestion-unaware model) times on one dimension although
// their members span more: on 4 x 4 NPUs, tp 4 stays inside a node of 4 and dp 4 crosses nodes
// at its own stride (timed on dimension 1: not folded); dp 16 (tp 1) is timed on dimension 0,
// where its members are nearest, and reaches dimension 1 (folded).
TEST(PlanRanking, FoldedGroupsAreThoseTimedBelowTheDimensionsTheySpan) {
    const SimulationSpec s = golden::spec({golden::dim(BlockKind::Switch, 4, 300, 1000),
                                           golden::dim(BlockKind::Switch, 4, 25, 2000)});
    const NetworkCosts network(s.platform, s.system);
    PlanRequest request{test::smallGpt(), 16};
    request.base.training.globalBatch = 32;
    Candidate c;
    c.tp = 4;
    c.dp = 4;
    c.microBatch = 1;
    c.microBatches = 8;
    EXPECT_TRUE(foldedGroups(candidateSpec(request, c), network).empty());
    c.tp = 1;
    c.dp = 16;
    c.microBatches = 2;
    const std::vector<FoldedGroup> folded = foldedGroups(candidateSpec(request, c), network);
    ASSERT_EQ(folded.size(), 1u);
    EXPECT_EQ(folded[0].kind, generate::GroupKind::Dp);
    EXPECT_EQ(folded[0].members, 16);
    EXPECT_EQ(folded[0].timedOn, 0);
    EXPECT_EQ(folded[0].reaches, 1);
    // On one switch of 16 nothing can fold.
    const SimulationSpec one = golden::spec({golden::dim(BlockKind::Switch, 16, 300, 1000)});
    EXPECT_TRUE(
        foldedGroups(candidateSpec(request, c), NetworkCosts(one.platform, one.system)).empty());
}
