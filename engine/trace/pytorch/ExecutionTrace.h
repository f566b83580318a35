#pragma once
// PyTorch's execution trace: the JSON that torch.profiler.ExecutionTraceObserver writes,
// {"schema": "1.0.2-chakra.0.0.4", "pid": .., "nodes": [{"id", "name", "ctrl_deps", "inputs",
// "outputs", "attrs": [{"name": "rf_id", "value": ..}, ..]}, ..], ..}. The older layout
// (schema 1.0.1: "parent", "rf_id" and "tid" as keys of the node) is read too. Only what the
// linker needs is kept: each operator's id, name, parent and record-function id.
//
// Every node is checked: a node that is not an object, lacks an id or a name, or reuses an id,
// is an error naming its index in "nodes" (and its id and name where it has them). All
// problems are collected and thrown as one ErrorList.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe::pytorch {

struct EtOperator {
    uint64_t id = 0;
    std::string name;
    int64_t parent = -1; ///< ctrl_deps (or "parent"): the enclosing node; -1 when absent
    int64_t rfId = -1;   ///< record-function id (attrs rf_id): the key into the Kineto trace
    int64_t thread = -1; ///< attrs tid (the observer's own thread numbering)
    size_t index = 0;    ///< position in "nodes", for messages
};

struct ExecutionTrace {
    std::string file;
    std::string schema;
    std::vector<EtOperator> nodes; ///< in file order
};

/// Parses the JSON text; `file` names it in messages. Throws Error / ErrorList (kind Input).
ExecutionTrace parseExecutionTrace(std::string_view text, const std::string& file);
/// Reads the file (regular file, text size limit) and parses it.
ExecutionTrace readExecutionTrace(const std::string& path);
/// True when the top of a JSON text looks like an execution trace: "schema" and "nodes"
/// without Chakra's "globalMetadata" or "workload_graph".
bool looksLikeExecutionTrace(std::string_view head);

} // namespace astrolabe::pytorch
