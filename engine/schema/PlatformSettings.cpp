// The dimension group (`platform.dimensions[i]`): what one dimension of a stacked platform is,
// declared once. The group's settings read and write a SimulationSpec whose platform is that
// one dimension (dimensions[0]); dimensionView() and the project reader and writer move each
// dimension in and out of such a view. The platform's own limits (16 dimensions, 2^20 NPUs) are
// whole-platform checks in SpecValidation (docs/limits.md).
//
// The graph group (`platform.graph`): the graph platform's own settings beside its devices and
// links (which ProjectGraphReader.cpp reads, being lists rather than settings).
#include "core/Units.h"
#include "schema/Setting.h"

#include <nlohmann/json.hpp>

namespace astrolabe::settings {
namespace {

const DimensionSpec& dimensionOf(const SimulationSpec& spec) {
    static const DimensionSpec none;
    return spec.platform.dimensions.empty() ? none : spec.platform.dimensions.front();
}

DimensionSpec& dimensionOf(SimulationSpec& spec) {
    if (spec.platform.dimensions.empty())
        spec.platform.dimensions.emplace_back();
    return spec.platform.dimensions.front();
}

Setting make(const std::string& key, Type type, const std::string& astraKey,
             const std::string& label, const std::string& help) {
    Setting s = declare("dimension." + key, type, label, key, help);
    s.astraKey = astraKey;
    s.missing = {Missing::Level::Error, "required key is missing",
                 "every dimension needs type, size, bandwidth and latency", ""};
    s.compareKey = key;
    s.specJsonGroup = "dimension";
    return s;
}

std::vector<Setting> declareAll() {
    std::vector<Setting> out;
    Setting s = make("type", Type::Enum, "topology", "Block",
                     "The building block joining this dimension's NPUs: Ring (each NPU to two "
                     "neighbours, bidirectional), FullyConnected (a link to every other NPU) or "
                     "Switch (one switch, two hops between any pair).");
    s.choices = blockKindNames();
    s.get = [](const SimulationSpec& spec) -> Value {
        return std::string(blockKindName(dimensionOf(spec).kind));
    };
    s.set = [](SimulationSpec& spec, const Value& v) {
        dimensionOf(spec).kind = parseBlockKind(std::get<std::string>(v));
    };
    s.specJsonKey = "kind";
    s.compareKey = "kind";
    s.shortLabel = "block";
    out.push_back(s);

    s = make("size", Type::Int, "npus_count", "NPUs",
             "NPUs in this dimension. NPU ids vary fastest in dimension 0; the platform's NPU "
             "count is the product of the sizes (at most 2^20, docs/limits.md).");
    s.minimum = 2;
    s.maximum = 1 << 24;
    s.rangeNoun = "NPUs";
    s.get = [](const SimulationSpec& spec) -> Value {
        return static_cast<int64_t>(dimensionOf(spec).size);
    };
    s.set = [](SimulationSpec& spec, const Value& v) {
        dimensionOf(spec).size = static_cast<int>(std::get<int64_t>(v));
    };
    s.specJsonKey = "size";
    out.push_back(s);

    s = make("bandwidth", Type::Quantity, "bandwidth", "Bandwidth",
             "Bandwidth of one link in one direction (not the sum over an NPU's links). "
             "ASTRA-sim's network YAML gives it in GB/s meaning GiB/s (2^30 B/s), a quirk "
             "Astrolabe keeps when it reads or writes that file.");
    s.unit = Unit::BytesPerSecond;
    s.minimum = units::kMinBandwidthBytesPerSecond; // docs/limits.md
    s.maximum = units::kMaxBandwidthBytesPerSecond;
    s.rangeNoun = "bandwidth";
    s.astraUnit = "GB/s (= GiB/s)";
    s.get = [](const SimulationSpec& spec) -> Value {
        return dimensionOf(spec).bandwidthBytesPerSecond;
    };
    s.set = [](SimulationSpec& spec, const Value& v) {
        dimensionOf(spec).bandwidthBytesPerSecond = std::get<double>(v);
    };
    s.specJsonKey = "bandwidthBytesPerSecond";
    out.push_back(s);

    s = make("latency", Type::Quantity, "latency", "Latency",
             "Latency of one link, paid once per hop (a Switch path is two hops).");
    s.unit = Unit::Nanoseconds;
    s.minimum = 0;
    s.astraUnit = "ns";
    s.get = [](const SimulationSpec& spec) -> Value { return dimensionOf(spec).latencyNs; };
    s.set = [](SimulationSpec& spec, const Value& v) {
        dimensionOf(spec).latencyNs = std::get<double>(v);
    };
    s.specJsonKey = "latencyNs";
    out.push_back(s);
    return out;
}

std::vector<Setting> declareGraph() {
    Setting s = declare("graph.routing", Type::Enum, "Routing", "routing",
                        "How a message picks among equal-cost next hops of a graph platform: "
                        "shortest takes the lowest link id (every flow between two devices "
                        "uses one path; a graph made from a stack routes as the stack), ecmp "
                        "spreads flows per (source, destination) by a hash, as switches do "
                        "(docs/graph-platforms.md).");
    s.compat = Compat::ProjectOnly;
    s.choices = graphRoutingNames();
    s.get = [](const SimulationSpec& spec) -> Value {
        return std::string(graphRoutingName(spec.platform.graph ? spec.platform.graph->routing
                                                                : GraphRouting::Shortest));
    };
    s.set = [](SimulationSpec& spec, const Value& v) {
        if (!spec.platform.graph)
            spec.platform.graph.emplace();
        spec.platform.graph->routing = parseGraphRouting(std::get<std::string>(v));
    };
    s.specJsonKey = "routing";
    s.specJsonGroup = "graph";
    // Written only when it is not the default, so older projects stay byte-identical.
    s.writeProjectWhen = [](const SimulationSpec& spec) {
        return spec.platform.graph && spec.platform.graph->routing != GraphRouting::Shortest;
    };
    return {s};
}

std::vector<Setting> declarePlatform() {
    Setting s = declare("platform.accelerator", Type::String, "Accelerator", "accelerator",
                        "The accelerator library entry the NPUs are (a100-40gb, a100-80gb, h100, "
                        "h800, h200, b200, mi300x; resources/hardware/accelerators.csv). A "
                        "generated workload (a sweep's or a validation row's generate: section) "
                        "without its own gpu takes peak, HBM and measured GEMM rates from it; the "
                        "generate: section's own keys (peak-tflops, hbm-bandwidth, gemm-tflops, "
                        "...) override any of them. Empty: none named.");
    s.compat = Compat::ProjectOnly;
    s.get = [](const SimulationSpec& spec) -> Value { return spec.platform.accelerator; };
    s.set = [](SimulationSpec& spec, const Value& v) {
        spec.platform.accelerator = std::get<std::string>(v);
    };
    s.specJsonKey = "accelerator";
    s.specJsonGroup = "platform";
    // Written only when named, so older projects stay byte-identical.
    s.writeProjectWhen = [](const SimulationSpec& spec) {
        return !spec.platform.accelerator.empty();
    };
    return {s};
}

} // namespace

const Group& platformGroup() {
    static const Group group{"platform", "The platform's own settings", declarePlatform(), "",
                             false};
    return group;
}

const Group& graphGroup() {
    static const Group group{"graph", "A graph platform's settings", declareGraph(), "", true};
    return group;
}

const Group& dimensionGroup() {
    static const Group group{"dimension", "One dimension of a stacked platform", declareAll(),
                             "network YAML", true};
    return group;
}

SimulationSpec dimensionView(const DimensionSpec& dimension) {
    SimulationSpec view;
    view.platform.dimensions = {dimension};
    return view;
}

} // namespace astrolabe::settings
