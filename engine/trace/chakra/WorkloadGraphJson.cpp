#include "trace/chakra/WorkloadGraphJson.h"

#include "core/Error.h"
#include "trace/ErrorCollector.h"

#include <algorithm>
#include <climits>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace astrolabe::chakra {
namespace {

using json = nlohmann::json;
using Attr = ChakraProtoMsg::AttributeProto;

const std::vector<std::string> kTopKeys = {"workload_graph", "workload_name", "ngpus", "soc"};
// The keys Chakra's JSON feeder reads, and involved_dim / pg_name, which the binary form has.
const std::vector<std::string> kNodeKeys = {
    "Id",       "Name",     "NodeType",    "is_cpu_op",    "runtime",       "data_deps",
    "ctrlDeps", "num_ops",  "tensor_size", "comm_type",    "comm_priority", "comm_size",
    "comm_src", "comm_dst", "comm_tag",    "involved_dim", "pg_name"};
const char* const kIntegerAttributes[] = {"num_ops",   "tensor_size", "comm_type", "comm_priority",
                                          "comm_size", "comm_src",    "comm_dst",  "comm_tag"};

/// Chakra's 32-bit attributes: a rank or a tag.
bool is32Bit(std::string_view key) {
    return key == "comm_src" || key == "comm_dst" || key == "comm_tag";
}

const char* typeOf(const json& value) {
    if (value.is_number_float())
        return "a floating-point number";
    if (value.is_number_integer() && !value.is_number_unsigned())
        return "a negative number";
    return value.type_name();
}

class GraphReader {
public:
    GraphReader(const std::string& file, ErrorCollector& errors)
        : m_file(file)
        , m_errors(errors) {}

    void checkTop(const json& document) {
        for (const auto& [key, value] : document.items())
            if (std::find(kTopKeys.begin(), kTopKeys.end(), key) == kTopKeys.end())
                unknownKey(key, kTopKeys, "");
        if (const auto it = document.find("workload_graph"); !it->is_array())
            problem("workload_graph",
                    std::string("expected an array of node objects, found ") + typeOf(*it));
        for (const char* key : {"workload_name", "soc"})
            if (const auto it = document.find(key); it != document.end() && !it->is_string())
                problem(key, std::string("expected a string, found ") + typeOf(*it));
        if (const auto it = document.find("ngpus");
            it != document.end() && !it->is_number_unsigned())
            problem("ngpus", std::string("expected a GPU count, found ") + typeOf(*it));
    }

