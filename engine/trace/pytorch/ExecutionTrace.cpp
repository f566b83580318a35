#include "trace/pytorch/ExecutionTrace.h"

#include "core/Error.h"
#include "core/InputFile.h"
#include "trace/ErrorCollector.h"
#include "trace/kineto/KinetoTrace.h"

#include <map>
#include <nlohmann/json.hpp>

namespace astrolabe::pytorch {
namespace {

using json = nlohmann::json;

// attrs: [{"name": "rf_id", "type": "uint64", "value": 7}, ...]
const json* attribute(const json& node, const char* name) {
    const auto attrs = node.find("attrs");
    if (attrs == node.end() || !attrs->is_array())
        return nullptr;
    for (const json& a : *attrs)
        if (a.is_object() && a.contains("name") && a["name"] == name && a.contains("value"))
            return &a["value"];
    return nullptr;
}

// The older layout keeps the same fields as keys of the node.
const json* field(const json& node, const char* name) {
    if (const auto it = node.find(name); it != node.end())
        return &*it;
    return attribute(node, name);
}

} // namespace

ExecutionTrace parseExecutionTrace(std::string_view text, const std::string& file) {
    const json document =
        kineto::parseTraceJson(text, file,
                               "an execution trace is the JSON ExecutionTraceObserver "
                               "writes; was the file cut short?");
    if (!document.is_object() || !document.contains("nodes") || !document["nodes"].is_array())
        throw Error(ErrorKind::Input, "no \"nodes\" array", SourceLocation{file, 0, 0, "nodes"},
                    "expected PyTorch's execution trace: {\"schema\": ..., \"nodes\": [...]}");
    ExecutionTrace trace;
    trace.file = file;
    if (const auto s = document.find("schema"); s != document.end() && s->is_string())
        trace.schema = s->get<std::string>();
    ErrorCollector errors;
    std::map<uint64_t, size_t> seen; // id -> index
    const json& nodes = document["nodes"];
    for (size_t i = 0; i < nodes.size() && !errors.full(); ++i) {
        const json& n = nodes[i];
        const std::string where = "nodes[" + std::to_string(i) + "]";
        if (!n.is_object()) {
            errors.add(ErrorKind::Input, file, where,
                       std::string("expected a node object, found ") + n.type_name());
            continue;
        }
        EtOperator op;
        op.index = i;
        const auto id = n.find("id");
        const auto name = n.find("name");
        if (name != n.end() && name->is_string())
            op.name = name->get<std::string>();
        const std::string label =
            where + (op.name.empty() ? "" : " (\"" + op.name.substr(0, 80) + "\")");
        if (id == n.end() || !id->is_number_unsigned()) {
            errors.add(ErrorKind::Input, file, label,
                       "\"id\" must be a whole number of at least 0");
            continue;
        }
        op.id = id->get<uint64_t>();
        if (name == n.end() || !name->is_string()) {
            errors.add(ErrorKind::Input, file, label,
                       "node " + std::to_string(op.id) + " has no \"name\" string");
            continue;
        }
        if (const auto [it, added] = seen.try_emplace(op.id, i); !added) {
            errors.add(ErrorKind::Input, file, label,
                       "node id " + std::to_string(op.id) + " is used twice: here and at nodes[" +
                           std::to_string(it->second) + "] (node ids may not be reused)");
            continue;
        }
        const json* parent = n.contains("ctrl_deps") ? &n["ctrl_deps"] : field(n, "parent");
        if (parent && parent->is_number_integer())
            op.parent = parent->get<int64_t>();
        if (const json* rf = field(n, "rf_id"); rf && rf->is_number_integer())
            op.rfId = rf->get<int64_t>();
        if (const json* tid = field(n, "tid"); tid && tid->is_number_integer())
            op.thread = tid->get<int64_t>();
        trace.nodes.push_back(std::move(op));
    }
    errors.throwIfAny();
    return trace;
}

ExecutionTrace readExecutionTrace(const std::string& path) {
    return parseExecutionTrace(readInputFile(path, "the execution trace"), path);
}

bool looksLikeExecutionTrace(std::string_view head) {
    return head.find("\"workload_graph\"") == std::string_view::npos &&
           head.find("\"nodes\"") != std::string_view::npos &&
           head.find("\"schema\"") != std::string_view::npos &&
           head.find("\"globalMetadata\"") == std::string_view::npos;
}

} // namespace astrolabe::pytorch
