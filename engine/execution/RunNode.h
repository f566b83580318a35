#pragma once
// What the executor keeps of a trace node for the run: the fields it reads while issuing,
// completing and reporting nodes, packed into 64 bytes instead of a WorkloadNode's 176, so that
// the caller can free the parsed traces once the executors are built (a 128-NPU training
// iteration holds 155,000 nodes through the whole run). The rare attributes (comm_priority,
// involved_dim) stay with the executor, by node.
//
// Strings are not copied per node: names go into a NamePool shared by the run's executors (the
// same layer's name repeats on every replica), pg_name becomes its communicator group id.

#include "trace/WorkloadNode.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace astrolabe {

/// Interned node names: each distinct name stored once, addressed by a dense index. Not
/// thread-safe; one run's executors are built on one thread.
class NamePool {
public:
    uint32_t intern(const std::string& name) {
        const auto [it, added] = m_index.try_emplace(name, static_cast<uint32_t>(m_names.size()));
        if (added)
            m_names.push_back(&it->first); // node-based map: the key does not move
        return it->second;
    }
    const std::string& at(uint32_t index) const { return *m_names[index]; }

private:
    std::unordered_map<std::string, uint32_t> m_index;
    std::vector<const std::string*> m_names;
};

struct RunNode {
    uint64_t id = 0;
    uint64_t durationMicros = 0;
    uint64_t numOps = 0;
    uint64_t tensorSize = 0;
    uint64_t commSize = 0;
    uint32_t commSrc = 0;
    uint32_t commDst = 0;
    uint32_t commTag = 0;
    uint32_t name = 0; ///< index into the run's NamePool
    int32_t group = 0; ///< communicatorGroupId(pg_name): -1 when pg_name names no group
    NodeType type = NodeType::Invalid;
    CollectiveType commType = CollectiveType::AllReduce;
    bool isCpuOp : 1 = false;
    bool hasNumOps : 1 = false;
    bool hasTensorSize : 1 = false;
    bool hasCommType : 1 = false;
    bool hasCommSize : 1 = false;
    bool hasCommSrc : 1 = false;
    bool hasCommDst : 1 = false;
    bool hasCommTag : 1 = false;

    RunNode() = default;
    RunNode(const WorkloadNode& node, NamePool& names)
        : id(node.id)
        , durationMicros(node.durationMicros)
        , numOps(node.numOps)
        , tensorSize(node.tensorSize)
        , commSize(node.commSize)
        , commSrc(node.commSrc)
        , commDst(node.commDst)
        , commTag(node.commTag)
        , name(names.intern(node.name))
        , group(communicatorGroupId(node.pgName))
        , type(node.type)
        , commType(node.commType)
        , isCpuOp(node.isCpuOp)
        , hasNumOps(node.hasNumOps)
        , hasTensorSize(node.hasTensorSize)
        , hasCommType(node.hasCommType)
        , hasCommSize(node.hasCommSize)
        , hasCommSrc(node.hasCommSrc)
        , hasCommDst(node.hasCommDst)
        , hasCommTag(node.hasCommTag) {}
};
static_assert(sizeof(RunNode) <= 64, "RunNode is held per node for the whole run");

/// How long a node replays (replayDuration of trace/WorkloadNode.h, on the packed node).
inline SimTime replayDuration(const RunNode& node) {
    return replayDurationOf(node.durationMicros);
}

} // namespace astrolabe
