// The opt-in record of collective messages (RunOptions::recordTransfers) that the "Watch a
// collective" animation replays. Each test states the algorithm's closed-form structure first
// and checks the record against it, independently of the engine's own bookkeeping.
#include "engine/golden/GoldenSpec.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace golden;
using CT = CollectiveType;

namespace {

constexpr int64_t E = 10;                           // endpoint delay, ns
constexpr double kLatencyNs = 500.0;                // link latency
constexpr double kBeta = 50.0 * 1073741824.0 / 1e9; // link bytes per ns (ASTRA-sim GB = 2^30 B)
constexpr double kLocalBytesPerNs = 50.0;           // local-mem-bw 50 GB/s

int64_t ns(SimTime t) {
    return t.ps() / 1000;
}
/// One message over one link, congestion-unaware: floor(latency + bytes / bandwidth) ns.
int64_t messageNs(uint64_t bytes) {
    return static_cast<int64_t>(std::floor(kLatencyNs + static_cast<double>(bytes) / kBeta));
}
/// A reduction: one write and two reads of the buffer, R(x) = 3 floor(x / L).
int64_t reductionNs(uint64_t bytes) {
    return 3 * static_cast<int64_t>(std::floor(static_cast<double>(bytes) / kLocalBytesPerNs));
}

std::shared_ptr<const RunResult> recorded(SimulationSpec s, CT type, uint64_t bytes) {
    s.options.recordTransfers = true;
    return runCollective(s, type, bytes);
}

/// The transfers each NPU sent, in send order.
std::map<int, std::vector<ChunkTransfer>> bySender(const RunResult& r) {
    std::map<int, std::vector<ChunkTransfer>> out;
    for (const ChunkTransfer& t : r.transfers)
        out[t.src].push_back(t);
    return out;
}

} // namespace

// Ring all-reduce of S bytes on N NPUs, one chunk: 2(N-1) steps; in each, every NPU sends S/N
// bytes to the same ring neighbour; the receiver reduces in the first N-1 (reduce-scatter) and
// keeps in the last N-1 (all-gather). Steps follow each other on every NPU:
//   start(0) = E, start(k+1) = end(k) + E + (k < N-1 ? R(S/N) : 0),
// and the collective ends E after the last arrival, so
//   end time = (2N-1) E + (N-1) R(S/N) + 2(N-1) (latency + S/N / bandwidth).
TEST(TransferRecord, RingAllReduceHasTheClosedFormSteps) {
    const uint64_t S = kMiB;
    for (int n : {4, 8, 16}) {
        const auto r = recorded(spec({dim(BlockKind::Ring, n)}, "ring"), CT::AllReduce, S);
        ASSERT_EQ(r->transfers.size(), static_cast<size_t>(n * 2 * (n - 1))) << n;
        const uint64_t m = S / static_cast<uint64_t>(n);
        std::set<int> shifts;
        for (const auto& [src, sent] : bySender(*r)) {
            ASSERT_EQ(sent.size(), static_cast<size_t>(2 * (n - 1))) << n;
            int64_t expectedStart = E;
            for (size_t k = 0; k < sent.size(); ++k) {
                const ChunkTransfer& t = sent[k];
                EXPECT_EQ(t.step, static_cast<int>(k));
                shifts.insert((t.dst - t.src + n) % n);
                EXPECT_EQ(t.bytes, m);
                EXPECT_EQ(t.reduce, static_cast<int>(k) < n - 1) << n << " step " << k;
                EXPECT_EQ(t.dimension, 0);
                EXPECT_EQ(ns(t.start), expectedStart) << n << " npu " << src << " step " << k;
                EXPECT_EQ(ns(t.end) - ns(t.start), messageNs(m));
                expectedStart = ns(t.end) + E + (t.reduce ? reductionNs(m) : 0);
            }
        }
        // One ring direction for everyone: each NPU always sends to the same neighbour.
        ASSERT_EQ(shifts.size(), 1u) << n;
        EXPECT_TRUE(*shifts.begin() == 1 || *shifts.begin() == n - 1);
        const int64_t closedForm =
            (2 * n - 1) * E + (n - 1) * reductionNs(m) + 2 * (n - 1) * messageNs(m);
        EXPECT_EQ(ns(r->endTime), closedForm) << n;
    }
}

