#pragma once
// A fitted CostModel written into a project as ordinary settings.
//
// The simulator's congestion-unaware ring collective (spec §9.2-9.3) with k chunks of which a
// run at a time (q = ceil(k / a) rounds), endpoint delay E, link latency lambda over h hops
// (Ring and FullyConnected 1, Switch 2), link bandwidth B and local memory bandwidth L takes
//   q E + steps * q (h lambda + E) + (q / k) bus * S / B + (q / k) reduced * S * 3 / L,
// which is the model's last regime with
//   alpha = q E,   delta = q (h lambda + E),   u = (q / k) / B,   g = (q / k) * 3 / L.
// So E = alpha / q, lambda = (delta / q - E) / h and B = (q / k) / u; g comes from the project.
// When the data has one step count s (one collective), only alpha + s delta is known: E stays as
// the project has it and lambda takes the rest.
// The collectives' bandwidth factors f_c (CostModel.h) become system.<collective>-bandwidth-factor
// (1 for a collective absent from the data), CostModel::settingLatencyUs
// system.<collective>-latency (added once per collective: the simulator's time gains it
// exactly). The chunk counts and L are kept;
// the smaller-message regimes (NCCL's LL and LL128 protocols), which the simulator does not model,
// are stated in the file's header comment only.

#include "calibrate/CostFit.h"
#include "spec/SimulationSpec.h"

#include <array>
#include <string>
#include <vector>

namespace astrolabe {

/// The model's g for this project, in us per reduced byte.
double reduceUsPerByte(const SimulationSpec& spec);

struct AppliedCalibration {
    int dimension = 0;
    double latencyNs = 0, bandwidthBytesPerSecond = 0, endpointDelayNs = 0;
    double efficiency = 0; ///< the new bandwidth / the dimension's bandwidth before
    /// SystemConfig::bandwidthFactor as set: the fit's per-collective factors (CostModel.h)
    std::array<double, 4> bandwidthFactor{1, 1, 1, 1};
    /// SystemConfig::collectiveLatencyNs as set: the fit's per-collective latencies (CostModel.h)
    std::array<double, 4> collectiveLatencyNs{0, 0, 0, 0};
    std::string settings;              ///< "Settings from the last regime: ..." (one line)
    std::vector<std::string> comment;  ///< the header comment's lines, without "# "
    std::vector<std::string> warnings; ///< what the settings cannot reproduce
};

/// Sets dimension `dimension`'s latency and bandwidth and the endpoint delay from the fit's
/// last regime. Throws astrolabe::Error (Validation) for a graph platform or a dimension the
/// platform does not have.
AppliedCalibration applyCalibration(SimulationSpec& spec, int dimension, const FitResult& fit,
                                    const std::vector<NcclRun>& runs);

/// The project's YAML (projectYamlText) under the calibration's comment.
std::string calibratedProjectText(const SimulationSpec& spec, const AppliedCalibration& applied,
                                  const std::string& projectPath);

} // namespace astrolabe
