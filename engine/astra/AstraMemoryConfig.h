#pragma once
// ASTRA-sim remote memory JSON (spec §6.1) and communicator groups JSON (spec §2.8).

#include "spec/MemoryConfig.h"
#include "spec/MemoryNames.h"
#include "spec/SimulationSpec.h"

#include <string>
#include <vector>

namespace astrolabe {

/// Reads a remote memory JSON. "memory-type" is required; an expanded memory needs
/// "remote-mem-bw" > 0; PER_NODE needs num-nodes and num-npus-per-node > 0. Fractional latency
/// and bandwidth are truncated, as upstream stores them in integers. Unknown keys are warnings.
RemoteMemoryConfig loadAstraRemoteMemoryJson(const std::string& path,
                                             std::vector<std::string>* warnings = nullptr);
RemoteMemoryConfig parseAstraRemoteMemoryJson(const std::string& text, const std::string& fileName,
                                              std::vector<std::string>* warnings = nullptr);

/// True for the paths ASTRA-sim treats as "no file": empty, or containing "empty" (the
/// flag's default value is the literal "empty").
bool isEmptyCommGroupPath(const std::string& path);

/// Reads {"1": [0, 1, 2, 3], "2": [4, 5, 6, 7]}. Group ids are decimal integers > 0 (0 means all
/// NPUs and is reserved); members are distinct ranks >= 0 in the listed order (which is the ring
/// order). Returns no groups for isEmptyCommGroupPath(path). Ranks are checked against the NPU
/// count by validateCommGroups, once the platform is known.
CommGroups loadCommGroupsJson(const std::string& path);
CommGroups parseCommGroupsJson(const std::string& text, const std::string& fileName);

/// Every rank must be < npuCount. Throws ErrorList naming group and index ("3[2]").
void validateCommGroups(const CommGroups& groups, int npuCount, const std::string& sourceFile = {});

} // namespace astrolabe
