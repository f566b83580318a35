#pragma once
// Blob encodings of collective and phase spans: column by column (npu deltas, start deltas,
// durations, node id deltas, ...) as varints, so regular traces compress to a few bytes per
// span; then zlib.

#include "record/RunResult.h"
#include "store/ByteCodec.h"

#include <string>
#include <string_view>
#include <vector>

namespace astrolabe {

PackedBlob packCollectives(const std::vector<CollectiveSpan>& spans);
std::vector<CollectiveSpan> decodeCollectives(std::string_view raw);
PackedBlob packPhases(const std::vector<PhaseSpan>& spans);
std::vector<PhaseSpan> decodePhases(std::string_view raw);

} // namespace astrolabe
