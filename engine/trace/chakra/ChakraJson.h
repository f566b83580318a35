#pragma once
// Chakra traces in protobuf-JSON (camelCase keys, enum names as strings, 64-bit integers as
// strings), the form chakra_jsonizer writes. Three top-level shapes are read:
//
//   1. a sequence of objects, GlobalMetadata first, then one object per Node (chakra_jsonizer's
//      output: concatenated objects, optionally separated by blanks or newlines);
//   2. an array of such objects: [ {GlobalMetadata}, {Node}, ... ];
//   3. one object {"globalMetadata": {...}, "nodes": [ {...}, ... ]} (what we write);
//   4. Chakra's JSON text format {"workload_graph": [...]} (WorkloadGraphJson.h).
//
// Unknown keys and unknown enum names are errors, as in the binary reader.

#include "trace/chakra/ChakraRecords.h"

#include <string>
#include <string_view>

namespace astrolabe::chakra {

void visitChakraJson(std::string_view text, const std::string& file, const ChakraVisitor& visitor);

/// Shape 3, pretty-printed.
std::string toChakraJson(const ChakraProtoMsg::GlobalMetadata& metadata,
                         const std::vector<ChakraProtoMsg::Node>& nodes);

} // namespace astrolabe::chakra
