// Rank placement, communicator groups and pipeline orders.
#include "generate/PipelineOrder.h"
#include "generate/RankLayout.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>
#include <tuple>

namespace astrolabe::generate {
namespace {

ParallelSpec parallel(int tp, int dp, int pp, int ep = 1, std::string placement = "tp,dp,pp") {
    ParallelSpec p;
    p.tp = tp;
    p.dp = dp;
    p.pp = pp;
    p.ep = ep;
    p.placement = std::move(placement);
    return p;
}

TEST(RankLayout, DefaultPlacementIsTpInnermost) {
    const RankLayout layout(parallel(2, 3, 4));
    for (int pp = 0; pp < 4; ++pp)
        for (int dp = 0; dp < 3; ++dp)
            for (int tp = 0; tp < 2; ++tp) {
                const int r = tp + 2 * (dp + 3 * pp);
                EXPECT_EQ(layout.rank({tp, dp, pp}), r);
                const RankCoordinates c = layout.coordinates(r);
                EXPECT_EQ(std::tie(c.tp, c.dp, c.pp), std::tie(tp, dp, pp));
            }
}

// TP2 DP2 PP2: TP {0,1} {2,3} {4,5} {6,7} = ids 1-4; PP {0,4} {1,5} {2,6} {3,7} = 5-8;
// DP {0,2} {1,3} {4,6} {5,7} = 9-12; stage-DP {0..3} {4..7} = 13-14 (EP and expert-DP with
// ep = 1 repeat the DP lists and keep their ids); the embedding groups (first and last stage)
// repeat the PP lists when pp = 2.
TEST(RankLayout, GroupsAreNumberedByKindThenLowestRank) {
    const RankLayout layout(parallel(2, 2, 2));
    const CommGroups& g = layout.groups();
    EXPECT_EQ(g.size(), 14u);
    EXPECT_EQ(g.at(1), (std::vector<int>{0, 1}));
    EXPECT_EQ(g.at(4), (std::vector<int>{6, 7}));
    EXPECT_EQ(g.at(5), (std::vector<int>{0, 4}));
    EXPECT_EQ(g.at(8), (std::vector<int>{3, 7}));
    EXPECT_EQ(g.at(9), (std::vector<int>{0, 2}));
    EXPECT_EQ(g.at(12), (std::vector<int>{5, 7}));
    EXPECT_EQ(g.at(13), (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(layout.groupId(GroupKind::Dp, 5), 12);
    EXPECT_EQ(layout.groupId(GroupKind::ExpertDp, 5), 14); // tp x dp / ep, as stage-DP here
    EXPECT_EQ(layout.groupId(GroupKind::Tp, 6), 4);
}

TEST(RankLayout, PlacementCanPutPipelineInnermost) {
    const RankLayout layout(parallel(2, 2, 4, 1, "pp,tp,dp"));
    EXPECT_EQ(layout.rank({1, 0, 0}), 4);
    EXPECT_EQ(layout.rank({0, 1, 0}), 8);
    EXPECT_EQ(layout.rank({0, 0, 3}), 3);
    EXPECT_EQ(layout.groups().at(layout.groupId(GroupKind::Pp, 0)), (std::vector<int>{0, 1, 2, 3}));
}

// EP 2 inside DP 4 (TP 2): the ep group of (tp 0, dp 1) is dp {0,1} -> ranks {0, 2}; its
// expert-DP group is every rank of the stage with dp odd: tp {0,1} x dp {1,3} -> {2, 3, 6, 7}.
TEST(RankLayout, ExpertGroupsAreCarvedOutOfDp) {
    const RankLayout layout(parallel(2, 4, 1, 2));
    EXPECT_EQ(layout.groups().at(layout.groupId(GroupKind::Ep, 2)), (std::vector<int>{0, 2}));
    EXPECT_EQ(layout.groups().at(layout.groupId(GroupKind::ExpertDp, 2)),
              (std::vector<int>{2, 3, 6, 7}));
    EXPECT_EQ(layout.groupSize(GroupKind::ExpertDp), 4);
}

// GPT-3 split on a 3-D platform of 8 x 16 x 8 NPUs: tp (stride 1, 8) fills dim 0; dp (stride 8,
// 16) fills dim 1; pp (stride 128, 8) fills dim 2. On 4 x 32 x 8, tp spans dims 0-1 and dp
// (offsets 8..127) spans dim 1 only.
TEST(RankLayout, PlacementSummaryNamesTheDimensions) {
    EXPECT_EQ(placementSummary(parallel(8, 16, 8), {8, 16, 8}),
              "tp 8: dim 0; dp 16: dim 1; pp 8: dim 2");
    EXPECT_EQ(placementSummary(parallel(8, 16, 8), {4, 32, 8}),
              "tp 8: dims 0-1; dp 16: dim 1; pp 8: dim 2");
    EXPECT_EQ(placementSummary(parallel(8, 16, 8, 4), {8, 16, 8}),
              "tp 8: dim 0; ep 4: dim 1; dp 16: dim 1; pp 8: dim 2");
    EXPECT_EQ(placementSummary(parallel(8, 16, 8), {}), "");
}

// Tied embeddings: (tp 1, dp 2) on stage 0 is rank 1 + 2 * 2 = 5; on the last of 4 stages
// 5 + 3 * (2 * 3) = 23. Middle stages belong to no embedding group.
TEST(RankLayout, EmbeddingGroupJoinsFirstAndLastStage) {
    const RankLayout layout(parallel(2, 3, 4));
    EXPECT_EQ(layout.groups().at(layout.groupId(GroupKind::Embedding, 5)),
              (std::vector<int>{5, 23}));
    EXPECT_EQ(layout.groupId(GroupKind::Embedding, 23), layout.groupId(GroupKind::Embedding, 5));
    EXPECT_EQ(layout.groupSize(GroupKind::Embedding), 2);
}

void expectComplete(const std::vector<PipelineOp>& order, int m, int v) {
    std::set<std::tuple<bool, int, int>> seen;
    std::set<std::pair<int, int>> forwardDone;
    for (const PipelineOp& op : order) {
        EXPECT_TRUE(seen.insert({op.forward, op.microBatch, op.chunk}).second);
        if (op.forward) {
            forwardDone.insert({op.microBatch, op.chunk});
        } else {
            EXPECT_TRUE(forwardDone.count({op.microBatch, op.chunk})) << "backward before forward";
        }
    }
    EXPECT_EQ(seen.size(), size_t(2 * m * v));
}

TEST(PipelineOrder, OneFOneBWarmsUpPMinusSMinusOne) {
    const int p = 4, m = 8;
    for (int s = 0; s < p; ++s) {
        const auto order = pipelineOrder(PipelineSchedule::OneFOneB, p, 1, m, s);
        expectComplete(order, m, 1);
        int warmup = 0;
        while (order[size_t(warmup)].forward)
            ++warmup;
        EXPECT_EQ(warmup, p - s); // p - s - 1 warm-up forwards, then the first steady forward
        EXPECT_EQ(peakInFlightChunks(PipelineSchedule::OneFOneB, p, 1, m, s), p - s);
    }
    EXPECT_EQ(peakInFlightChunks(PipelineSchedule::GPipe, p, 1, m, 0), m);
}

// Interleaved, p 4, v 2, m 8: stage 0 warms up (p-1)*2 + (v-1)*p = 10 chunk forwards; the first
// forwards visit micro-batches 0..3 on chunk 0, then 0..3 on chunk 1, then 4..7 on chunk 0.
TEST(PipelineOrder, InterleavedFollowsMegatron) {
    const int p = 4, v = 2, m = 8;
    const auto order = pipelineOrder(PipelineSchedule::Interleaved, p, v, m, 0);
    expectComplete(order, m, v);
    EXPECT_EQ(order[4].chunk, 1);
    EXPECT_EQ(order[4].microBatch, 0);
    EXPECT_EQ(order[8].chunk, 0);
    EXPECT_EQ(order[8].microBatch, 4);
    EXPECT_FALSE(order[11].forward); // 10 warm-up + 1 steady forward, then the first backward
    EXPECT_EQ(order[11].chunk, 1);
    EXPECT_EQ(peakInFlightChunks(PipelineSchedule::Interleaved, p, v, m, 0), 11);
    EXPECT_DOUBLE_EQ(pipelineBubbleFraction(PipelineSchedule::Interleaved, p, v, m),
                     3.0 / (16 + 3));
    EXPECT_DOUBLE_EQ(pipelineBubbleFraction(PipelineSchedule::OneFOneB, p, 1, m), 3.0 / 11);
}

} // namespace
} // namespace astrolabe::generate

namespace astrolabe::generate {

// The memory figures' peaks are closed forms (O(1), what the planner evaluates ~10^5 times);
// they must equal the peaks of the orders the trace follows, on a grid of p, v, m and stages.
TEST(PipelineOrder, ClosedFormPeaksEqualTheWalkedOrders) {
    for (PipelineSchedule schedule :
         {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved})
        for (int p = 1; p <= 6; ++p)
            for (int v = 1; v <= 3; ++v) {
                const bool interleaved = schedule == PipelineSchedule::Interleaved;
                if (interleaved ? v < 2 || p < 2 : v != 1)
                    continue;
                for (int m = 1; m <= 13; ++m) {
                    if (interleaved && m % p != 0)
                        continue;
                    for (int s = 0; s < p; ++s) {
                        int live = 0, peak = 0, lastLive = 0, lastPeak = 0;
                        for (const PipelineOp& op : pipelineOrder(schedule, p, v, m, s)) {
                            live += op.forward ? 1 : -1;
                            peak = std::max(peak, live);
                            if (op.chunk == v - 1) {
                                lastLive += op.forward ? 1 : -1;
                                lastPeak = std::max(lastPeak, lastLive);
                            }
                        }
                        EXPECT_EQ(peakInFlightChunks(schedule, p, v, m, s), peak)
                            << pipelineScheduleName(schedule) << " p" << p << " v" << v << " m" << m
                            << " s" << s;
                        if (s == p - 1) {
                            EXPECT_EQ(peakLastChunkInFlight(schedule, p, v, m), lastPeak)
                                << pipelineScheduleName(schedule) << " p" << p << " v" << v << " m"
                                << m;
                        }
                    }
                }
            }
}

} // namespace astrolabe::generate
