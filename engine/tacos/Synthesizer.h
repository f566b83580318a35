#pragma once
// TACOS (Won et al., "TACOS: Topology-Aware Collective Algorithm Synthesizer for Distributed
// Machine Learning"): collective algorithms synthesized for a graph platform (docs/tacos.md).
//
// All-gather: every NPU starts with its own `chunksPerNpu` chunks (chunk k belongs to NPU
// k / chunksPerNpu) and must end with all of them. The synthesizer walks a time-expanded
// network (TEN): a link occupied by one chunk for latency + chunkBytes / bandwidth, event-driven
// so that links of different speed need no common time unit. At each event time, links that are
// free are matched greedily with chunks: destinations with unmet postconditions in random order,
// each one's free incoming links in random order, and on each link a random chunk that the
// source already holds and that the destination neither holds nor is receiving on another link.
// Time then advances to the next arrival.
// Reduce-scatter: the all-gather synthesized on the transposed graph, run backwards in time
// (a chunk's broadcast tree becomes its reduction tree, every NPU sends after its subtree's
// contributions arrived). All-reduce: reduce-scatter, then all-gather.
//
// Switches hold no chunks (TACOS' model). Every ordered pair of NPUs (a, b) joined by a path
// whose inner devices are all switches gets a virtual link a -> b, routed on the shortest such
// path (Topology::routesThroughSwitchesTo: the engine's distance and tie-break). A link, direct
// or virtual, is free when every physical link on its route is free, and carries a chunk for
// the sum of the route's latencies + chunkBytes / its smallest bandwidth (cut-through, as the
// congestion-unaware model). Direct NPU-to-NPU links stay as they are, so a switchless graph
// gives the schedule it always gave. Random choices come from a seeded generator, so a
// synthesis is reproducible.
// Cost: O(events x (links + free links x (route length + chunks/64)) + sends); memory
// O(NPUs x chunks / 8 + links x route length + sends), where links <= direct + NPUs x (NPUs-1).

#include "spec/GraphSpec.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace astrolabe {

enum class SynthesisKind : uint8_t { AllGather, ReduceScatter, AllReduce };
/// "all-gather", "reduce-scatter", "all-reduce".
const char* synthesisKindName(SynthesisKind kind);
/// The names parseSynthesisKind reads, in SynthesisKind order.
std::vector<std::string> synthesisKindNames();
/// Throws astrolabe::Error (Validation) listing the valid names.
SynthesisKind parseSynthesisKind(const std::string& name);

struct SynthesisOptions {
    SynthesisKind kind = SynthesisKind::AllReduce;
    /// The collective's size: the whole buffer for all-reduce and reduce-scatter (chunk =
    /// bytes / (NPUs x chunksPerNpu)), each NPU's contribution for all-gather (chunk = bytes /
    /// chunksPerNpu), as the engine's microbenchmarks use them.
    uint64_t bytes = 1 << 20;
    /// Chunks per NPU, >= 1 (0 or less is refused), unless automatic.
    int chunksPerNpu = 1;
    /// Automatic chunk size: the fastest schedule of 1, 2 and 4 chunks per NPU.
    bool automaticChunks = false;
    uint64_t seed = 1;
    /// Called now and then from the synthesizing thread with the chunk sends scheduled so far
    /// and the schedule's whole count (a large one takes minutes); may be empty.
    std::function<void(uint64_t scheduled, uint64_t total)> progress;
};

/// One chunk on one link.
struct ChunkSend {
    int32_t chunk = 0;
    int32_t link = 0;  ///< index into Schedule::links
    int32_t step = 0;  ///< index of the TEN event time at which it starts (per schedule)
    uint8_t phase = 0; ///< 0: reduce-scatter (or the only phase), 1: all-gather of an all-reduce
    double startNs = 0;
    double endNs = 0;
};

struct SynthLink {
    int32_t src = 0, dst = 0; ///< NPU ids
    double latencyNs = 0;     ///< through switches: the sum over the route
    double bytesPerNs = 0;    ///< through switches: the route's smallest
    int32_t switches = 0;     ///< switches on the route; 0: a direct NPU-to-NPU link
};

struct Schedule {
    SynthesisKind kind = SynthesisKind::AllReduce;
    int npus = 0;
    int chunksPerNpu = 1;
    uint64_t bytes = 0;      ///< the collective's size as in SynthesisOptions
    uint64_t chunkBytes = 0; ///< every chunk's size
    /// Unidirectional: the direct NPU-to-NPU links in GraphSpec order (forward first), then
    /// the links through switches by destination, then source.
    std::vector<SynthLink> links;
    /// Per NPU, the bandwidth of its own physical links out and in (to NPUs or switches), the
    /// bound's injection bandwidth. Empty: summed over `links` (a schedule made by hand).
    std::vector<double> egressBytesPerNs, ingressBytesPerNs;
    std::vector<ChunkSend> sends; ///< by start time, then link
    int steps = 0;                ///< distinct start times
    double finishNs = 0;          ///< when the last chunk arrives, in the TEN model

    int chunkCount() const { return npus * chunksPerNpu; }
    int ownerOf(int chunk) const { return chunk / chunksPerNpu; }
};

/// Throws astrolabe::Error (Validation) with a sentence for a graph that cannot be synthesized
/// (a graph problem such as a disconnected NPU or a zero bandwidth) or options out of
/// range (chunks < 1, a chunk smaller than one byte, more than 50 million chunk sends, a graph
/// with switches of more than 2,048 NPUs: N(N-1) links through switches).
Schedule synthesize(const GraphSpec& graph, const SynthesisOptions& options);

} // namespace astrolabe
