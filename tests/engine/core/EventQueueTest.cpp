#include "core/EventQueue.h"

#include <gtest/gtest.h>
#include <map>
#include <random>
#include <utility>
#include <vector>

using astrolabe::EventQueue;
using astrolabe::SimTime;

namespace {

void drain(EventQueue& q) {
    SimTime at;
    EventQueue::Callback cb;
    while (q.pop(at, cb))
        cb();
}

} // namespace

TEST(EventQueue, EqualTimesRunInInsertionOrder) {
    EventQueue q;
    std::vector<int> order;
    for (int i = 0; i < 100; ++i)
        q.schedule(SimTime::fromNs(7), [&order, i] { order.push_back(i); });
    drain(q);
    ASSERT_EQ(order.size(), 100u);
    for (int i = 0; i < 100; ++i)
        EXPECT_EQ(order[i], i);
}

TEST(EventQueue, OrdersByTimeThenSequence) {
    EventQueue q;
    std::vector<int> order;
    q.schedule(SimTime::fromNs(3), [&] { order.push_back(3); });
    q.schedule(SimTime::fromNs(1), [&] { order.push_back(1); });
    q.schedule(SimTime::fromNs(2), [&] { order.push_back(2); });
    q.schedule(SimTime::fromNs(1), [&] { order.push_back(10); });
    drain(q);
    EXPECT_EQ(order, (std::vector<int>{1, 10, 2, 3}));
}

TEST(EventQueue, CancelByHandle) {
    EventQueue q;
    std::vector<int> order;
    auto a = q.schedule(SimTime::fromNs(1), [&] { order.push_back(1); });
    auto b = q.schedule(SimTime::fromNs(2), [&] { order.push_back(2); });
    EXPECT_EQ(q.size(), 2u);
    EXPECT_TRUE(q.cancel(a));
    EXPECT_FALSE(q.cancel(a)) << "a second cancel is a no-op";
    EXPECT_EQ(q.size(), 1u);
    EXPECT_EQ(q.nextTime(), SimTime::fromNs(2));
    drain(q);
    EXPECT_EQ(order, std::vector<int>{2});
    EXPECT_FALSE(q.cancel(b)) << "an event that ran cannot be cancelled";
}

TEST(EventQueue, StaleHandleNeverCancelsAReusedSlot) {
    EventQueue q;
    auto a = q.schedule(SimTime::fromNs(1), [] {});
    SimTime at;
    EventQueue::Callback cb;
    ASSERT_TRUE(q.pop(at, cb));
    bool ran = false;
    q.schedule(SimTime::fromNs(2), [&] { ran = true; }); // reuses a's slot
    EXPECT_FALSE(q.cancel(a));
    drain(q);
    EXPECT_TRUE(ran);
}

TEST(EventQueue, DeterministicUnderRandomSchedulingAndCancellation) {
    auto runOnce = [] {
        EventQueue q;
        std::mt19937_64 rng(42);
        std::vector<int> order;
        std::vector<EventQueue::Handle> handles;
        for (int i = 0; i < 5000; ++i) {
            handles.push_back(q.schedule(SimTime::fromNs(static_cast<int64_t>(rng() % 100)),
                                         [&order, i] { order.push_back(i); }));
            if (i % 7 == 0)
                q.cancel(handles[rng() % handles.size()]);
        }
        drain(q);
        return order;
    };
    const std::vector<int> first = runOnce();
    EXPECT_GT(first.size(), 4000u);
    EXPECT_EQ(first, runOnce());
}

TEST(EventQueue, PopsInTimeThenInsertionOrderAgainstASortedModel) {
    // Interleaved schedules, pops and cancellations, times spread over 40 bits of picoseconds
    // and clustered on a few values (equal times), some before the last popped time (the
    // Simulator never does that; the queue must still order them): the pops must come out as a
    // map keyed by (time, insertion number) says.
    EventQueue q;
    std::mt19937_64 rng(7);
    std::map<std::pair<int64_t, int>, int> model; // (time, insertion) -> id
    std::vector<std::pair<EventQueue::Handle, std::pair<int64_t, int>>> handles;
    int popped = 0, next = 0;
    int64_t lastPopped = 0;
    for (int step = 0; step < 60000; ++step) {
        const uint64_t r = rng();
        if (r % 10 < 6) {
            int64_t t = r % 3 == 0 ? lastPopped + static_cast<int64_t>(rng() % 4)
                                   : static_cast<int64_t>(rng() >> 24);
            if (r % 97 == 0)
                t = lastPopped - static_cast<int64_t>(rng() % 1000) - 1; // before the last pop
            const int id = next++;
            handles.push_back({q.schedule(SimTime::fromPs(t), [] {}), {t, id}});
            model[{t, id}] = id;
        } else if (r % 10 < 7 && !handles.empty()) {
            const auto& [handle, key] = handles[rng() % handles.size()];
            EXPECT_EQ(q.cancel(handle), model.erase(key) == 1);
        } else {
            SimTime at;
            EventQueue::Callback cb;
            ASSERT_EQ(q.pop(at, cb), !model.empty());
            if (model.empty())
                continue;
            EXPECT_EQ(at.ps(), model.begin()->first.first) << "pop " << popped;
            lastPopped = at.ps();
            model.erase(model.begin());
            ++popped;
        }
        ASSERT_EQ(q.size(), model.size());
    }
    EXPECT_GT(popped, 10000);
}

TEST(EventQueue, EqualTimesStayFirstInFirstOutAcrossBuckets) {
    // Events at one time scheduled before and after the queue has moved towards it keep their
    // insertion order.
    EventQueue q;
    std::vector<int> order;
    q.schedule(SimTime::fromNs(1), [&] { order.push_back(0); });
    q.schedule(SimTime::fromNs(1000), [&] { order.push_back(1); });
    SimTime at;
    EventQueue::Callback cb;
    ASSERT_TRUE(q.pop(at, cb));
    cb();
    q.schedule(SimTime::fromNs(1000), [&] { order.push_back(2); });
    q.schedule(SimTime::fromNs(999), [&] { order.push_back(3); });
    q.schedule(SimTime::fromNs(1000), [&] { order.push_back(4); });
    drain(q);
    EXPECT_EQ(order, (std::vector<int>{0, 3, 1, 2, 4}));
}
