#pragma once
// A Chakra execution trace held as its protobuf messages, for exact round trips, and the
// conversion between those messages and the plain WorkloadTrace the engine runs.
//
// This is the only public header that includes protobuf; everything else in Astrolabe uses
// WorkloadNode.h and TraceIo.h.

#include "et_def.pb.h"
#include "trace/WorkloadNode.h"
#include "trace/chakra/ChakraRecords.h"

#include <string>
#include <vector>

namespace astrolabe {

class ErrorCollector;

struct ChakraFile {
    ChakraProtoMsg::GlobalMetadata metadata;
    std::vector<ChakraProtoMsg::Node> nodes;
    chakra::ChakraEncoding encoding = chakra::ChakraEncoding::Binary; ///< as read
};

/// Reads binary, gzip-compressed or protobuf-JSON traces (see ChakraJson.h for the JSON shapes).
/// Throws Error (kind Input) naming the file, byte offset and record index of the first problem.
ChakraFile readChakraFile(const std::string& path);
/// The same from bytes already in memory (gzip not inflated here); `file` is used in messages.
ChakraFile parseChakraBytes(std::string_view bytes, const std::string& file);

/// Writes the binary, uncompressed, length-delimited form. Throws Error (Input) when the file
/// cannot be written.
void writeChakraFile(const std::string& path, const ChakraFile& file);
std::string serializeChakraFile(const ChakraFile& file);
/// Writes {"globalMetadata": ..., "nodes": [...]} protobuf-JSON.
void writeChakraJsonFile(const std::string& path, const ChakraFile& file);

/// Decodes one Node per spec §1.4 (feeder-v3 conversion rules). Problems (unknown node type,
/// a floating-point value where an integer is read, involved_dim not a bool_list, ...) go to
/// `errors`, each naming the file, the node id and the attribute. With `readTensors` the
/// "inputs" / "outputs" attributes (track-local-mem) are read into WorkloadNode::inputs/outputs;
/// without it they are skipped, as ASTRA-sim ignores them when tracking is off.
WorkloadNode decodeNode(const ChakraProtoMsg::Node& node, const std::string& file,
                        ErrorCollector& errors, bool readTensors = false);
/// "schema" attribute if present, else GlobalMetadata.version.
std::string schemaVersionOf(const ChakraProtoMsg::GlobalMetadata& metadata);
/// The schema version and the measured span (start_ts / finish_ts) into `trace`.
void readMetadata(const ChakraProtoMsg::GlobalMetadata& metadata, WorkloadTrace& trace);

/// Decodes a whole file; throws ErrorList with every problem found (capped at 50).
WorkloadTrace decodeChakraFile(const ChakraFile& file, const std::string& path,
                               bool readTensors = false);

/// The canonical encoding (spec §1.4 "canonical writer type"): version "0.0.4", is_cpu_op as
/// bool_val, comm_type/comm_size/num_ops as int64_val, tensor_size as uint64_val, comm_src/
/// comm_dst/comm_tag/comm_priority as int32_val, involved_dim as bool_list, pg_name as
/// string_val. Optional attributes are written only when present (has* flags, non-default
/// values); is_cpu_op is always written, as upstream's generators do.
ChakraProtoMsg::Node encodeNode(const WorkloadNode& node);
ChakraFile encodeWorkloadTrace(const WorkloadTrace& trace);

} // namespace astrolabe
