#include "core/SimTime.h"

#include "core/Error.h"

#include <gtest/gtest.h>

using astrolabe::Error;
using astrolabe::SimTime;

TEST(SimTime, NamedConstructorsAgree) {
    EXPECT_EQ(SimTime::fromNs(1).ps(), 1000);
    EXPECT_EQ(SimTime::fromUs(1), SimTime::fromNs(1000));
    EXPECT_EQ(SimTime::fromMs(1), SimTime::fromUs(1000));
    EXPECT_EQ(SimTime::fromNsRounded(936.25).ps(), 936250);
    EXPECT_EQ(SimTime::fromPsRounded(0.5).ps(), 1);
}

TEST(SimTime, NanosecondFloorMatchesAstraCycles) {
    EXPECT_EQ(SimTime::fromPs(1999).nsFloor(), 1);
    EXPECT_EQ(SimTime::fromPs(2000).nsFloor(), 2);
    EXPECT_EQ(SimTime::fromPs(-1).nsFloor(), -1);
}

TEST(SimTime, ArithmeticAndOrdering) {
    const SimTime a = SimTime::fromNs(5), b = SimTime::fromNs(3);
    EXPECT_EQ((a + b).ps(), 8000);
    EXPECT_EQ((a - b).ps(), 2000);
    EXPECT_EQ((a * 3).ps(), 15000);
    EXPECT_LT(b, a);
    EXPECT_DOUBLE_EQ(SimTime::fromUs(3).ms(), 0.003);
}

TEST(SimTime, OverflowThrowsInsteadOfWrapping) {
    EXPECT_THROW(SimTime::max() + SimTime::fromPs(1), Error);
    EXPECT_THROW(SimTime::fromPs(INT64_MIN) - SimTime::fromPs(1), Error);
    EXPECT_THROW(SimTime::fromMs(INT64_MAX / 10), Error);
    EXPECT_THROW(SimTime::fromNsRounded(1e300), Error);
}
