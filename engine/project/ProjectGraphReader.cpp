// The `platform: {graph: ...}` section of a project (docs/graph-platforms.md): a graph listed
// link by link, or made by a generator, with optional logical dimensions.
#include "graph/GraphCsv.h"
#include "graph/GraphDeviceName.h"
#include "graph/GraphGenerators.h"
#include "project/ProjectReading.h"
#include "schema/SchemaProject.h"
#include "spec/LogicalDimensions.h"

#include <algorithm>
#include <limits>

namespace astrolabe::config {

namespace {

const char* kLinkExample = "e.g. {from: npu0, to: sw0, bandwidth: 50 GB/s, latency: 500 ns}";

/// "npu3" -> 3, "sw1" -> npus + 1; -1 after reporting an error.
int readDevice(Diagnostics& d, const YAML::Node& node, const std::string& key, const GraphSpec& g) {
    std::string name;
    if (!readString(d, node, key, name))
        return -1;
    const auto [sw, index] = parseGraphDeviceName(name);
    const bool numeric = index >= 0;
    const int count = sw ? g.switches : g.npus;
    if (!numeric || index >= count) {
        std::string expected = "expected npu0..npu" + std::to_string(g.npus - 1);
        expected += g.switches > 0 ? " or sw0..sw" + std::to_string(g.switches - 1) : "";
        d.error(locate(d, node, key), expected + ", found \"" + name + "\"",
                numeric ? "raise npus or switches, or fix the name" : "devices are npuN or swN");
        return -1;
    }
    return sw ? g.npus + index : index;
}

bool readCount(Diagnostics& d, const YAML::Node& map, const std::string& path, const char* key,
               int low, int& out) {
    int64_t v = 0;
    if (!readInt(d, map[key], joinKey(path, key), v))
        return false;
    if (v < low || v > kMaxGraphDevices) {
        d.error(locate(d, map[key], joinKey(path, key)), "expected " + std::to_string(low) + ".." +
                                                             std::to_string(kMaxGraphDevices) +
                                                             ", found " + std::to_string(v));
        return false;
    }
    out = static_cast<int>(v);
    return true;
}

void readLinks(Diagnostics& d, const YAML::Node& links, const std::string& path, GraphSpec& g) {
    if (!links.IsSequence()) {
        d.error(locate(d, links, path), "expected a list of links, found " + describe(links),
                kLinkExample);
        return;
    }
    if (links.size() > kMaxInlineGraphLinks) {
        d.error(locate(d, links, path),
                "expected at most " + std::to_string(kMaxInlineGraphLinks) +
                    " links listed in the project, found " + std::to_string(links.size()),
                "list them in a CSV file and name it, links: edges.csv (up to " +
                    std::to_string(kMaxGraphLinks) + " links; docs/graph-platforms.md)");
        return;
    }
    for (size_t i = 0; i < links.size(); ++i) {
        const YAML::Node l = links[i];
        const std::string key = path + "[" + std::to_string(i) + "]";
        if (!l.IsMap()) {
            d.error(locate(d, l, key), "expected a link map, found " + describe(l), kLinkExample);
            continue;
        }
        checkKeys(d, l, key, {"from", "to", "bandwidth", "latency", "bidirectional"});
        GraphLinkSpec link;
        link.line = static_cast<int>(l.Mark().line) + 1;
        bool ok = true;
        for (const char* required : {"from", "to", "bandwidth", "latency"})
            if (!l[required].IsDefined()) {
                d.error(locate(d, l, joinKey(key, required)), "required key is missing",
                        kLinkExample);
                ok = false;
            }
        if (!ok)
            continue;
        link.from = readDevice(d, l["from"], joinKey(key, "from"), g);
        link.to = readDevice(d, l["to"], joinKey(key, "to"), g);
        ok = link.from >= 0 && link.to >= 0;
        if (ok && link.from == link.to) {
            d.error(locate(d, l, key), "a link from " + g.deviceName(link.from) + " to itself",
                    "a link joins two different devices");
            ok = false;
        }
        ok = readBandwidth(d, l["bandwidth"], joinKey(key, "bandwidth"),
                           link.bandwidthBytesPerSecond) &&
             ok;
        if (ok && !(link.bandwidthBytesPerSecond > 0)) {
            d.error(locate(d, l["bandwidth"], joinKey(key, "bandwidth")),
                    "expected a bandwidth greater than zero, found " +
                        l["bandwidth"].as<std::string>());
            ok = false;
        }
        SimTime latency;
        if (readTime(d, l["latency"], joinKey(key, "latency"), latency))
            link.latencyNs = static_cast<double>(latency.ps()) / 1e3;
        else
            ok = false;
        if (l["bidirectional"].IsDefined() &&
            !readBool(d, l["bidirectional"], joinKey(key, "bidirectional"), link.bidirectional))
            ok = false;
        if (ok)
            g.links.push_back(link);
    }
    for (const GraphProblem& p : repeatedLinks(g)) {
        const GraphLinkSpec& link = g.links[static_cast<size_t>(p.link)];
        d.error(d.at(link.line, 0, path), p.what);
    }
}

/// `links: edges.csv`: the links from a CSV edge list (graph/GraphCsv.h) beside the project.
void readLinkFile(ProjectContext& c, const YAML::Node& node, const std::string& path,
                  GraphSpec& g) {
    Diagnostics& d = c.diagnostics;
    std::string file;
    if (!readString(d, node, path, file))
        return;
    try {
        g.links = loadGraphEdgeCsv(c.resolve(file), g.npus, g.switches).links;
    } catch (const ErrorList&) {
        throw; // the CSV file's own errors, at its lines
    } catch (const Error& e) {
        d.error(locate(d, node, path), "the links file " + quotedExcerpt(file) + ": " + e.message(),
                e.hint(), e.kind());
    }
}

/// `positions: {npu0: [x, y], ...}`: where the editor drew each device; all or none.
void readPositions(Diagnostics& d, const YAML::Node& node, const std::string& path, GraphSpec& g) {
    const char* example = "e.g. positions: {npu0: [0, 0], npu1: [80, 0]}, one per device";
    if (!node.IsMap()) {
        d.error(locate(d, node, path), "expected a map of device: [x, y], found " + describe(node),
                example);
        return;
    }
    std::vector<GraphPoint> points(static_cast<size_t>(g.deviceCount()));
    std::vector<char> seen(points.size(), 0);
    bool ok = true;
    for (const auto& entry : node) {
        const std::string name = entry.first.as<std::string>("");
        const std::string key = joinKey(path, name);
        const int device = readDevice(d, entry.first, key, g);
        const YAML::Node xy = entry.second;
        if (device < 0) {
            ok = false;
            continue;
        }
        if (!xy.IsSequence() || xy.size() != 2) {
            d.error(locate(d, xy, key),
                    "expected [x, y], found " +
                        (xy.IsSequence() ? "a list of " + std::to_string(xy.size()) : describe(xy)),
                    example);
            ok = false;
            continue;
        }
        GraphPoint& p = points[static_cast<size_t>(device)];
        ok = readDouble(d, xy[0], key + "[0]", p.x) && readDouble(d, xy[1], key + "[1]", p.y) && ok;
        seen[static_cast<size_t>(device)] = 1;
    }
    const auto missing = std::find(seen.begin(), seen.end(), 0);
    if (ok && missing != seen.end()) {
        d.error(locate(d, node, path),
                "expected a position for every device, found none for " +
                    g.deviceName(static_cast<int>(missing - seen.begin())),
                "save the project from the graph editor, or remove positions for an automatic "
                "layout");
        ok = false;
    }
    if (ok)
        g.positions = std::move(points);
}

void readGenerator(ProjectContext& c, const YAML::Node& node, const std::string& path,
                   GraphSpec& g) {
    Diagnostics& d = c.diagnostics;
    checkKeys(d, node, path,
              {"generator", "size", "bandwidth", "latency", "second-bandwidth", "second-latency",
               "logical-dimensions", "routing", "positions"});
    GraphGeneratorSpec s;
    bool ok = readString(d, node["generator"], joinKey(path, "generator"), s.name);
    const YAML::Node size = node["size"];
    if (size.IsDefined()) {
        if (!size.IsSequence()) {
            d.error(locate(d, size, joinKey(path, "size")),
                    "expected a list of numbers, found " + describe(size), "e.g. size: [4, 4]");
            ok = false;
        } else {
            for (size_t i = 0; i < size.size() && i < 8; ++i) {
                int64_t v = 0;
                ok =
                    readInt(d, size[i], joinKey(path, "size") + "[" + std::to_string(i) + "]", v) &&
                    ok;
                s.size.push_back(v);
            }
        }
    }
    for (const char* required : {"bandwidth", "latency"})
        if (!node[required].IsDefined()) {
            d.error(locate(d, node, joinKey(path, required)), "required key is missing",
                    "a generator needs bandwidth and latency for its links");
            ok = false;
        }
    if (!ok)
        return;
    SimTime t;
    ok = readBandwidth(d, node["bandwidth"], joinKey(path, "bandwidth"), s.bandwidthBytesPerSecond);
    if (readTime(d, node["latency"], joinKey(path, "latency"), t))
        s.latencyNs = static_cast<double>(t.ps()) / 1e3;
    else
        ok = false;
    if (node["second-bandwidth"].IsDefined())
        ok = readBandwidth(d, node["second-bandwidth"], joinKey(path, "second-bandwidth"),
                           s.secondBandwidthBytesPerSecond) &&
             ok;
    if (node["second-latency"].IsDefined()) {
        if (readTime(d, node["second-latency"], joinKey(path, "second-latency"), t))
            s.secondLatencyNs = static_cast<double>(t.ps()) / 1e3;
        else
            ok = false;
    }
    if (!ok)
        return;
    try {
        g = generateGraph(s);
    } catch (const Error& e) {
        d.relocate(e, locate(d, node["generator"], joinKey(path, "generator")));
    }
}

} // namespace

void readGraphPlatform(ProjectContext& c, const YAML::Node& node, PlatformSpec& platform) {
    Diagnostics& d = c.diagnostics;
    const std::string path = "platform.graph";
    if (!node.IsMap()) {
        d.error(locate(d, node, path),
                "expected {npus, switches, links} or {generator, size, bandwidth, latency}, "
                "found " +
                    describe(node),
                "see docs/graph-platforms.md");
        return;
    }
    GraphSpec g;
    if (node["generator"].IsDefined()) {
        readGenerator(c, node, path, g);
    } else {
        checkKeys(d, node, path,
                  {"npus", "switches", "links", "logical-dimensions", "routing", "positions"});
        bool ok = true;
        if (!node["npus"].IsDefined()) {
            d.error(locate(d, node, joinKey(path, "npus")), "required key is missing",
                    "npus: <count> (and switches, links), or generator: <name>");
            ok = false;
        } else {
            ok = readCount(d, node, path, "npus", 2, g.npus);
        }
        if (node["switches"].IsDefined())
            ok = readCount(d, node, path, "switches", 0, g.switches) && ok;
        if (!node["links"].IsDefined()) {
            d.error(locate(d, node, joinKey(path, "links")), "required key is missing",
                    kLinkExample);
            ok = false;
        }
        if (ok && node["links"].IsScalar())
            readLinkFile(c, node["links"], joinKey(path, "links"), g);
        else if (ok)
            readLinks(d, node["links"], joinKey(path, "links"), g);
    }
    if (d.hasErrors() || g.npus == 0)
        return;
    if (node["positions"].IsDefined())
        readPositions(d, node["positions"], joinKey(path, "positions"), g);
    // The graph's own settings (routing), from the schema, through a view holding the graph.
    SimulationSpec view;
    view.platform.graph = std::move(g);
    settings::readProjectGroup(c, node, settings::graphGroup(), view, nullptr, path);
    g = std::move(*view.platform.graph);
    // Whole-graph problems (the per-link ones are reported above, with their lines).
    for (const GraphProblem& p : graphProblems(g)) {
        if (p.link >= 0)
            continue;
        d.error(locate(d, node, path), p.what,
                "every NPU must reach every other NPU over the links (check directions)");
    }
    platform.dimensions = {graphDimension(g)};
    const YAML::Node logical = node["logical-dimensions"];
    if (logical.IsDefined()) {
        const std::string key = joinKey(path, "logical-dimensions");
        if (!logical.IsSequence() || logical.size() == 0 ||
            logical.size() > kMaxLogicalDimensions) {
            d.error(locate(d, logical, key),
                    "expected a list of 1 to 8 sizes, found " + describe(logical),
                    "e.g. logical-dimensions: [8, 4] for 32 NPUs");
            return;
        }
        std::vector<int64_t> sizes;
        for (size_t i = 0; i < logical.size(); ++i) {
            int64_t v = 0;
            if (!readInt(d, logical[i], key + "[" + std::to_string(i) + "]", v))
                return;
            if (std::string problem = logicalDimensionSizeProblem(v, g.npus); !problem.empty()) {
                d.error(locate(d, logical[i], key + "[" + std::to_string(i) + "]"), problem);
                return;
            }
            sizes.push_back(v);
        }
        if (std::string problem = logicalDimensionsProblem(sizes, g.npus); !problem.empty()) {
            d.error(locate(d, logical, key), problem);
            return;
        }
        platform.dimensions = logicalDimensions(g, sizes);
    }
    platform.graph = std::move(g);
}

} // namespace astrolabe::config
