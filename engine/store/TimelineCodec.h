#pragma once
// How activity intervals are laid out in the project database.
//
// A run's intervals are cut into chunks by (time bucket of the start, NPU group): fixed-width
// buckets over [0, end time] and groups of consecutive NPUs. An interval that spans several
// buckets stays in the bucket of its start; each chunk records the earliest start and the latest
// end of its intervals, so a window query [t0, t1) reads exactly the chunks with
// firstStart < t1 and maxEnd > t0 (which includes long intervals that started earlier).
//
// Inside a chunk the intervals are stored column by column (npu deltas, start deltas, durations,
// kind|type bytes, node id deltas, name indices, sizes) as varints, then zlib-compressed: about
// 2-4 bytes per interval for regular traces.

#include "record/RunResult.h"
#include "store/ByteCodec.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe {

struct TimelineLayout {
    SimTime bucketWidth = SimTime::fromPs(1);
    int buckets = 1;
    int npusPerGroup = 1;

    int bucketOf(SimTime t) const;
    int groupOf(int npu) const { return npu / npusPerGroup; }
};

/// About 512 buckets over the run, and NPU groups sized so chunks hold ~1000 intervals.
TimelineLayout chooseTimelineLayout(int npuCount, SimTime endTime, size_t intervals);

/// Encodes and compresses chunks; keeps its column buffers between chunks (a save packs
/// thousands of chunks).
class IntervalPacker {
public:
    /// Packs activities[order[0..count)].
    PackedBlob pack(const std::vector<ActivityInterval>& activities, const uint32_t* order,
                    size_t count);

private:
    ByteWriter m_npu, m_start, m_duration, m_kind, m_node, m_name, m_bytes;
};

/// Decodes an inflated chunk and appends the intervals that overlap [t0, t1) and whose NPU is in
/// npuMask (all NPUs when npuMask is empty). A zero-length interval at t counts as overlapping when
/// t0 <= t < t1.
void decodeIntervals(std::string_view raw, SimTime t0, SimTime t1, const std::vector<bool>& npuMask,
                     std::vector<ActivityInterval>& out);

} // namespace astrolabe
