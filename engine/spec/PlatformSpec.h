#pragma once
// The platform: a multi-dimensional network of NPUs, one building block per dimension.
// Dimension 0 varies fastest in NPU ids (ASTRA-sim's convention).
//
// Units: bandwidth in bytes per second (a double; ASTRA-sim's "50 GB/s" is 50 * 2^30 B/s and is
// converted on import, never guessed); latency in nanoseconds as a double, because real inputs
// carry fractional nanoseconds (936.25 ns) and ASTRA-sim's formulas floor hops*latency + bytes/bw
// as one double expression.

#include "spec/GraphSpec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace astrolabe {

enum class BlockKind : uint8_t { Ring, FullyConnected, Switch };

/// Registry of building blocks: the names accepted in files ("Ring", "FullyConnected", "Switch").
const std::vector<std::string>& blockKindNames();
const char* blockKindName(BlockKind kind);
/// Throws astrolabe::Error listing the valid names when the name is unknown.
BlockKind parseBlockKind(const std::string& name);

struct DimensionSpec {
    BlockKind kind = BlockKind::Ring;
    int size = 2;                       ///< NPUs in this dimension, > 1
    double bandwidthBytesPerSecond = 0; ///< per link, per direction, > 0
    double latencyNs = 0;               ///< per link (per hop), >= 0

    /// ASTRA-sim's beta: bytes per nanosecond, computed as bytesPerSecond / 1e9.
    double bytesPerNs() const { return bandwidthBytesPerSecond / 1e9; }
    bool operator==(const DimensionSpec&) const = default;
};

struct PlatformSpec {
    std::vector<DimensionSpec> dimensions;
    std::string sourceFile; ///< where it was read from (for messages); empty when built in code
    /// A graph platform (docs/graph-platforms.md). Then `dimensions` are only logical: the
    /// dimensions collectives plan over (their sizes multiply to graph->npus; by default one,
    /// graphDimension()); every message is routed and timed on the graph's links.
    std::optional<GraphSpec> graph;
    /// The accelerator library entry the platform's NPUs are (`platform.accelerator`,
    /// resources/hardware/accelerators.csv): a generated workload without its own gpu takes its
    /// compute figures from it. Empty: none named.
    std::string accelerator;

    int npuCount()
        const; ///< saturates at INT32_MAX (the limits in spec/SpecValidation.h are far below)
    bool operator==(const PlatformSpec& o) const {
        return dimensions == o.dimensions && graph == o.graph && accelerator == o.accelerator;
    }
};

/// The one logical dimension a graph platform shows the collective layer: a Ring of all NPUs
/// whose nominal bandwidth and latency (used only by estimates such as Themis' and by summary
/// rows, never to time a message) are the lowest link bandwidth and latency of the graph.
DimensionSpec graphDimension(const GraphSpec& graph);
/// A graph platform: {graphDimension(graph)} and the graph.
PlatformSpec graphPlatform(GraphSpec graph, std::string sourceFile = {});

} // namespace astrolabe
