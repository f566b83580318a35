#include "topology/AstraYamlExport.h"

#include "core/Error.h"
#include "core/Units.h"
#include "topology/TopologyMath.h"

#include <sstream>

namespace astrolabe::widgets {

namespace {
constexpr double kAstraGigabyte = 1073741824.0; // ASTRA-sim network GB = 2^30 B

template <typename F> std::string flowList(const PlatformSpec& platform, F&& item) {
    std::string out = "[ ";
    for (size_t i = 0; i < platform.dimensions.size(); ++i) {
        if (i > 0)
            out += ", ";
        out += item(platform.dimensions[i]);
    }
    return out + " ]";
}
} // namespace

std::string astraNetworkYaml(const PlatformSpec& platform) {
    const std::vector<PlatformProblem> problems = platformProblems(platform);
    if (!problems.empty()) {
        std::string message = "cannot export an invalid platform:";
        for (const PlatformProblem& p : problems)
            message += " " + p.message + ";";
        message.pop_back();
        throw Error(ErrorKind::Validation, message, {},
                    "fix the dimensions marked in red in the topology editor");
    }
    std::ostringstream out;
    out << "topology: " << flowList(platform, [](const DimensionSpec& d) {
        return std::string(blockKindName(d.kind));
    }) << "\n";
    out << "npus_count: " << flowList(platform, [](const DimensionSpec& d) {
        return std::to_string(d.size);
    }) << "\n";
    out << "bandwidth: " << flowList(platform, [](const DimensionSpec& d) {
        return units::formatNumber(d.bandwidthBytesPerSecond / kAstraGigabyte);
    }) << "  # GB/s (ASTRA-sim: 1 GB = 2^30 B)\n";
    out << "latency: " << flowList(platform, [](const DimensionSpec& d) {
        return units::formatNumber(d.latencyNs);
    }) << "  # ns\n";
    return out.str();
}

} // namespace astrolabe::widgets
