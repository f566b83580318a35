#pragma once
// Chakra's JSON text format, the one its JSON feeder reads:
//
//   {"workload_graph": [{"Id": 216, "Name": "aten::mul", "NodeType": 4, "is_cpu_op": true,
//                        "runtime": 318, "data_deps": [215], "ctrlDeps": [3]}, ...],
//    "workload_name": "...", "ngpus": 8, "soc": "..."}
//
// Each element becomes the protobuf Node the binary form would hold (runtime is
// duration_micros; num_ops, tensor_size, comm_* , involved_dim and pg_name become attributes of
// the same name), so that everything after reading, validation included, is shared.

#include "trace/chakra/ChakraRecords.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace astrolabe::chakra {

/// True when `document` is this format (an object with a "workload_graph" key).
bool isWorkloadGraphJson(const nlohmann::json& document);

/// Hands GlobalMetadata, then one Node per element, to the visitor. Every shape problem (an
/// unknown key, a wrong type, a negative number, a missing Id or NodeType) is collected, each
/// naming the element index and node Id, and thrown together as ErrorList (kind Input).
void visitWorkloadGraphJson(const nlohmann::json& document, const std::string& file,
                            const ChakraVisitor& visitor);

} // namespace astrolabe::chakra
