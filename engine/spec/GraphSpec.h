#pragma once
// A graph platform (docs/graph-platforms.md): explicit NPUs and switches joined by links, each
// with its own bandwidth and latency. Devices are numbered NPUs 0..npus-1, then switches
// npus..npus+switches-1 (the convention of LinkInfo). A bidirectional link stands for two
// unidirectional links of the same bandwidth and latency, one per direction.
//
// To the collective layer a graph is ONE logical dimension of all NPUs (PlatformSpec keeps a
// nominal DimensionSpec for it, see graphDimension()); every message is routed on the graph.
//
// Units as in PlatformSpec.h: bytes per second (double), nanoseconds (double).

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe {

struct GraphLinkSpec {
    int32_t from = 0; ///< device id
    int32_t to = 0;
    double bandwidthBytesPerSecond = 0; ///< per direction, > 0
    double latencyNs = 0;               ///< >= 0
    bool bidirectional = true;
    int line = 0; ///< 1-based line in the file it was read from (0: built in code)
    bool operator==(const GraphLinkSpec& o) const {
        return from == o.from && to == o.to &&
               bandwidthBytesPerSecond == o.bandwidthBytesPerSecond && latencyNs == o.latencyNs &&
               bidirectional == o.bidirectional;
    }
};

/// How a message picks among equal-cost next hops (docs/graph-platforms.md, "Routing").
/// Shortest: the lowest link id (every flow between two devices takes one path). Ecmp: per-flow
/// equal-cost multi-path, as switches hash a flow's header: the flow (src, dst) picks
/// candidate ecmpHash(src, dst, device) mod k among the k equal-cost links out of `device`.
enum class GraphRouting : uint8_t { Shortest, Ecmp };
/// "shortest", "ecmp": the names accepted in project files.
const std::vector<std::string>& graphRoutingNames();
const char* graphRoutingName(GraphRouting routing);
/// Throws astrolabe::Error listing the valid names when the name is unknown.
GraphRouting parseGraphRouting(const std::string& name);
/// The per-flow hash ECMP routing uses at `device` (splitmix64 of the flow, then of the device,
/// so that successive tiers do not all make the same choice). Deterministic, platform-free.
uint64_t ecmpHash(int src, int dst, int device);

/// Where the graph editor drew a device, in its scene units (docs/graph-platforms.md).
struct GraphPoint {
    double x = 0, y = 0;
    bool operator==(const GraphPoint&) const = default;
};

struct GraphSpec {
    int npus = 0;
    int switches = 0;
    std::vector<GraphLinkSpec> links;
    std::string generator; ///< how it was made ("mesh2d 4x4", ...); empty when listed by hand
    GraphRouting routing = GraphRouting::Shortest;
    /// Empty (the editor lays the graph out), or one per device: where the user put it. Only the
    /// editor reads it; the simulation ignores it. hasPositions() checks the count.
    std::vector<GraphPoint> positions;

    bool hasPositions() const { return positions.size() == static_cast<size_t>(deviceCount()); }
    int deviceCount() const { return npus + switches; }
    /// "npu3", "sw0": the names used in files and messages.
    std::string deviceName(int device) const;
    bool operator==(const GraphSpec& o) const {
        return npus == o.npus && switches == o.switches && links == o.links &&
               routing == o.routing && positions == o.positions;
    }
};

/// Limits of a graph read from a file (docs/graph-platforms.md).
constexpr int kMaxGraphDevices = 1 << 16;
constexpr size_t kMaxGraphLinks = 1 << 20;
/// Links listed in the project YAML itself; more go in a CSV file the project names (links:
/// FILE.csv), read at the CSV reader's cost per link instead of a YAML tree's (~4 KB a link).
constexpr size_t kMaxInlineGraphLinks = 1 << 16;

/// Problems that make the graph unusable, each one sentence naming the link (by index) or the
/// device: unknown device, a link to itself, bandwidth not > 0, latency < 0, an NPU that cannot
/// reach (or be reached from) every other NPU. Empty when the graph is fine. O(devices + links).
struct GraphProblem {
    int link = -1; ///< index into links, or -1 for the graph as a whole
    std::string what;
};
std::vector<GraphProblem> graphProblems(const GraphSpec& graph);

} // namespace astrolabe
