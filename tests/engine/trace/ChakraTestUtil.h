#pragma once
// Helpers for Chakra tests: traces built message by message, in a private temp folder per test.

#include "support/TempDir.h"
#include "trace/chakra/ChakraFile.h"

#include <filesystem>
#include <string>
#include <vector>

namespace astrolabe::test {

void writeText(const std::string& path, const std::string& bytes);
std::string readText(const std::string& path);

/// varint32 length + message bytes.
std::string delimited(const google::protobuf::MessageLite& message);
/// varint32 length + raw bytes.
std::string delimitedRaw(const std::string& body);
/// A GlobalMetadata record with version "0.0.4".
std::string metadataRecord();

ChakraProtoMsg::Node makeNode(uint64_t id, ChakraProtoMsg::NodeType type,
                              std::vector<uint64_t> dataDeps = {});
void addInt(ChakraProtoMsg::Node& node, const std::string& name, int64_t value);
void addBool(ChakraProtoMsg::Node& node, const std::string& name, bool value);
ChakraProtoMsg::Node makeColl(uint64_t id, ChakraProtoMsg::CollectiveCommType type,
                              int64_t sizeBytes);
ChakraProtoMsg::Node makeSend(uint64_t id, int src, int dst, int tag, int64_t sizeBytes);
ChakraProtoMsg::Node makeRecv(uint64_t id, int src, int dst, int tag, int64_t sizeBytes);

/// Metadata record + the nodes, as one binary trace.
std::string traceBytes(const std::vector<ChakraProtoMsg::Node>& nodes);

/// gzip-compresses bytes (zlib, default level).
std::string gzip(const std::string& bytes);

} // namespace astrolabe::test
