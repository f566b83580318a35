#include "topology/TopologyMath.h"

#include "schema/Setting.h"
#include "spec/SpecValidation.h"

#include <algorithm>
#include <limits>

namespace astrolabe::widgets {

int64_t npuCount64(const PlatformSpec& platform) {
    if (platform.dimensions.empty())
        return 0;
    int64_t n = 1;
    for (const DimensionSpec& d : platform.dimensions) {
        if (d.size <= 0)
            return 0;
        if (n > std::numeric_limits<int64_t>::max() / d.size)
            return std::numeric_limits<int64_t>::max();
        n *= d.size;
    }
    return n;
}

std::vector<int> npuCoordinates(const PlatformSpec& platform, int64_t id) {
    std::vector<int> coordinates;
    coordinates.reserve(platform.dimensions.size());
    for (const DimensionSpec& d : platform.dimensions) {
        const int n = std::max(1, d.size);
        coordinates.push_back(static_cast<int>(id % n));
        id /= n;
    }
    return coordinates;
}

int64_t npuIdOf(const PlatformSpec& platform, const std::vector<int>& coordinates) {
    int64_t id = 0;
    int64_t stride = 1;
    for (size_t d = 0; d < platform.dimensions.size() && d < coordinates.size(); ++d) {
        id += coordinates[d] * stride;
        stride *= std::max(1, platform.dimensions[d].size);
    }
    return id;
}

int linksPerNpu(const DimensionSpec& dimension) {
    const int n = dimension.size;
    if (n < 2)
        return 0;
    switch (dimension.kind) {
    case BlockKind::Ring:
        return std::min(2, n - 1);
    case BlockKind::FullyConnected:
        return n - 1;
    case BlockKind::Switch:
        return 1;
    }
    return 0;
}

double injectionBandwidthBytesPerSecond(const PlatformSpec& platform) {
    double sum = 0;
    for (const DimensionSpec& d : platform.dimensions)
        sum += linksPerNpu(d) * d.bandwidthBytesPerSecond;
    return sum;
}

double blockBisectionBytesPerSecond(const DimensionSpec& dimension) {
    const int n = dimension.size;
    if (n < 2)
        return 0;
    const double bw = dimension.bandwidthBytesPerSecond;
    switch (dimension.kind) {
    case BlockKind::Ring:
        return std::min(2, n - 1) * bw;
    case BlockKind::FullyConnected:
        return static_cast<double>(n / 2) * ((n + 1) / 2) * bw;
    case BlockKind::Switch:
        return (n / 2) * bw;
    }
    return 0;
}

double bisectionBandwidthBytesPerSecond(const PlatformSpec& platform) {
    const int64_t total = npuCount64(platform);
    if (total < 2)
        return 0;
    double best = std::numeric_limits<double>::infinity();
    for (const DimensionSpec& d : platform.dimensions) {
        if (d.size < 2)
            continue;
        const double copies = static_cast<double>(total / d.size);
        best = std::min(best, copies * blockBisectionBytesPerSecond(d));
    }
    return best == std::numeric_limits<double>::infinity() ? 0 : best;
}

std::vector<PlatformProblem> platformProblems(const PlatformSpec& platform) {
    std::vector<PlatformProblem> problems;
    if (platform.dimensions.empty())
        problems.push_back({-1, "the platform has no dimension: drop a building block"});
    // Each value against its declaration (engine/schema/PlatformSettings.cpp), as the
    // project reader checks it.
    for (size_t i = 0; i < platform.dimensions.size(); ++i) {
        const SimulationSpec view = settings::dimensionView(platform.dimensions[i]);
        for (const settings::Setting& s : settings::dimensionGroup().settings)
            if (std::string why = settings::rangeError(s, s.get(view), false); !why.empty())
                problems.push_back({static_cast<int>(i), "dimension " + std::to_string(i) + " " +
                                                             s.projectKey() + ": " + why});
    }
    if (platform.dimensions.size() > kMaxDimensions)
        problems.push_back({-1, "expected at most " + std::to_string(kMaxDimensions) +
                                    " dimensions, found " +
                                    std::to_string(platform.dimensions.size())});
    else if (problems.empty() && npuCount64(platform) > static_cast<int64_t>(kMaxNpus))
        problems.push_back({-1, "expected at most " + std::to_string(kMaxNpus) +
                                    " NPUs (docs/limits.md), found " +
                                    std::to_string(npuCount64(platform))});
    return problems;
}

} // namespace astrolabe::widgets
