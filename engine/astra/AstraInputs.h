#pragma once
// ASTRA-sim 2.x command-line inputs -> one validated SimulationSpec (workload kind ChakraTrace).

#include "spec/SimulationSpec.h"

#include <string>
#include <vector>

namespace astrolabe {

/// The values of ASTRA-sim's analytical binary flags (spec §3, "Command-line options").
struct AstraInputs {
    std::string workloadPrefix;          ///< --workload-configuration: NPU i reads PREFIX.i.et
    std::string systemFile;              ///< --system-configuration (JSON)
    std::string networkFile;             ///< --network-configuration (YAML)
    std::string remoteMemoryFile;        ///< --remote-memory-configuration; empty = no expansion
    std::string commGroupFile = "empty"; ///< --comm-group-configuration; "empty" = none
    int numQueuesPerDim = 1;             ///< --num-queues-per-dim, >= 1
    double injectionScale = 1.0;         ///< --injection-scale, > 0; multiplies endpoint-delay
    bool rendezvousProtocol = false;     ///< --rendezvous-protocol
    NetworkBackend backend = NetworkBackend::CongestionUnaware;
};

/// Reads every file, checks them against each other (algorithm lists vs dimensions,
/// communicator group ranks and trace files vs NPU count) and throws one ErrorList with all the
/// problems of all files. Warnings (keys ASTRA-sim ignores) go to `warnings` when not null.
SimulationSpec loadAstraInputs(const AstraInputs& inputs,
                               std::vector<std::string>* warnings = nullptr);

/// The GUI's "Import ASTRA-sim configuration": the same as loadAstraInputs.
inline SimulationSpec importAstraConfiguration(const AstraInputs& inputs,
                                               std::vector<std::string>* warnings = nullptr) {
    return loadAstraInputs(inputs, warnings);
}

} // namespace astrolabe
