#pragma once
// SEAM: how the GUI reads and writes projects and imports ASTRA-sim inputs. The GUI only calls
// these functions; defaultProjectIo() (ProjectIo.cpp) is the one place where the config/
// loaders are wired in (config::loadProject / saveProject and the ASTRA-sim importer).
// Each function throws astrolabe::Error on failure; the GUI shows its message.

#include "spec/SimulationSpec.h"

#include <QString>
#include <functional>
#include <string>
#include <vector>

namespace astrolabe::gui {

/// The files of an ASTRA-sim 2.x invocation (empty = not given).
struct AstraImportRequest {
    QString networkYaml;      ///< --network-configuration
    QString systemJson;       ///< --system-configuration
    QString remoteMemoryJson; ///< --remote-memory-configuration
    QString workloadPrefix;   ///< --workload-configuration (Chakra ET prefix)
    QString commGroupJson;    ///< --comm-group-configuration
};

struct ProjectIo {
    /// Reads a project; its warnings (keys that do nothing, those of the files it names) are
    /// appended to `warnings` when not null.
    std::function<SimulationSpec(const std::string& path, std::vector<std::string>* warnings)> load;
    std::function<void(const SimulationSpec& spec, const std::string& path)> save;
    std::function<SimulationSpec(const AstraImportRequest& request)> importAstra;
};

/// The production implementation (see ProjectIo.cpp).
ProjectIo defaultProjectIo();

} // namespace astrolabe::gui
