#pragma once
// The byte level of a Chakra trace: file bytes (gzip inflated), length-delimited framing, and the
// choice between binary and protobuf-JSON. Callers see whole protobuf messages, one at a time, so
// a large trace never needs all its Node messages in memory at once.
//
// Every error is an astrolabe::Error (kind Input) naming the file, the byte offset and the
// record index where reading stopped.

#include "et_def.pb.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace astrolabe::chakra {

enum class ChakraEncoding {
    Binary, ///< varint32-length-delimited protobuf records
    Gzip,   ///< the same, gzip-compressed (magic 1f 8b)
    Json,   ///< protobuf-JSON as chakra_jsonizer writes it
};
const char* encodingName(ChakraEncoding encoding);

/// Node records one trace may hold. The largest real per-rank traces have a few hundred thousand
/// nodes; each decoded node takes about 250 bytes, so a trace at the limit needs about 1 GiB.
/// Beyond it the trace is refused before any node is decoded (docs/limits.md).
inline constexpr uint64_t kMaxNodesPerTrace = uint64_t{1} << 22;
/// The error for a trace with `count` node records (count > kMaxNodesPerTrace).
[[noreturn]] void failTooManyNodes(const std::string& file, uint64_t count, bool atLeast);

/// The file's bytes, gzip-inflated when they start with 1f 8b. Throws Error (Input).
std::string loadTraceBytes(const std::string& path, ChakraEncoding* encoding = nullptr);
/// The same for bytes already in memory; `file` names them in messages.
std::string inflateTraceBytes(std::string bytes, const std::string& file,
                              ChakraEncoding* encoding = nullptr);

/// Receives the records of one trace in file order. `node` is reused between calls: copy or move
/// out what you keep. recordIndex counts from 0 (the GlobalMetadata record); byteOffset is where
/// the record's length prefix starts (JSON: where the object starts).
struct ChakraVisitor {
    std::function<void(ChakraProtoMsg::GlobalMetadata& metadata)> onMetadata;
    /// Binary traces only: called once before the first node with the number of node records.
    std::function<void(size_t nodeCount)> onNodeCount;
    std::function<void(ChakraProtoMsg::Node& node, uint64_t recordIndex, uint64_t byteOffset)>
        onNode;
};

/// Decodes in-memory (already inflated) bytes. `file` names the source in error messages.
/// Detects JSON by its first non-blank characters, and older schema generations (spec §1.6) by
/// the wire shape of the first records: those are either imported or rejected with their name.
/// Returns the encoding found (Binary or Json).
ChakraEncoding visitChakraBytes(std::string_view bytes, const std::string& file,
                                const ChakraVisitor& visitor);

/// loadTraceBytes + visitChakraBytes.
ChakraEncoding visitChakraFile(const std::string& path, const ChakraVisitor& visitor);

/// Appends varint32(length) + the serialized message.
void appendDelimited(std::string& out, const google::protobuf::MessageLite& message);

} // namespace astrolabe::chakra
