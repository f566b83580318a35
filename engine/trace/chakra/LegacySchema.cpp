#include "trace/chakra/LegacySchema.h"

#include <cstdint>
#include <map>

namespace astrolabe::chakra {
namespace {

enum WireType { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

bool readVarint(std::string_view bytes, size_t& pos, uint64_t& value) {
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= bytes.size())
            return false;
        const auto byte = static_cast<uint8_t>(bytes[pos++]);
        value |= uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return false;
}

// Wire types seen per field number (bit i set = wire type i occurred).
std::map<int, unsigned> fieldShape(std::string_view message, bool& wellFormed) {
    std::map<int, unsigned> shape;
    wellFormed = scanWireFields(
        message, [&](int field, int wire, std::string_view) { shape[field] |= 1u << wire; });
    return shape;
}

bool has(const std::map<int, unsigned>& shape, int field, int wire) {
    const auto it = shape.find(field);
    return it != shape.end() && (it->second & (1u << wire));
}

} // namespace

bool scanWireFields(std::string_view message,
                    const std::function<void(int, int, std::string_view)>& visit) {
    size_t pos = 0;
    while (pos < message.size()) {
        uint64_t tag = 0;
        if (!readVarint(message, pos, tag))
            return false;
        const int field = static_cast<int>(tag >> 3);
        const int wire = static_cast<int>(tag & 7);
        if (field <= 0 || tag > 0xffffffffu)
            return false;
        const size_t start = pos;
        switch (wire) {
        case kVarint: {
            uint64_t ignored = 0;
            if (!readVarint(message, pos, ignored))
                return false;
            visit(field, wire, message.substr(start, pos - start));
            break;
        }
        case kFixed64:
        case kFixed32: {
            const size_t width = wire == kFixed64 ? 8 : 4;
            if (message.size() - pos < width)
                return false;
            pos += width;
            visit(field, wire, message.substr(start, width));
            break;
        }
        case kLengthDelimited: {
            uint64_t length = 0;
            if (!readVarint(message, pos, length) || length > message.size() - pos)
                return false;
            visit(field, wire, message.substr(pos, length));
            pos += length;
            break;
        }
        default:
            return false; // groups (3, 4) were never used by Chakra; 6, 7 do not exist
        }
    }
    return true;
}

SchemaProbe probeSchema(std::string_view record0, std::string_view record1) {
    bool wellFormed = true;
    const auto meta = fieldShape(record0, wellFormed);
    if (!wellFormed)
        return {SchemaShape::NotChakra, {}, "record 0 is not a protobuf message"};

    // Record 0 is a Node (its id is a varint in field 1): generations before GlobalMetadata.
    if (has(meta, 1, kVarint)) {
        if (has(meta, 11, kLengthDelimited))
            return {SchemaShape::Unsupported, "0.0.2",
                    "record 0 is a Node with a typed 'attribute' list (field 11) and no "
                    "GlobalMetadata record precedes it"};
        for (int field : {12, 13, 14, 15, 16, 17, 18, 19, 20})
            if (meta.count(field))
                return {SchemaShape::Unsupported, "eg_def / 0.0.1",
                        "record 0 is a Node with first-class communication fields (field " +
                            std::to_string(field) + ") and no GlobalMetadata record precedes it"};
        return {SchemaShape::Unsupported, "0.0.1 or 0.0.2",
                "record 0 is a Node (a varint id in field 1), not the GlobalMetadata record every "
                "current trace starts with"};
    }

    // Field 1 holding a message (its first byte is the tag of AttributeProto.name) rather than a
    // version string: the metadata is a list of attributes, as in 0.0.3 and the proto3 preview.
    bool attributeList = false;
    if (has(meta, 1, kLengthDelimited) && !meta.count(2)) {
        attributeList = true;
        scanWireFields(record0, [&](int field, int, std::string_view payload) {
            bool ok = true;
            if (field != 1 || payload.empty() || payload[0] != 0x0a ||
                (fieldShape(payload, ok), !ok))
                attributeList = false;
        });
    }
    if (!attributeList)
        return {SchemaShape::Current, {}, {}};

    // 0.0.3 nodes keep proto2 string fields 5..7 and the typed 'attribute' list in field 11;
    // current nodes have packed deps in 4/5, varint times in 6/7 and 'attr' in field 10.
    const auto node = fieldShape(record1, wellFormed);
    if (wellFormed && (has(node, 11, kLengthDelimited) || has(node, 6, kLengthDelimited) ||
                       has(node, 7, kLengthDelimited)))
        return {SchemaShape::Unsupported, "0.0.3",
                "GlobalMetadata holds a repeated attribute list and nodes carry the typed "
                "'attribute' field 11"};
    return {SchemaShape::MetadataAttrList, {}, {}};
}

} // namespace astrolabe::chakra
