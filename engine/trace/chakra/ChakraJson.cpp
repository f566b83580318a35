#include "trace/chakra/ChakraJson.h"

#include "core/Error.h"
#include "core/JsonKeys.h"
#include "trace/chakra/WorkloadGraphJson.h"

#include <google/protobuf/util/json_util.h>
#include <nlohmann/json.hpp>
#include <vector>

namespace astrolabe::chakra {
namespace {

namespace pbutil = google::protobuf::util;

[[noreturn]] void fail(const std::string& file, const std::string& message) {
    throw Error(ErrorKind::Input, message, SourceLocation{file, 0, 0, {}},
                "expected protobuf-JSON as chakra_jsonizer writes it: GlobalMetadata then Nodes, "
                "as consecutive objects, an array, or {\"globalMetadata\":..., \"nodes\":[...]}");
}

struct JsonValue {
    std::string_view text;
    size_t offset;
};

// Splits concatenated top-level JSON values (objects or arrays) by bracket depth, skipping
// strings. Malformed nesting is left for the real parser to report.
std::vector<JsonValue> splitTopLevel(std::string_view text, const std::string& file) {
    std::vector<JsonValue> values;
    size_t pos = 0;
    while (pos < text.size()) {
        const char c = text[pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',') {
            ++pos;
            continue;
        }
        if (c != '{' && c != '[')
            fail(file, "byte offset " + std::to_string(pos) + ": unexpected '" + std::string(1, c) +
                           "' between JSON objects");
        const size_t start = pos;
        int depth = 0;
        bool inString = false;
        for (; pos < text.size(); ++pos) {
            const char d = text[pos];
            if (inString) {
                if (d == '\\')
                    ++pos;
                else if (d == '"')
                    inString = false;
            } else if (d == '"') {
                inString = true;
            } else if (d == '{' || d == '[') {
                ++depth;
            } else if ((d == '}' || d == ']') && --depth == 0) {
                ++pos;
                break;
            }
        }
        if (depth != 0 || inString)
            fail(file, "byte offset " + std::to_string(start) +
                           ": JSON value is not closed before the end of the file");
        values.push_back({text.substr(start, pos - start), start});
    }
    return values;
}

template <typename Message>
void parseInto(std::string_view json, Message& message, const std::string& file, size_t offset,
               uint64_t record) {
    pbutil::JsonParseOptions options;
    options.ignore_unknown_fields = false;
    const auto status = pbutil::JsonStringToMessage(
        google::protobuf::StringPiece(json.data(), json.size()), &message, options);
    if (!status.ok())
        fail(file, "byte offset " + std::to_string(offset) + ", record #" + std::to_string(record) +
                       ": not a valid " + message.GetTypeName() +
                       " in protobuf-JSON: " + std::string(status.message()));
}

void visitSequence(const std::vector<JsonValue>& values, const std::string& file,
                   const ChakraVisitor& visitor) {
    if (values.empty())
        fail(file, "the JSON holds no GlobalMetadata object");
    if (values.size() - 1 > kMaxNodesPerTrace)
        failTooManyNodes(file, values.size() - 1, false);
    ChakraProtoMsg::GlobalMetadata metadata;
    parseInto(values[0].text, metadata, file, values[0].offset, 0);
    if (visitor.onMetadata)
        visitor.onMetadata(metadata);
    ChakraProtoMsg::Node node;
    for (size_t i = 1; i < values.size(); ++i) {
        node.Clear();
        parseInto(values[i].text, node, file, values[i].offset, i);
        if (visitor.onNode)
            visitor.onNode(node, i, values[i].offset);
    }
}

// Re-serialises each element of a parsed array so offsets stay approximate but parsing exact.
std::vector<std::string> elementsOf(const nlohmann::json& array) {
    std::vector<std::string> out;
    for (const auto& element : array)
        out.push_back(element.dump());
    return out;
}

} // namespace

void visitChakraJson(std::string_view text, const std::string& file, const ChakraVisitor& visitor) {
    refuseRepeatedJsonKeys(text, file); // protobuf's and nlohmann's parsers keep the last one
    const std::vector<JsonValue> top = splitTopLevel(text, file);
    if (top.size() != 1 || top[0].text.front() == '{') {
        // Shape 1, unless the single object is the {"globalMetadata", "nodes"} wrapper.
        if (top.size() == 1) {
            nlohmann::json doc = nlohmann::json::parse(top[0].text, nullptr, false);
            if (doc.is_discarded())
                fail(file, "malformed JSON (the object starting at byte offset 0 does not parse)");
            if (isWorkloadGraphJson(doc)) {
                visitWorkloadGraphJson(doc, file, visitor);
                return;
            }
            if (doc.contains("nodes") || doc.contains("globalMetadata")) {
                if (!doc.contains("globalMetadata") || !doc["globalMetadata"].is_object())
                    fail(file, "the JSON object has \"nodes\" but no \"globalMetadata\" object");
                if (doc.contains("nodes") && !doc["nodes"].is_array())
                    fail(file, "\"nodes\" must be an array of Node objects");
                std::vector<std::string> storage{doc["globalMetadata"].dump()};
                if (doc.contains("nodes"))
                    for (std::string& s : elementsOf(doc["nodes"]))
                        storage.push_back(std::move(s));
                std::vector<JsonValue> values;
                for (const std::string& s : storage)
                    values.push_back({s, top[0].offset});
                visitSequence(values, file, visitor);
                return;
            }
        }
        visitSequence(top, file, visitor);
        return;
    }
    // Shape 2: one array.
    nlohmann::json doc = nlohmann::json::parse(top[0].text, nullptr, false);
    if (doc.is_discarded())
        fail(file, "malformed JSON (the array starting at byte offset 0 does not parse)");
    const std::vector<std::string> storage = elementsOf(doc);
    std::vector<JsonValue> values;
    for (const std::string& s : storage)
        values.push_back({s, top[0].offset});
    visitSequence(values, file, visitor);
}

std::string toChakraJson(const ChakraProtoMsg::GlobalMetadata& metadata,
                         const std::vector<ChakraProtoMsg::Node>& nodes) {
    pbutil::JsonPrintOptions options;
    options.add_whitespace = false;
    options.preserve_proto_field_names = false;
    std::string out = "{\n  \"globalMetadata\": ";
    std::string piece;
    (void)pbutil::MessageToJsonString(metadata, &piece, options);
    out += piece + ",\n  \"nodes\": [";
    for (size_t i = 0; i < nodes.size(); ++i) {
        piece.clear();
        (void)pbutil::MessageToJsonString(nodes[i], &piece, options);
        out += (i ? ",\n    " : "\n    ") + piece;
    }
    out += nodes.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
}

} // namespace astrolabe::chakra
