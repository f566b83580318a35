// The schedule check (ScheduleCheck.h) itself: it must fail a schedule that is wrong in the way
// the synthesizer's own bookkeeping could not see.
#include "engine/tacos/ScheduleCheck.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace astrolabe;

TEST(Tacos, TheCheckCountsContributionsSoThatOneReducedTwiceFails) {
    // A correct reduce-scatter on a 4-NPU ring, then its last send into a chunk's owner once
    // more, after the end: the owner holds that send's contributions twice. As sets of
    // contributors (bits OR-ed together) the two schedules would look the same.
    GraphSpec ring;
    ring.npus = 4;
    for (int i = 0; i < 4; ++i)
        ring.links.push_back({i, (i + 1) % 4, 50e9, 500, false, 0});
    SynthesisOptions o;
    o.kind = SynthesisKind::ReduceScatter;
    Schedule s = synthesize(ring, o);
    ASSERT_EQ(scheduleProblem(s), "");
    const auto last = std::find_if(s.sends.rbegin(), s.sends.rend(), [&](const ChunkSend& c) {
        return s.links[size_t(c.link)].dst == s.ownerOf(c.chunk);
    });
    ASSERT_NE(last, s.sends.rend());
    ChunkSend again = *last;
    again.startNs = s.finishNs + 1000;
    again.endNs = again.startNs + (last->endNs - last->startNs);
    s.sends.push_back(again);
    EXPECT_NE(scheduleProblem(s).find("exactly once"), std::string::npos) << scheduleProblem(s);
}
