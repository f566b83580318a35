#include "astra/AstraNetworkConfig.h"

#include "core/InputFile.h"
#include "core/Units.h"
#include "yaml/YamlSupport.h"

#include <cmath>
#include <cstddef>

namespace astrolabe {
namespace {

using config::Diagnostics;
using config::locate;

constexpr double kAstraGigabyte = 1073741824.0; // ASTRA-sim network "GB" = 2^30 bytes

const std::vector<std::string>& networkKeys() {
    static const std::vector<std::string> keys{"topology", "npus_count", "bandwidth", "latency"};
    return keys;
}

// Keys of the 2022 "Hierarchical" analytical format that the 2.x backend no longer reads.
const std::vector<std::string>& obsoleteKeys() {
    static const std::vector<std::string> keys{
        "topology-name", "dimensions-count", "units-count", "links-count",
        "link-latency",  "link-bandwidth",   "nic-latency", "router-latency",
        "hbm-latency",   "hbm-bandwidth",    "hbm-scale"};
    return keys;
}

bool reportObsoleteFormat(Diagnostics& diagnostics, const YAML::Node& root) {
    for (auto it = root.begin(); it != root.end(); ++it) {
        const std::string key = it->first.Scalar();
        for (const std::string& old : obsoleteKeys())
            if (key == old) {
                diagnostics.error(
                    locate(diagnostics, it->first, key),
                    "this is the obsolete 2022 analytical network format (topology-name, "
                    "dimensions-count, units-count, links-count, ...), which ASTRA-sim 2.x no "
                    "longer reads",
                    "rewrite it as four lists, e.g. topology: [ Ring ], npus_count: [ 8 ], "
                    "bandwidth: [ 50.0 ] (GB/s, 2^30 B), latency: [ 500.0 ] (ns)");
                return true;
            }
    }
    return false;
}

// The list under `key`, or an undefined node after reporting why it is unusable.
YAML::Node requireList(Diagnostics& diagnostics, const YAML::Node& root, const std::string& key) {
    const YAML::Node node = root[key];
    if (!node.IsDefined()) {
        std::string hint = "one entry per dimension, e.g. " + key + ": [ ... ]";
        for (auto it = root.begin(); it != root.end(); ++it) {
            const std::string found = it->first.Scalar();
            if (closestMatch(found, {key}) == key && found != key)
                hint = "found \"" + found + "\"; did you mean \"" + key + "\"?";
        }
        diagnostics.error(diagnostics.at(0, 0, key), "required key is missing", hint);
        return YAML::Node(YAML::NodeType::Undefined);
    }
    if (!node.IsSequence()) {
        diagnostics.error(locate(diagnostics, node, key),
                          "expected a list with one entry per dimension, found " +
                              config::describe(node),
                          "write " + key + ": [ " +
                              (node.IsScalar() ? node.Scalar() : std::string("...")) + " ]");
        return YAML::Node(YAML::NodeType::Undefined);
    }
    return node;
}

std::string indexed(const std::string& key, size_t i) {
    return key + "[" + std::to_string(i) + "]";
}

} // namespace

PlatformSpec parseAstraNetworkYaml(const std::string& text, const std::string& fileName,
                                   std::vector<std::string>* warnings) {
    Diagnostics diagnostics(fileName);
    const YAML::Node root = config::parseYamlText(text, fileName);
    if (!root.IsMap()) {
        diagnostics.error(diagnostics.at(1, 1, {}),
                          "expected a map with keys topology, npus_count, bandwidth and latency, "
                          "found " +
                              config::describe(root));
        diagnostics.throwIfErrors();
    }
    if (reportObsoleteFormat(diagnostics, root))
        diagnostics.throwIfErrors();
    config::checkKeys(diagnostics, root, {}, networkKeys(), /*warnOnly=*/true);

    const YAML::Node topology = requireList(diagnostics, root, "topology");
    const YAML::Node npus = requireList(diagnostics, root, "npus_count");
    const YAML::Node bandwidth = requireList(diagnostics, root, "bandwidth");
    const YAML::Node latency = requireList(diagnostics, root, "latency");

    PlatformSpec platform;
    platform.sourceFile = fileName;
    if (topology.IsDefined()) {
        if (topology.size() == 0)
            diagnostics.error(locate(diagnostics, topology, "topology"),
                              "expected at least one dimension, found an empty list");
        platform.dimensions.resize(topology.size());
    }
    // Every list must have as many entries as topology (the reference is the first list).
    for (const auto& [node, key] :
         {std::pair{npus, "npus_count"}, std::pair{bandwidth, "bandwidth"},
          std::pair{latency, "latency"}}) {
        if (topology.IsDefined() && node.IsDefined() && node.size() != topology.size())
            diagnostics.error(locate(diagnostics, node, key),
                              "expected " + std::to_string(topology.size()) +
                                  " entries (one per dimension, as in topology), found " +
                                  std::to_string(node.size()),
                              "topology, npus_count, bandwidth and latency must have the same "
                              "length");
    }

    const size_t dims = platform.dimensions.size();
    for (size_t i = 0; i < dims; ++i) {
        DimensionSpec& dim = platform.dimensions[i];
        std::string name;
        if (config::readString(diagnostics, topology[i], indexed("topology", i), name)) {
            try {
                dim.kind = parseBlockKind(name);
            } catch (const Error& e) {
                diagnostics.relocate(e, locate(diagnostics, topology[i], indexed("topology", i)));
            }
        }
        if (npus.IsDefined() && i < npus.size()) {
            int64_t n = 0;
            if (config::readInt(diagnostics, npus[i], indexed("npus_count", i), n)) {
                if (n <= 1 || n > 1 << 24)
                    diagnostics.error(locate(diagnostics, npus[i], indexed("npus_count", i)),
                                      "expected more than 1 NPU per dimension, found " +
                                          std::to_string(n),
                                      n <= 1 ? "drop dimensions of size 1" : "");
                else
                    dim.size = static_cast<int>(n);
            }
        }
        if (bandwidth.IsDefined() && i < bandwidth.size()) {
            double gb = 0;
            if (config::readDouble(diagnostics, bandwidth[i], indexed("bandwidth", i), gb)) {
                if (!(gb > 0) || !std::isfinite(gb))
                    diagnostics.error(locate(diagnostics, bandwidth[i], indexed("bandwidth", i)),
                                      "expected a bandwidth greater than 0 (GB/s, 2^30 B), found " +
                                          units::formatNumber(gb));
                else if (const std::string problem = units::bandwidthRangeProblem(
                             gb * kAstraGigabyte, units::formatNumber(gb) + " GB/s (2^30 B)");
                         !problem.empty())
                    diagnostics.error(locate(diagnostics, bandwidth[i], indexed("bandwidth", i)),
                                      problem, kLimitsHint);
                else
                    dim.bandwidthBytesPerSecond = gb * kAstraGigabyte;
            }
        }
        if (latency.IsDefined() && i < latency.size()) {
            double ns = 0;
            if (config::readDouble(diagnostics, latency[i], indexed("latency", i), ns)) {
                if (!(ns >= 0) || !std::isfinite(ns))
                    diagnostics.error(locate(diagnostics, latency[i], indexed("latency", i)),
                                      "expected a latency of 0 ns or more, found " +
                                          units::formatNumber(ns));
                else
                    dim.latencyNs = ns;
            }
        }
    }
    diagnostics.throwIfErrors();
    diagnostics.moveWarningsTo(warnings);
    return platform;
}

PlatformSpec loadAstraNetworkYaml(const std::string& path, std::vector<std::string>* warnings) {
    return parseAstraNetworkYaml(readInputFile(path, "the network configuration"), path, warnings);
}

std::string writeAstraNetworkYaml(const PlatformSpec& platform) {
    if (platform.graph)
        throw Error(ErrorKind::Unsupported,
                    "a graph platform has no ASTRA-sim network YAML (ASTRA-sim's analytical "
                    "backends take dimension stacks only)",
                    {platform.sourceFile, 0, 0, "platform.graph"},
                    "export it with `astrolabe-cli graph export` as DOT or GraphML instead");
    std::string topology, npus, bandwidth, latency;
    for (size_t i = 0; i < platform.dimensions.size(); ++i) {
        const DimensionSpec& d = platform.dimensions[i];
        for (std::string* list : {&topology, &npus, &bandwidth, &latency})
            list->append(i == 0 ? " " : ", ");
        topology.append(blockKindName(d.kind));
        npus.append(std::to_string(d.size));
        // Dividing by a power of two is exact, so the file reads back to the same bytes/s.
        bandwidth.append(units::formatNumber(d.bandwidthBytesPerSecond / kAstraGigabyte));
        latency.append(units::formatNumber(d.latencyNs));
    }
    return "topology: [" + topology + " ]\n" + "npus_count: [" + npus + " ]\n" + "bandwidth: [" +
           bandwidth + " ]  # GB/s (ASTRA-sim: 1 GB = 2^30 B)\n" + "latency: [" + latency +
           " ]  # ns\n";
}

} // namespace astrolabe
