#pragma once
// Reading and writing one NPU's Chakra execution trace as a plain WorkloadTrace (no protobuf
// types in this header). Loading a whole workload with cross-rank validation: WorkloadLoader.h.

#include "trace/WorkloadNode.h"

#include <string>

namespace astrolabe {

/// Reads binary, gzip or protobuf-JSON; throws ErrorList naming file, node id and attribute
/// for every problem found (capped at 50). `readTensors` also reads the "inputs" / "outputs"
/// tensor lists (track-local-mem), whose malformed values are then errors too.
WorkloadTrace readWorkloadTrace(const std::string& path, bool readTensors = false);

/// Writes the binary form with canonical attribute types (see encodeWorkloadTrace).
void writeWorkloadTrace(const std::string& path, const WorkloadTrace& trace);

} // namespace astrolabe
