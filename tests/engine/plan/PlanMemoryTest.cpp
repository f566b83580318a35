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
    int withCp = 0, selective = 0, offloaded = 0; ///< candidates compared on the new axes
};

/// HBM set to the median ranked candidate's memory (with unlimited HBM first), so that about
/// half of the space fits; 0 when nothing ranks.
void setHbmAtTheMedianCandidate(PlanRequest& request, const NetworkCosts& network) {
    request.base.compute.hbmCapacityGiB = 1e6;
    const PlanResult all = rankConfigurations(request, network);
    std::vector<double> bytes;
    for (const RankedCandidate& r : all.ranked)
        bytes.push_back(r.memoryBytes);
    if (bytes.empty()) {
        request.base.compute.hbmCapacityGiB = 0;
        return;
    }
    std::nth_element(bytes.begin(), bytes.begin() + std::ptrdiff_t(bytes.size() / 2), bytes.end());
    request.base.compute.hbmCapacityGiB = bytes[bytes.size() / 2] / double(1ull << 30);
}

/// Every (shape, ZeRO stage, offload) of the space, at its first placement: the planner's
/// verdict (ranked or refused) against computeFigures' outOfMemory.
Agreement compare(const PlanRequest& request, const PlanResult& result) {
    std::set<std::string> ranked;
    for (const RankedCandidate& r : result.ranked)
        ranked.insert(key(r.candidate));
    Agreement a;
    for (const Shape& s : enumerateSpace(request).shapes)
        for (int z = 0; z < zeroStagesOf(s) * offloadChoicesOf(request); ++z) {
            const Candidate c =
                candidateOf(s, z % zeroStagesOf(s), placementsOf(s).front(), z >= zeroStagesOf(s));
            a.withCp += c.cp > 1;
            a.selective += c.selectiveRecompute;
            a.offloaded += c.offloadOptimizer;
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
    setHbmAtTheMedianCandidate(request, network); // so that about half fit
    ASSERT_GT(request.base.compute.hbmCapacityGiB, 0);
    const PlanResult half = rankConfigurations(request, network);
    const Agreement a = compare(request, half);
    EXPECT_GT(a.fits, 20);
    EXPECT_GT(a.refused, 20);
    EXPECT_EQ(a.disagreements, 0);
    EXPECT_EQ(half.rejectedForMemory + half.ranked.size() + half.twins, half.enumerated);
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

TEST(PlanMemory, ContextParallelismAndOffloadAgreeWithTheGenerator) {
    // The small GPT with fused attention (cp 2, 4 and 8 legal: s 16) on 8 GPUs, with a per-NPU
    // remote tier (the optimizer states kept or offloaded), HBM at the median candidate's
    // memory: the planner and computeFigures agree on every candidate, cp and offload included.
    PlanRequest request{test::smallGpt(), 8};
    request.base.training.globalBatch = 16;
    request.base.training.flashAttention = true;
    RemoteMemoryConfig tier;
    tier.type = RemoteMemoryType::PerNpuMemoryExpansion;
    tier.bandwidthBytesPerNs = 10;
    offloadTierOf(request, tier);
    ASSERT_EQ(request.offloadTier, generate::OffloadTier::Nvme);
    EXPECT_DOUBLE_EQ(request.offloadBytesPerSecond, 10e9);
    const SimulationSpec s = platform(4, 2);
    const NetworkCosts network(s.platform, s.system);
    setHbmAtTheMedianCandidate(request, network); // so that about half fit
    ASSERT_GT(request.base.compute.hbmCapacityGiB, 0);
    const PlanResult half = rankConfigurations(request, network);
    const Agreement a = compare(request, half);
    EXPECT_GT(a.fits, 20);
    EXPECT_GT(a.refused, 20);
    EXPECT_GT(a.withCp, 20);
    EXPECT_GT(a.offloaded, 20);
    EXPECT_EQ(a.disagreements, 0);
    EXPECT_EQ(half.rejectedForMemory + half.ranked.size() + half.twins, half.enumerated);
    // The unfused small GPT of the first test compares selective recomputation too.
    PlanRequest unfused{test::smallGpt(), 8};
    unfused.base.training.globalBatch = 16;
    unfused.base.compute.hbmCapacityGiB = request.base.compute.hbmCapacityGiB;
    const Agreement b = compare(unfused, rankConfigurations(unfused, network));
    EXPECT_GT(b.selective, 20);
    EXPECT_EQ(b.disagreements, 0);
}

TEST(PlanMemory, OffloadingTheOptimizerStatesCostsTheirTrafficThroughTheTier) {
    // t1 p1 d8 ZeRO 0 of the small GPT: offloaded, the optimizer states (12 bytes per parameter,
    // fp16 training) leave HBM, and the optimizer step of the tail becomes their load and store
    // through 1 GB/s, the step (28 bytes per parameter at HBM speed) running beside it.
    PlanRequest request{test::smallGpt(), 8};
    request.base.training.globalBatch = 16;
    RemoteMemoryConfig tier;
    tier.type = RemoteMemoryType::PerNpuMemoryExpansion;
    tier.bandwidthBytesPerNs = 1;
    offloadTierOf(request, tier);
    const SimulationSpec s = platform(4, 2);
    const NetworkCosts network(s.platform, s.system);
    Candidate kept;
    kept.dp = 8;
    kept.microBatches = 2;
    Candidate offloaded = kept;
    offloaded.offloadOptimizer = true;
    const RankedCandidate a = evaluateCandidate(request, network, kept);
    const RankedCandidate b = evaluateCandidate(request, network, offloaded);
    const generate::ModelFigures f = generate::computeFigures(candidateSpec(request, kept));
    const double optimizer = f.memory.optimizer;
    EXPECT_GT(optimizer, 0);
    EXPECT_NEAR(a.memoryBytes - b.memoryBytes, optimizer, 1e-6 * optimizer);
    const generate::ComputeSpec& c = request.base.compute;
    const double step = optimizer / 12 * 28 / (c.hbmGBps * 1e9 * c.efficiency);
    EXPECT_NEAR(b.estimate.tail - a.estimate.tail, 2 * optimizer / 1e9 - step, 1e-9);
    EXPECT_DOUBLE_EQ(b.estimate.compute, a.estimate.compute);
    // Through a tier faster than the step, the traffic hides under the step.
    tier.bandwidthBytesPerNs = 1000000;
    offloadTierOf(request, tier);
    EXPECT_DOUBLE_EQ(evaluateCandidate(request, network, offloaded).estimate.tail, a.estimate.tail);
    // Without a tier (no remote memory), no offload axis.
    offloadTierOf(request, RemoteMemoryConfig{});
    EXPECT_EQ(offloadChoicesOf(request), 1);
}
