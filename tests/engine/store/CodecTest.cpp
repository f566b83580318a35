#include "core/Error.h"
#include "store/ByteCodec.h"
#include "store/Sha256.h"
#include "store/SpanCodec.h"
#include "store/TimelineCodec.h"
#include "support/SyntheticRun.h"

#include <gtest/gtest.h>
#include <numeric>

using namespace astrolabe;

TEST(Sha256, FipsTestVectors) {
    EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    Sha256 million;
    const std::string chunk(1000, 'a');
    for (int i = 0; i < 1000; ++i) // split updates exercise the partial-block path
        million.update(chunk.substr(0, 1)), million.update(chunk.substr(1));
    EXPECT_EQ(million.hexDigest(),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(ByteCodec, VarintsAndZigzagRoundTripAtTheExtremes) {
    ByteWriter w;
    const std::vector<uint64_t> u{0, 1, 127, 128, 300, UINT32_MAX, UINT64_MAX};
    const std::vector<int64_t> s{0, -1, 1, -64, 64, INT64_MIN, INT64_MAX};
    for (uint64_t v : u)
        w.varint(v);
    for (int64_t v : s)
        w.zigzag(v);
    w.text("héllo");
    EXPECT_EQ(w.size() > 0, true);
    ByteReader r(w.view());
    for (uint64_t v : u)
        EXPECT_EQ(r.varint(), v);
    for (int64_t v : s)
        EXPECT_EQ(r.zigzag(), v);
    EXPECT_EQ(r.text(), "héllo");
    EXPECT_TRUE(r.atEnd());
    EXPECT_THROW(r.varint(), Error);
    // A one-byte varint for small values: the point of the encoding.
    ByteWriter small;
    small.varint(100);
    small.zigzag(-3);
    EXPECT_EQ(small.size(), 2u);
}

TEST(ByteCodec, ZlibRoundTripAndCorruptionIsAnError) {
    const std::string raw(10000, 'x');
    const std::string packed = zlibCompress(raw);
    EXPECT_LT(packed.size(), 200u);
    EXPECT_EQ(zlibDecompress(packed, raw.size()), raw);
    EXPECT_THROW(zlibDecompress(packed.substr(0, packed.size() / 2), raw.size()), Error);
}

TEST(TimelineCodec, ChunkRoundTripKeepsEveryField) {
    test::SyntheticRunShape shape;
    shape.overlappingComm = true;
    RunResult r = test::makeSyntheticRun(shape);
    r.activities[3].nodeId = UINT64_MAX - 5; // big jumps in the delta columns
    r.activities[4].bytes = UINT64_MAX;
    std::vector<uint32_t> order(r.activities.size());
    std::iota(order.begin(), order.end(), 0u);
    IntervalPacker packer;
    packer.pack(r.activities, order.data(), 3); // reused buffers must not leak into the next chunk
    const PackedBlob packed = packer.pack(r.activities, order.data(), order.size());
    EXPECT_LT(packed.rawSize, r.activities.size() * 16); // far below sizeof(ActivityInterval) = 48
    const std::string raw = zlibDecompress(packed.data, packed.rawSize);
    std::vector<ActivityInterval> back;
    decodeIntervals(raw, SimTime::fromPs(INT64_MIN), SimTime::max(), {}, back);
    ASSERT_EQ(back.size(), r.activities.size());
    for (size_t i = 0; i < back.size(); ++i) {
        const ActivityInterval &a = r.activities[i], &b = back[i];
        EXPECT_EQ(a.start, b.start);
        EXPECT_EQ(a.end, b.end);
        EXPECT_EQ(a.npu, b.npu);
        EXPECT_EQ(a.kind, b.kind);
        EXPECT_EQ(a.nodeType, b.nodeType);
        EXPECT_EQ(a.nodeId, b.nodeId);
        EXPECT_EQ(a.nameIndex, b.nameIndex);
        EXPECT_EQ(a.bytes, b.bytes);
    }
}

TEST(SpanCodec, CollectivesAndPhasesRoundTrip) {
    const RunResult r = test::makeSyntheticRun();
    const PackedBlob c = packCollectives(r.collectives);
    const auto collectives = decodeCollectives(zlibDecompress(c.data, c.rawSize));
    ASSERT_EQ(collectives.size(), r.collectives.size());
    for (size_t i = 0; i < collectives.size(); ++i) {
        EXPECT_EQ(collectives[i].start, r.collectives[i].start);
        EXPECT_EQ(collectives[i].end, r.collectives[i].end);
        EXPECT_EQ(collectives[i].nodeId, r.collectives[i].nodeId);
        EXPECT_EQ(collectives[i].chunks, r.collectives[i].chunks);
    }
    const PackedBlob p = packPhases(r.phases);
    const auto phases = decodePhases(zlibDecompress(p.data, p.rawSize));
    ASSERT_EQ(phases.size(), r.phases.size());
    for (size_t i = 0; i < phases.size(); ++i) {
        EXPECT_EQ(phases[i].start, r.phases[i].start);
        EXPECT_EQ(phases[i].dimension, r.phases[i].dimension);
        EXPECT_EQ(phases[i].inputBytes, r.phases[i].inputBytes);
    }
}

TEST(TimelineCodec, LayoutHasAboutAThousandIntervalsPerChunk) {
    const TimelineLayout big = chooseTimelineLayout(4096, SimTime::fromMs(10), 10'000'000);
    EXPECT_EQ(big.buckets, 512);
    const int groups = (4096 + big.npusPerGroup - 1) / big.npusPerGroup;
    const double perChunk = 10e6 / (512.0 * groups);
    EXPECT_GT(perChunk, 500);
    EXPECT_LT(perChunk, 2000);
    EXPECT_EQ(big.bucketOf(SimTime::fromMs(10)), 511); // the end time is inside the last bucket
    const TimelineLayout tiny = chooseTimelineLayout(8, SimTime::fromNs(5000), 40);
    EXPECT_EQ(tiny.npusPerGroup, 8);
}
