#include "store/SpanCodec.h"

#include "store/ByteCodec.h"

namespace astrolabe {
namespace {

/// Signed delta coding of one column: each value minus the previous one.
struct Delta {
    int64_t previous = 0;
    int64_t next(int64_t v) {
        const int64_t d =
            static_cast<int64_t>(static_cast<uint64_t>(v) - static_cast<uint64_t>(previous));
        previous = v;
        return d;
    }
    int64_t undo(int64_t d) {
        previous = static_cast<int64_t>(static_cast<uint64_t>(previous) + static_cast<uint64_t>(d));
        return previous;
    }
};

} // namespace

PackedBlob packCollectives(const std::vector<CollectiveSpan>& spans) {
    ByteWriter npu, start, duration, node, type, size, chunks, group;
    Delta dNpu, dStart, dNode;
    for (const CollectiveSpan& c : spans) {
        npu.zigzag(dNpu.next(c.npu));
        start.zigzag(dStart.next(c.start.ps()));
        duration.zigzag((c.end - c.start).ps());
        node.zigzag(dNode.next(static_cast<int64_t>(c.nodeId)));
        type.byte(static_cast<uint8_t>(c.type));
        size.varint(c.sizeBytes);
        chunks.zigzag(c.chunks);
        group.zigzag(c.commGroup);
    }
    return packColumns(spans.size(),
                       {&npu, &start, &duration, &node, &type, &size, &chunks, &group});
}

std::vector<CollectiveSpan> decodeCollectives(std::string_view raw) {
    ByteReader in(raw);
    std::vector<CollectiveSpan> spans(in.count(8)); // at least a byte in each of 8 columns
    Delta dNpu, dStart, dNode;
    for (CollectiveSpan& c : spans)
        c.npu = static_cast<int32_t>(dNpu.undo(in.zigzag()));
    for (CollectiveSpan& c : spans)
        c.start = SimTime::fromPs(dStart.undo(in.zigzag()));
    for (CollectiveSpan& c : spans)
        c.end = SimTime::fromPs(wrappingAdd(c.start.ps(), in.zigzag()));
    for (CollectiveSpan& c : spans)
        c.nodeId = static_cast<uint64_t>(dNode.undo(in.zigzag()));
    for (CollectiveSpan& c : spans)
        c.type = static_cast<CollectiveType>(
            in.below(static_cast<uint8_t>(static_cast<int>(CollectiveType::Barrier) + 1)));
    for (CollectiveSpan& c : spans)
        c.sizeBytes = in.varint();
    for (CollectiveSpan& c : spans)
        c.chunks = static_cast<int32_t>(in.zigzag());
    for (CollectiveSpan& c : spans)
        c.commGroup = static_cast<int32_t>(in.zigzag());
    return spans;
}

PackedBlob packPhases(const std::vector<PhaseSpan>& spans) {
    ByteWriter npu, start, duration, node, chunk, phase, dimension, kind, algorithm, bytes;
    Delta dNpu, dStart, dNode;
    for (const PhaseSpan& p : spans) {
        npu.zigzag(dNpu.next(p.npu));
        start.zigzag(dStart.next(p.start.ps()));
        duration.zigzag((p.end - p.start).ps());
        node.zigzag(dNode.next(static_cast<int64_t>(p.nodeId)));
        chunk.zigzag(p.chunk);
        phase.zigzag(p.phase);
        dimension.zigzag(p.dimension);
        kind.byte(p.phaseKind);
        algorithm.byte(p.algorithm);
        bytes.varint(p.inputBytes);
    }
    return packColumns(spans.size(), {&npu, &start, &duration, &node, &chunk, &phase, &dimension,
                                      &kind, &algorithm, &bytes});
}

std::vector<PhaseSpan> decodePhases(std::string_view raw) {
    ByteReader in(raw);
    std::vector<PhaseSpan> spans(in.count(10)); // at least a byte in each of 10 columns
    Delta dNpu, dStart, dNode;
    for (PhaseSpan& p : spans)
        p.npu = static_cast<int32_t>(dNpu.undo(in.zigzag()));
    for (PhaseSpan& p : spans)
        p.start = SimTime::fromPs(dStart.undo(in.zigzag()));
    for (PhaseSpan& p : spans)
        p.end = SimTime::fromPs(wrappingAdd(p.start.ps(), in.zigzag()));
    for (PhaseSpan& p : spans)
        p.nodeId = static_cast<uint64_t>(dNode.undo(in.zigzag()));
    for (PhaseSpan& p : spans)
        p.chunk = static_cast<int32_t>(in.zigzag());
    for (PhaseSpan& p : spans)
        p.phase = static_cast<int16_t>(in.zigzag());
    for (PhaseSpan& p : spans)
        p.dimension = static_cast<int16_t>(in.zigzag());
    for (PhaseSpan& p : spans)
        p.phaseKind = in.byte();
    for (PhaseSpan& p : spans)
        p.algorithm = in.byte();
    for (PhaseSpan& p : spans)
        p.inputBytes = in.varint();
    return spans;
}

} // namespace astrolabe
