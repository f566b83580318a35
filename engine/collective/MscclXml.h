#pragma once
// Custom collectives written as MSCCL-IR XML (the msccl-tools output ASTRA-sim's collectiveapi
// converts to Chakra), turned into one WorkloadTrace per GPU with the converter's rules
// (spec §7.4, the 2024 converter that produced ASTRA-sim's bundled example):
//
//   chunk = collective bytes / i_chunks (o_chunks when i_chunks is 0; all of it for all-gather)
//   step "s"   -> COMM_SEND of chunk * cnt bytes to the threadblock's send peer, tag = channel
//   step "r"   -> COMM_RECV from the threadblock's recv peer
//   step "rrc" -> COMM_RECV, then a COMP of floor(3 * floor(bytes / 50) / 1000) us depending on it
//   step "nop" -> no node; its dependency passes to the next step
//   each step depends on the previous step of its threadblock and on step `deps` of threadblock
//   `depid` when depid != -1. Node ids restart at 0 in every GPU's trace.

#include "trace/WorkloadNode.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe {

struct MscclAlgorithm {
    std::string name;
    std::string collective; ///< "allreduce", "allgather", ...
    int gpuCount = 0;
    std::vector<WorkloadTrace> traces; ///< one per GPU, in id order
};

/// Reads the XML file and converts it for a collective of `collectiveBytes`. Throws
/// astrolabe::Error naming the file, line and element on malformed input.
MscclAlgorithm loadMscclXml(const std::string& path, uint64_t collectiveBytes);
MscclAlgorithm parseMscclXml(const std::string& text, const std::string& fileName,
                             uint64_t collectiveBytes);

} // namespace astrolabe
