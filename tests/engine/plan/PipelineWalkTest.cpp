// The pipeline walk (engine/plan/PipelineWalk.h) against the schedules' closed forms.
#include "plan/PipelineWalk.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::plan;
using generate::PipelineSchedule;

namespace {

/// p stages of v chunks each, every chunk pass forward f and backward b seconds, no collective.
PipelineStages uniform(int p, int v, double f, double b) {
    ChunkPasses c;
    c.forward = f;
    c.backward = b;
    c.forwardLead = f;
    c.backwardLead = b;
    return PipelineStages(size_t(p), std::vector<ChunkPasses>(size_t(v), c));
}

} // namespace

TEST(PipelineWalk, WithoutMessagesIsTheTextbookSchedule) {
    // 1F1B, p stages, m micro-batches, a micro-batch's forward f and backward b on each stage:
    // the first stage ends its last backward after (m + p - 1) (f + b) (Narayanan et al. 2021,
    // bubble (p - 1) (f + b)). Interleaved with v chunks of f / v and b / v: the bubble shrinks
    // v times, m (f + b) + (p - 1) (f + b) / v. GPipe: (m + p - 1) (f + b) as well.
    const double f = 1.0, b = 2.0;
    for (const auto& [p, m] :
         {std::pair{2, 4}, std::pair{4, 8}, std::pair{8, 16}, std::pair{4, 4}}) {
        PipelineWalkOptions o;
        o.microBatches = m;
        EXPECT_NEAR(walkPipeline(uniform(p, 1, f, b), o), (m + p - 1) * (f + b), 1e-9)
            << "1F1B p " << p << " m " << m;
        o.schedule = PipelineSchedule::GPipe;
        EXPECT_NEAR(walkPipeline(uniform(p, 1, f, b), o), (m + p - 1) * (f + b), 1e-9)
            << "GPipe p " << p << " m " << m;
        o.schedule = PipelineSchedule::Interleaved;
        for (int v : {2, 3, 4}) {
            const double expected = m * (f + b) + double(p - 1) * (f + b) / v;
            EXPECT_NEAR(walkPipeline(uniform(p, v, f / v, b / v), o), expected, 1e-9)
                << "interleaved p " << p << " v " << v << " m " << m;
        }
    }
}

TEST(PipelineWalk, OneFOneBRunsAtTheLoopsPaceWithMessages) {
    // 1F1B with a boundary message delta between neighbouring stages, no collective in the
    // passes, equal stages (tau = f + b): the first stage holds p micro-batches in flight, so in
    // the steady state it takes one micro-batch per max(tau, (p tau + 2 (p - 1) delta) / p), the
    // loop through the pipeline and back shared by those p. The walk's makespan grows by exactly
    // that per micro-batch, and lies between the first micro-batch's way through the pipeline
    // and back after m tau of work, (m + p - 1) tau + 2 (p - 1) delta, and the loop's closed form
    // m period + (p - 1) tau + 2 (p - 1) delta (which charges the fill and drain their messages
    // on top of a full period for every micro-batch).
    const double f = 1.0, b = 2.0, tau = f + b;
    for (int p : {2, 4, 8})
        for (double delta : {0.1, 0.5, 2.0}) {
            PipelineWalkOptions o;
            o.delta = delta;
            auto walk = [&](int m) {
                o.microBatches = m;
                return walkPipeline(uniform(p, 1, f, b), o);
            };
            const double period = std::max(tau, (p * tau + 2.0 * (p - 1) * delta) / p);
            EXPECT_NEAR((walk(16) - walk(8)) / 8, period, 1e-9) << "p " << p << " delta " << delta;
            const int m = 8;
            EXPECT_GE(walk(m), (m + p - 1) * tau + 2.0 * (p - 1) * delta - 1e-9);
            EXPECT_LE(walk(m), m * period + (p - 1) * tau + 2.0 * (p - 1) * delta + 1e-9);
        }
}

TEST(PipelineWalk, ASendHoldsTheSlotTheNextPassesCollectivesNeed) {
    // Messages of delta between stages. When each pass's first collective comes `lead` into the
    // pass, a send hides behind that much compute: with lead >= delta the passes run as if the
    // sends held nothing; with lead 0 (a pass that starts with a collective, as with sequence
    // parallelism) a pass that starts while its stage's send is in flight is late by the rest
    // of it. Interleaved, p 2, v 2, m 4: the walk is later with lead 0, never earlier.
    const int p = 2, v = 2, m = 4;
    const double f = 1.0, b = 2.0, delta = 0.25;
    PipelineWalkOptions o;
    o.schedule = PipelineSchedule::Interleaved;
    o.microBatches = m;
    o.delta = o.wrapDelta = delta;
    const PipelineStages free = uniform(p, v, f, b);
    PipelineStages late = free, hidden = free;
    for (size_t s = 0; s < free.size(); ++s)
        for (size_t c = 0; c < free[s].size(); ++c) {
            late[s][c].forwardLead = late[s][c].backwardLead = 0;
            hidden[s][c].forwardLead = hidden[s][c].backwardLead = delta;
        }
    EXPECT_NEAR(walkPipeline(hidden, o), walkPipeline(free, o), 1e-9);
    EXPECT_GT(walkPipeline(late, o), walkPipeline(free, o) + delta);
    // Without messages the lead changes nothing.
    o.delta = o.wrapDelta = 0;
    EXPECT_NEAR(walkPipeline(late, o), (m + double(p - 1) / v) * v * (f + b), 1e-9);
}
