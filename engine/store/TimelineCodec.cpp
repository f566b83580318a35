#include "store/TimelineCodec.h"

#include "core/Error.h"
#include "store/ByteCodec.h"

#include <algorithm>

namespace astrolabe {

int TimelineLayout::bucketOf(SimTime t) const {
    const int64_t b = t.ps() / bucketWidth.ps();
    return static_cast<int>(std::clamp<int64_t>(b, 0, buckets - 1));
}

TimelineLayout chooseTimelineLayout(int npuCount, SimTime endTime, size_t intervals) {
    constexpr int kBuckets = 512;
    constexpr size_t kTargetPerChunk = 1000;
    TimelineLayout layout;
    layout.buckets = kBuckets;
    layout.bucketWidth =
        SimTime::fromPs(std::max<int64_t>(1, (endTime.ps() + kBuckets) / kBuckets));
    const size_t groups = std::clamp<size_t>(intervals / (kBuckets * kTargetPerChunk), 1,
                                             static_cast<size_t>(std::max(1, npuCount)));
    layout.npusPerGroup =
        static_cast<int>((static_cast<size_t>(std::max(1, npuCount)) + groups - 1) / groups);
    return layout;
}

PackedBlob IntervalPacker::pack(const std::vector<ActivityInterval>& activities,
                                const uint32_t* order, size_t count) {
    ByteWriter &npu = m_npu, &start = m_start, &duration = m_duration, &kind = m_kind,
               &node = m_node, &name = m_name, &bytes = m_bytes;
    for (ByteWriter* column : {&npu, &start, &duration, &kind, &node, &name, &bytes})
        column->clear();
    int32_t prevNpu = 0;
    int64_t prevStart = 0;
    int64_t prevNode = 0;
    for (size_t i = 0; i < count; ++i) {
        const ActivityInterval& a = activities[order[i]];
        npu.zigzag(static_cast<int64_t>(a.npu) - prevNpu);
        start.zigzag(a.start.ps() - prevStart);
        duration.zigzag((a.end - a.start).ps());
        kind.byte(static_cast<uint8_t>(static_cast<uint8_t>(a.kind) << 4 |
                                       static_cast<uint8_t>(a.nodeType)));
        node.zigzag(static_cast<int64_t>(a.nodeId) - prevNode);
        name.varint(a.nameIndex);
        bytes.varint(a.bytes);
        prevNpu = a.npu;
        prevStart = a.start.ps();
        prevNode = static_cast<int64_t>(a.nodeId);
    }
    return packColumns(count, {&npu, &start, &duration, &kind, &node, &name, &bytes});
}

void decodeIntervals(std::string_view raw, SimTime t0, SimTime t1, const std::vector<bool>& npuMask,
                     std::vector<ActivityInterval>& out) {
    ByteReader in(raw);
    constexpr size_t kColumns = 7; // each interval has at least a byte in each column
    std::vector<ActivityInterval> chunk(in.count(kColumns));
    int64_t value = 0;
    for (ActivityInterval& a : chunk)
        a.npu = static_cast<int32_t>(value = wrappingAdd(value, in.zigzag()));
    value = 0;
    for (ActivityInterval& a : chunk)
        a.start = SimTime::fromPs(value = wrappingAdd(value, in.zigzag()));
    for (ActivityInterval& a : chunk)
        a.end = SimTime::fromPs(wrappingAdd(a.start.ps(), in.zigzag()));
    for (ActivityInterval& a : chunk) {
        const uint8_t b = in.byte();
        if ((b >> 4) > static_cast<int>(ActivityKind::Other) ||
            (b & 15) > static_cast<int>(NodeType::CommColl))
            throw Error(ErrorKind::Input, "corrupt timeline blob in the project database");
        a.kind = static_cast<ActivityKind>(b >> 4);
        a.nodeType = static_cast<NodeType>(b & 15);
    }
    value = 0;
    for (ActivityInterval& a : chunk)
        a.nodeId = static_cast<uint64_t>(value = wrappingAdd(value, in.zigzag()));
    for (ActivityInterval& a : chunk)
        a.nameIndex = static_cast<uint32_t>(in.varint());
    for (ActivityInterval& a : chunk)
        a.bytes = in.varint();
    for (const ActivityInterval& a : chunk) {
        const bool overlaps = a.start < t1 && (a.end > t0 || (a.end == a.start && a.start >= t0));
        const bool wanted =
            npuMask.empty() || (a.npu >= 0 && static_cast<size_t>(a.npu) < npuMask.size() &&
                                npuMask[static_cast<size_t>(a.npu)]);
        if (overlaps && wanted)
            out.push_back(a);
    }
}

} // namespace astrolabe
