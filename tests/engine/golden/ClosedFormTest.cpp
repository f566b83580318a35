// Spec §9.2 closed forms for one chunk, n in {2, 4, 8, 16, 64}, every algorithm. The expected
// value is computed here from the formula, independently of the engine.
#include "engine/golden/GoldenSpec.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace golden;
using CT = CollectiveType;

namespace {

constexpr int64_t E = 10;
constexpr double kLatency = 500.0;
constexpr double kBeta = 50.0 * 1073741824.0 / 1e9; // bytes per ns
constexpr double kL = 50.0;                         // local-mem-bw, bytes per ns

// D(x) = floor(h * latency + x / beta) with h = 1 (ring neighbours, fully connected).
int64_t D(uint64_t x) {
    return static_cast<int64_t>(std::floor(kLatency + x / kBeta));
}
int64_t R(uint64_t x) {
    return 3 * static_cast<int64_t>(std::floor(x / (kL * 1e9) * 1e9));
}

int64_t simulate(BlockKind kind, int n, const char* algorithm, CT type, uint64_t bytes) {
    const auto r = runCollective(spec({dim(kind, n)}, algorithm), type, bytes);
    return maxCycles(*r);
}

const int kSizes[] = {2, 4, 8, 16, 64};
constexpr uint64_t C = kMiB;

} // namespace

TEST(ClosedForm, Ring) {
    for (int n : kSizes) {
        const uint64_t m = C / n;
        EXPECT_EQ(simulate(BlockKind::Ring, n, "ring", CT::AllReduce, C),
                  E + (n - 1) * (2 * D(m) + 2 * E + R(m)))
            << n;
        EXPECT_EQ(simulate(BlockKind::Ring, n, "ring", CT::ReduceScatter, C),
                  E + (n - 1) * (D(m) + E + R(m)))
            << n;
        EXPECT_EQ(simulate(BlockKind::Ring, n, "ring", CT::AllGather, C), E + (n - 1) * (D(C) + E))
            << n;
        EXPECT_EQ(simulate(BlockKind::Ring, n, "ring", CT::AllToAll, C),
                  E + int64_t(n) * (n - 1) / 2 * (D(m) + E))
            << n;
    }
}

TEST(ClosedForm, Direct) {
    for (int n : kSizes) {
        const uint64_t m = C / n;
        const auto fc = BlockKind::FullyConnected;
        EXPECT_EQ(simulate(fc, n, "direct", CT::AllReduce, C), 3 * E + 2 * D(m) + R(m)) << n;
        EXPECT_EQ(simulate(fc, n, "direct", CT::ReduceScatter, C), 2 * E + D(m) + R(m)) << n;
        EXPECT_EQ(simulate(fc, n, "direct", CT::AllGather, C), 2 * E + D(C)) << n;
        EXPECT_EQ(simulate(fc, n, "direct", CT::AllToAll, C), 2 * E + D(m)) << n;
    }
}

TEST(ClosedForm, HalvingDoubling) {
    for (int n : kSizes) {
        const int L = static_cast<int>(std::log2(n));
        int64_t ar = E, rs = E, ag = E;
        for (int k = 1; k <= L; ++k) {
            ar += D(C >> k) + E;           // halving half: C/2^k
            ar += D(C >> (L + 1 - k)) + E; // doubling half: C/2^(L+1-j)
            rs += D(C >> k) + E;
            ag += D(C << (k - 1)) + E;
        }
        for (int k = 2; k <= L; ++k) {
            ar += R(C >> k);
            rs += R(C >> k);
        }
        const auto fc = BlockKind::FullyConnected;
        EXPECT_EQ(simulate(fc, n, "halvingDoubling", CT::AllReduce, C), ar) << n;
        EXPECT_EQ(simulate(fc, n, "halvingDoubling", CT::ReduceScatter, C), rs) << n;
        EXPECT_EQ(simulate(fc, n, "halvingDoubling", CT::AllGather, C), ag) << n;
    }
}

TEST(ClosedForm, DoubleBinaryTree) {
    for (int n : kSizes) {
        const int h = static_cast<int>(std::log2(n));
        const int64_t X = D(C) + E + R(C);
        const auto r = runCollective(spec({dim(BlockKind::FullyConnected, n)}, "doubleBinaryTree"),
                                     CT::AllReduce, C);
        // RootMax tree: the top root is the last rank; leaves are the even ranks below it.
        EXPECT_EQ(cycles(*r, n - 1), E + h * X) << n;
        EXPECT_EQ(cycles(*r, 0), 2 * E + (2 * h - 1) * X + D(C)) << n;
        if (n >= 4) { // rank n/2 - 1 is the root of the inner tree, at depth 1
            EXPECT_EQ(cycles(*r, n / 2 - 1), E + (h + 1) * X) << n;
        }
    }
}

TEST(ClosedForm, ActiveChunksMultiplyUnderUnaware) {
    // total = ceil(s / a) * T_chunk (spec §9.3).
    for (int a : {1, 2, 4}) {
        auto s = spec({dim(BlockKind::Ring, 8)});
        s.system.preferredDatasetSplits = 8;
        s.system.activeChunksPerDimension = a;
        const uint64_t chunk = C / 8, m = chunk / 8;
        const int64_t t = E + 7 * (2 * D(m) + 2 * E + R(m));
        EXPECT_EQ(maxCycles(*runCollective(s, CT::AllReduce, C)), (8 + a - 1) / a * t) << a;
    }
}
