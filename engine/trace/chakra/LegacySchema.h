#pragma once
// Recognises Chakra schema generations older than the current one (spec §1.6) from the wire shape
// of a trace's first records, without any of the old .proto files.
//
//   eg_def / 0.0.1  no GlobalMetadata record; Node has first-class fields (comm_type = 13, ...)
//   0.0.2           no GlobalMetadata record; Node.attribute = 11 (typed AttributeProto)
//   0.0.3           GlobalMetadata{repeated attribute = 1}; Node.attribute = 11
//   0.0.4 preview   GlobalMetadata{repeated attr = 1}, nodes as today (proto3, autumn 2023):
//                   imported, because only the metadata record differs
//   0.0.4 / 1.0.0   current: GlobalMetadata{version = 1, attr = 2}

#include <functional>
#include <string>
#include <string_view>

namespace astrolabe::chakra {

enum class SchemaShape {
    Current,
    MetadataAttrList, ///< importable: record 0 holds repeated AttributeProto in field 1
    Unsupported,      ///< an older generation; `generation` names it
    NotChakra,        ///< record 0 does not even scan as protobuf
};

struct SchemaProbe {
    SchemaShape shape = SchemaShape::Current;
    std::string generation; ///< "eg_def / 0.0.1", "0.0.2", "0.0.3" for Unsupported
    std::string evidence;   ///< which wire feature decided it, for the error message
};

/// record1 may be empty when the file holds a single record.
SchemaProbe probeSchema(std::string_view record0, std::string_view record1);

/// Calls visit(fieldNumber, wireType, payload) for each top-level field of a serialized message;
/// payload is the varint/fixed bytes or the length-delimited body. Returns false when the bytes
/// are not a well-formed message (bad wire type, truncated field).
bool scanWireFields(std::string_view message,
                    const std::function<void(int, int, std::string_view)>& visit);

} // namespace astrolabe::chakra
