// The project database's blobs (store/TimelineCodec.h, store/SpanCodec.h, store/ByteCodec.h):
// a damaged database must give an error, never a crash, an allocation of what a corrupt count
// claims, or undefined arithmetic. The first byte picks the decoder; the rest is the blob.
#include "FuzzTarget.h"
#include "store/ByteCodec.h"
#include "store/SpanCodec.h"
#include "store/TimelineCodec.h"

#include <cstdint>
#include <vector>

ASTROLABE_FUZZ_TARGET(blobs) {
    using namespace astrolabe;
    if (input.empty())
        return;
    const std::string_view blob = input.substr(1);
    std::vector<ActivityInterval> intervals;
    switch (static_cast<unsigned char>(input[0]) % 4) {
    case 0:
        decodeIntervals(blob, SimTime::fromPs(INT64_MIN), SimTime::max(), {}, intervals);
        break;
    case 1:
        (void)decodeCollectives(blob);
        break;
    case 2:
        (void)decodePhases(blob);
        break;
    default: { // a compressed chunk with the size stored beside it, as the database holds it
        ByteReader in(blob);
        const uint64_t rawSize = in.varint();
        const std::string raw =
            zlibDecompress(blob.substr(blob.size() - in.remaining()), static_cast<size_t>(rawSize));
        decodeIntervals(raw, SimTime::fromPs(0), SimTime::fromPs(1000), {true, false}, intervals);
    }
    }
}
