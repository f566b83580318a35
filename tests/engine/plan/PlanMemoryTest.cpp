// The planner refuses exactly the configurations the generator's own memory check refuses
// (generate::computeFigures(spec).outOfMemory), over whole grids: the two read one accounting
// (generate/StageMemory.h), and the planner's per-shape reuse of one program must not change it.
#include "engine/golden/GoldenSpec.h"
#include "generate/ModelFigures.h"
#include "generate/ModelPresets.h"
#include "plan/Planner.h"
#include "support/SmallGpt.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

using namespace astrolabe;
using namespace astrolabe::plan;

namespace {

SimulationSpec platform(int inner, int outer) {
    return golden::spec({golden::dim(BlockKind::Switch, inner, 300, 1000),
                         golden::dim(BlockKind::Switch, outer, 25, 2000)});
}

std::string key(const Candidate& c) {
    return candidateLabel(c);
}

struct Agreement {
    int fits = 0, refused = 0, disagreements = 0;
};

/// Every (shape, ZeRO stage) of the space, at its first placement: the planner's verdict (ranked
/// or refused) against computeFigures' outOfMemory.
Agreement compare(const PlanRequest& request, const PlanResult& result) {
    std::set<std::string> ranked;
    for (const RankedCandidate& r : result.ranked)
        ranked.insert(key(r.candidate));
    Agreement a;
    for (const Shape& s : enumerateSpace(request).shapes)
        for (int zero = 0; zero < zeroStagesOf(s); ++zero) {
            const Candidate c{s.tp,
                              s.pp,
                              s.dp,
                              s.ep,
                              s.virtualStages,
                              s.microBatch,
                              s.microBatches,
                              int8_t(zero),
                              s.sequenceParallel,
                              s.recompute,
                              placementsOf(s).front()};
            const bool generatorRefuses =
                generate::computeFigures(candidateSpec(request, c)).outOfMemory;
            const bool plannerRanks = ranked.count(key(c)) > 0;
            (generatorRefuses ? a.refused : a.fits)++;
            if (generatorRefuses == plannerRanks) {
                ++a.disagreements;
                ADD_FAILURE() << candidateLabel(c) << ": generator "
                              << (generatorRefuses ? "refuses" : "accepts") << ", planner "
                              << (plannerRanks ? "ranks" : "refuses");
            }
        }
    return a;
}

} // namespace

TEST(PlanMemory, SmallGptAgreesWithTheGeneratorOnEveryCandidate) {
    PlanRequest request{test::smallGpt(), 8};
    request.base.training.globalBatch = 16;
    const SimulationSpec s = platform(4, 2);
    const NetworkCosts network(s.platform, s.system);
    // HBM at the median candidate's memory, so that about half fit.
    request.base.compute.hbmCapacityGiB = 1e6;
    PlanResult all = rankConfigurations(request, network);
    ASSERT_FALSE(all.ranked.empty()) << all.unsatisfiable;
    std::vector<double> bytes;
    for (const RankedCandidate& r : all.ranked)
        bytes.push_back(r.memoryBytes);
    std::nth_element(bytes.begin(), bytes.begin() + std::ptrdiff_t(bytes.size() / 2), bytes.end());
    request.base.compute.hbmCapacityGiB = bytes[bytes.size() / 2] / double(1ull << 30);
    const PlanResult half = rankConfigurations(request, network);
    const Agreement a = compare(request, half);
    EXPECT_GT(a.fits, 20);
    EXPECT_GT(a.refused, 20);
    EXPECT_EQ(a.disagreements, 0);
    EXPECT_EQ(half.rejectedForMemory + half.ranked.size(), half.enumerated);
}

TEST(PlanMemory, Gpt3On64A100sAgreesWithTheGenerator) {
    // GPT-3 175B, 64 GPUs of 80 GiB, batch 128: the small splits cannot hold 175 B parameters'
    // states, the large ones can.
    PlanRequest request{generate::presetSpec("gpt3-175b"), 64};
    request.base.training.globalBatch = 128;
    request.base.compute.hbmCapacityGiB = 80;
    const SimulationSpec s = platform(8, 8);
    const PlanResult result = rankConfigurations(request, NetworkCosts(s.platform, s.system));
    const Agreement a = compare(request, result);
    EXPECT_GT(a.fits, 10);
    EXPECT_GT(a.refused, 10);
    EXPECT_EQ(a.disagreements, 0);
}

TEST(PlanMemory, AModelThatFitsNowhereNamesItsLargestTerm) {
    // GPT-3 175B on 8 GPUs of 80 GiB: whatever the split or ZeRO stage, the 175 B parameters'
    // 16 bytes of states each (2.8 TB) spread over 8 GPUs are 350 GB per GPU.
    PlanRequest request{generate::presetSpec("gpt3-175b"), 8};
    request.base.training.globalBatch = 8;
    request.base.compute.hbmCapacityGiB = 80;
    const SimulationSpec one = golden::spec({golden::dim(BlockKind::Switch, 8, 300, 1000)});
    const PlanResult result = rankConfigurations(request, NetworkCosts(one.platform, one.system));
    EXPECT_TRUE(result.ranked.empty());
    EXPECT_NE(result.unsatisfiable.find("fits no configuration of 8 GPUs"), std::string::npos)
        << result.unsatisfiable;
    EXPECT_NE(result.unsatisfiable.find("largest term is"), std::string::npos);
}