    bool readNode(const json& element, size_t index, ChakraProtoMsg::Node& node) {
        m_where = "workload_graph[" + std::to_string(index) + "]";
        const size_t before = m_errors.size();
        if (!element.is_object()) {
            problem(m_where, std::string("expected a node object, found ") + typeOf(element));
            return false;
        }
        if (const auto id = element.find("Id"); id != element.end() && id->is_number_unsigned())
            m_where += " (node " + std::to_string(id->get<uint64_t>()) + ")";
        for (const auto& [key, value] : element.items())
            if (std::find(kNodeKeys.begin(), kNodeKeys.end(), key) == kNodeKeys.end())
                unknownKey(key, kNodeKeys, m_where + ".");
        if (const json* id = need(element, "Id"))
            node.set_id(count(*id, "Id"));
        if (const json* type = need(element, "NodeType"))
            node.set_type(static_cast<ChakraProtoMsg::NodeType>(
                std::min<uint64_t>(count(*type, "NodeType"), INT32_MAX)));
        if (const auto it = element.find("Name"); it != element.end()) {
            if (it->is_string())
                node.set_name(it->get<std::string>());
            else
                problem(m_where + ".Name", std::string("expected a string, found ") + typeOf(*it));
        }
        if (const auto it = element.find("runtime"); it != element.end())
            node.set_duration_micros(count(*it, "runtime"));
        for (const char* key : {"data_deps", "ctrlDeps"})
            if (const auto it = element.find(key); it != element.end())
                dependencies(*it, key,
                             key[0] == 'd' ? *node.mutable_data_deps() : *node.mutable_ctrl_deps());
        if (const auto it = element.find("is_cpu_op"); it != element.end()) {
            // Chakra writes true/false; 0 and 1 are read as the feeder's C++ bool would.
            if (it->is_boolean() || (it->is_number_unsigned() && it->get<uint64_t>() <= 1))
                attr(node, "is_cpu_op")
                    ->set_bool_val(it->is_boolean() ? it->get<bool>() : it->get<uint64_t>() == 1);
            else
                problem(m_where + ".is_cpu_op",
                        std::string("expected true or false, found ") + typeOf(*it));
        }
        for (const char* key : kIntegerAttributes)
            if (const auto it = element.find(key); it != element.end()) {
                const uint64_t value = count(*it, key);
                // Chakra's comm_src, comm_dst and comm_tag are 32-bit: 2^64 - 1 would be read
                // back as 4294967295.
                if (value > UINT32_MAX && is32Bit(key))
                    problem(m_where + "." + key, "expected a whole number below 2^32 (a 32-bit "
                                                 "field in Chakra), found " +
                                                     it->dump());
                attr(node, key)->set_uint64_val(value);
            }
        if (const auto it = element.find("involved_dim"); it != element.end()) {
            auto* list = attr(node, "involved_dim")->mutable_bool_list();
            if (!it->is_array())
                problem(m_where + ".involved_dim",
                        std::string("expected an array of booleans, found ") + typeOf(*it));
            else
                for (const json& b : *it) {
                    if (!b.is_boolean()) {
                        problem(m_where + ".involved_dim",
                                std::string("expected booleans, found ") + typeOf(b));
                        break;
                    }
                    list->add_values(b.get<bool>());
                }
        }
        if (const auto it = element.find("pg_name"); it != element.end()) {
            if (it->is_string())
                attr(node, "pg_name")->set_string_val(it->get<std::string>());
            else
                problem(m_where + ".pg_name",
                        std::string("expected a string, found ") + typeOf(*it));
        }
        return m_errors.size() == before;
    }

private:
    Attr* attr(ChakraProtoMsg::Node& node, const char* name) {
        Attr* a = node.add_attr();
        a->set_name(name);
        return a;
    }
    const json* need(const json& element, const char* key) {
        const auto it = element.find(key);
        if (it != element.end())
            return &*it;
        problem(m_where, std::string("the node has no \"") + key + "\"");
        return nullptr;
    }
    uint64_t count(const json& value, const char* key) {
        if (value.is_number_unsigned())
            return value.get<uint64_t>();
        problem(m_where + "." + key, std::string("expected a whole number of at least 0, found ") +
                                         typeOf(value) +
                                         (value.is_number() ? " (" + value.dump() + ")" : ""));
        return 0;
    }
    void dependencies(const json& value, const char* key,
                      google::protobuf::RepeatedField<uint64_t>& target) {
        if (!value.is_array()) {
            problem(m_where + "." + key,
                    std::string("expected an array of node Ids, found ") + typeOf(value));
            return;
        }
        for (const json& id : value)
            target.Add(count(id, key));
    }
    void unknownKey(const std::string& key, const std::vector<std::string>& valid,
                    const std::string& where) {
        const std::string close = closestMatch(key, valid);
        m_errors.add(ErrorKind::Input, m_file, where + key,
                     "unknown key \"" + key + "\"" +
                         (close.empty() ? "" : " (did you mean \"" + close + "\"?)"),
                     "keys of this format: " + joinAlternatives(valid));
    }
    void problem(const std::string& where, const std::string& message) {
        m_errors.add(ErrorKind::Input, m_file, where, message);
    }

    const std::string& m_file;
    ErrorCollector& m_errors;
    std::string m_where;
};

} // namespace

bool isWorkloadGraphJson(const json& document) {
    return document.is_object() && document.contains("workload_graph");
}

void visitWorkloadGraphJson(const json& document, const std::string& file,
                            const ChakraVisitor& visitor) {
    ErrorCollector errors;
    GraphReader reader(file, errors);
    reader.checkTop(document);
    errors.throwIfAny();
    const json& graph = document.at("workload_graph");
    if (graph.size() > kMaxNodesPerTrace)
        failTooManyNodes(file, graph.size(), false);

    ChakraProtoMsg::GlobalMetadata metadata;
    metadata.set_version("0.0.4");
    auto* schema = metadata.add_attr();
    schema->set_name("schema");
    schema->set_string_val("chakra-json");
    for (const char* key : {"workload_name", "soc"})
        if (const auto it = document.find(key); it != document.end()) {
            auto* a = metadata.add_attr();
            a->set_name(key);
            a->set_string_val(it->get<std::string>());
        }
    if (const auto it = document.find("ngpus"); it != document.end()) {
        auto* a = metadata.add_attr();
        a->set_name("ngpus");
        a->set_uint64_val(it->get<uint64_t>());
    }
    if (visitor.onMetadata)
        visitor.onMetadata(metadata);
    if (visitor.onNodeCount)
        visitor.onNodeCount(graph.size());
    ChakraProtoMsg::Node node;
    for (size_t i = 0; i < graph.size() && !errors.full(); ++i) {
        node.Clear();
        if (reader.readNode(graph[i], i, node) && visitor.onNode)
            visitor.onNode(node, i + 1, 0);
    }
    errors.throwIfAny();
}

} // namespace astrolabe::chakra