// Direct all-reduce on a fully connected block: every NPU sends S/N to each of its N-1 peers
// twice, once to be reduced (reduce-scatter), once to be kept (all-gather): 2(N-1) messages.
TEST(TransferRecord, DirectAllReduceSendsTwiceToEveryPeer) {
    const uint64_t S = kMiB;
    for (int n : {4, 8}) {
        const auto r =
            recorded(spec({dim(BlockKind::FullyConnected, n)}, "direct"), CT::AllReduce, S);
        ASSERT_EQ(r->transfers.size(), static_cast<size_t>(n * 2 * (n - 1))) << n;
        for (const auto& [src, sent] : bySender(*r)) {
            std::map<int, int> reduced, kept;
            for (const ChunkTransfer& t : sent) {
                EXPECT_NE(t.dst, src);
                EXPECT_EQ(t.bytes, S / static_cast<uint64_t>(n));
                ++(t.reduce ? reduced : kept)[t.dst];
            }
            EXPECT_EQ(reduced.size(), static_cast<size_t>(n - 1));
            EXPECT_EQ(kept.size(), static_cast<size_t>(n - 1));
            for (const auto& [dst, count] : reduced)
                EXPECT_EQ(count, 1) << dst;
            // The all-gather half waits for the reduce-scatter half to be received.
            const SimTime lastReduced =
                std::max_element(sent.begin(), sent.begin() + (n - 1), [](auto& a, auto& b) {
                    return a.end < b.end;
                })->end;
            for (size_t k = static_cast<size_t>(n - 1); k < sent.size(); ++k)
                EXPECT_GE(sent[k].start, lastReduced);
        }
    }
}

// Halving-doubling all-reduce on N = 2^L NPUs: 2L steps. Step k < L (halving, reduced) goes to
// npu XOR 2^k with S / 2^(k+1) bytes; step L + j (doubling, kept) to npu XOR 2^(L-1-j) with
// S / 2^(L-j) bytes.
TEST(TransferRecord, HalvingDoublingAllReduceHasLog2Steps) {
    const uint64_t S = kMiB;
    for (int L : {2, 3, 4}) {
        const int n = 1 << L;
        const auto r =
            recorded(spec({dim(BlockKind::Switch, n)}, "halvingDoubling"), CT::AllReduce, S);
        ASSERT_EQ(r->transfers.size(), static_cast<size_t>(n * 2 * L)) << n;
        for (const auto& [src, sent] : bySender(*r)) {
            ASSERT_EQ(sent.size(), static_cast<size_t>(2 * L));
            for (int k = 0; k < 2 * L; ++k) {
                const ChunkTransfer& t = sent[static_cast<size_t>(k)];
                const bool halving = k < L;
                const int distance = halving ? 1 << k : 1 << (2 * L - 1 - k);
                const uint64_t bytes = halving ? S >> (k + 1) : S >> (2 * L - k);
                EXPECT_EQ(t.dst, src ^ distance) << n << " step " << k;
                EXPECT_EQ(t.bytes, bytes) << n << " step " << k;
                EXPECT_EQ(t.reduce, halving);
            }
        }
    }
}

// Double binary tree: every NPU but the root sends once up (the parent reduces) and receives
// once down (it keeps it): 2(N-1) messages per tree, each down message after the matching up.
TEST(TransferRecord, DoubleBinaryTreeGoesUpThenDown) {
    const int n = 8;
    const auto r =
        recorded(spec({dim(BlockKind::Switch, n)}, "doubleBinaryTree"), CT::AllReduce, kMiB);
    std::map<int, std::vector<ChunkTransfer>> byChunk;
    for (const ChunkTransfer& t : r->transfers)
        byChunk[t.chunk].push_back(t);
    ASSERT_FALSE(byChunk.empty());
    for (const auto& [chunk, list] : byChunk) {
        ASSERT_EQ(list.size(), static_cast<size_t>(2 * (n - 1))) << chunk;
        std::map<std::pair<int, int>, SimTime> upArrival;
        for (const ChunkTransfer& t : list)
            if (t.reduce)
                upArrival[{t.src, t.dst}] = t.end;
        EXPECT_EQ(upArrival.size(), static_cast<size_t>(n - 1));
        for (const ChunkTransfer& t : list) {
            if (t.reduce)
                continue;
            const auto up = upArrival.find({t.dst, t.src});
            ASSERT_NE(up, upArrival.end()) << t.src << "->" << t.dst;
            EXPECT_GE(t.start, up->second);
        }
    }
}

