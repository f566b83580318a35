#include "optimize/SimulatedIterationTime.h"

#include "core/Error.h"
#include "simulation/Simulation.h"

namespace astrolabe::optimize {

std::vector<double> platformGBps(const PlatformSpec& platform) {
    std::vector<double> out;
    for (const DimensionSpec& d : platform.dimensions)
        out.push_back(d.bandwidthBytesPerSecond / 1e9);
    return out;
}

PlatformSpec withGBps(PlatformSpec platform, const std::vector<double>& gbps) {
    if (gbps.size() != platform.dimensions.size())
        throw Error(ErrorKind::Validation, "an allocation needs one bandwidth per dimension");
    for (size_t d = 0; d < gbps.size(); ++d)
        platform.dimensions[d].bandwidthBytesPerSecond = gbps[d] * 1e9;
    return platform;
}

namespace {

SimulationSpec quiet(SimulationSpec spec) {
    spec.options.recordTimeline = false;
    spec.options.recordLinkIntervals = false;
    return spec;
}

} // namespace

IterationTime simulatedIterationTime(SimulationSpec spec) {
    return [spec = quiet(std::move(spec))](const std::vector<double>& gbps) {
        SimulationSpec run = spec;
        run.platform = withGBps(spec.platform, gbps);
        return runSimulation(run)->endTime.seconds();
    };
}

IterationTime simulatedIterationTime(SimulationSpec spec,
                                     std::shared_ptr<const std::vector<WorkloadTrace>> traces) {
    return [spec = quiet(std::move(spec)), traces](const std::vector<double>& gbps) {
        SimulationSpec run = spec;
        run.platform = withGBps(spec.platform, gbps);
        return runSimulation(run, *traces)->endTime.seconds();
    };
}

} // namespace astrolabe::optimize