// A 4x4 torus all-reduce: every message crosses exactly the dimension it is recorded on.
TEST(TransferRecord, MultiDimensionalMessagesStayInTheirDimension) {
    const auto r = recorded(spec({dim(BlockKind::Ring, 4), dim(BlockKind::Ring, 4)}, "ring"),
                            CT::AllReduce, kMiB);
    ASSERT_FALSE(r->transfers.empty());
    std::set<int> dims;
    for (const ChunkTransfer& t : r->transfers) {
        const bool x = t.src % 4 != t.dst % 4;
        const bool y = t.src / 4 != t.dst / 4;
        ASSERT_NE(x, y) << t.src << "->" << t.dst;
        EXPECT_EQ(t.dimension, x ? 0 : 1);
        EXPECT_LE(t.end, r->endTime);
        dims.insert(t.dimension);
    }
    EXPECT_EQ(dims.size(), 2u);
}

// Recording is opt-in and changes nothing: off, no transfers; on, the same end time as the
// default (symmetric) run.
TEST(TransferRecord, OffByDefaultAndTimingUnchanged) {
    const SimulationSpec s = spec({dim(BlockKind::Ring, 8)}, "ring");
    const auto plain = runCollective(s, CT::AllReduce, kMiB);
    EXPECT_TRUE(plain->transfers.empty());
    const auto withLog = recorded(s, CT::AllReduce, kMiB);
    EXPECT_FALSE(withLog->transfers.empty());
    EXPECT_EQ(plain->endTime, withLog->endTime);
}

// In-switch all-reduce of S bytes on a Switch of N NPUs (docs/in-network-collectives.md): each
// NPU sends its S bytes up once, E after the start, and gets the S-byte sum back once. The
// switch sends the result down when the last member's input has arrived, so every down message
// starts at the latest up arrival, and the run ends E after the last down arrival. Up messages
// are reduced by the switch; down ones are kept.
TEST(TransferRecord, InSwitchAllReduceGoesUpToTheSwitchAndDown) {
    const uint64_t S = kMiB;
    for (int n : {4, 8}) {
        const auto r = recorded(spec({dim(BlockKind::Switch, n)}, "inSwitch"), CT::AllReduce, S);
        ASSERT_EQ(r->transfers.size(), static_cast<size_t>(2 * n)) << n;
        std::set<int> up, down;
        int64_t lastUp = 0, lastDown = 0;
        for (const ChunkTransfer& t : r->transfers)
            if (t.dst == ChunkTransfer::kSwitch) {
                up.insert(t.src);
                EXPECT_TRUE(t.reduce);
                EXPECT_EQ(ns(t.start), E);
                lastUp = std::max(lastUp, t.end.ps());
            }
        for (const ChunkTransfer& t : r->transfers)
            if (t.src == ChunkTransfer::kSwitch) {
                down.insert(t.dst);
                EXPECT_FALSE(t.reduce);
                EXPECT_EQ(t.start.ps(), lastUp);
                EXPECT_GT(t.end.ps(), t.start.ps());
                lastDown = std::max(lastDown, t.end.ps());
            }
        for (const ChunkTransfer& t : r->transfers) {
            EXPECT_EQ(t.bytes, S);
            EXPECT_EQ(t.dimension, 0);
        }
        EXPECT_EQ(up.size(), static_cast<size_t>(n));
        EXPECT_EQ(down.size(), static_cast<size_t>(n));
        EXPECT_EQ(r->endTime.ps(), lastDown + E * 1000) << n;
    }
}
