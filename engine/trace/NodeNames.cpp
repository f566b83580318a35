#include "trace/WorkloadNode.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace astrolabe {

const char* nodeTypeName(NodeType type) {
    switch (type) {
    case NodeType::Invalid:
        return "INVALID_NODE";
    case NodeType::Metadata:
        return "METADATA_NODE";
    case NodeType::MemLoad:
        return "MEM_LOAD_NODE";
    case NodeType::MemStore:
        return "MEM_STORE_NODE";
    case NodeType::Comp:
        return "COMP_NODE";
    case NodeType::CommSend:
        return "COMM_SEND_NODE";
    case NodeType::CommRecv:
        return "COMM_RECV_NODE";
    case NodeType::CommColl:
        return "COMM_COLL_NODE";
    }
    return "UNKNOWN_NODE";
}

namespace {

// Lower case without '_', ':' and blanks, and whether the name is NCCL's or c10d's at all: a
// collective is only read from those, so that "aten::scatter_add" stays a compute operator.
std::string communicationKey(std::string_view name, bool& fromLibrary) {
    std::string key;
    key.reserve(name.size());
    for (char c : name)
        if (c != '_' && c != ':' && c != ' ')
            key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    fromLibrary = key.find("nccl") != std::string::npos || key.find("c10d") != std::string::npos;
    return key;
}

} // namespace

std::optional<CollectiveType> collectiveTypeFromName(std::string_view name) {
    bool fromLibrary = false;
    const std::string key = communicationKey(name, fromLibrary);
    if (!fromLibrary)
        return std::nullopt;
    // The collectives' own names without '_' ("reducescatter"), longer first: "reducescatter"
    // holds "reduce" and "scatter", "allgather" holds "gather".
    static const std::vector<std::pair<std::string, CollectiveType>> kKeys = [] {
        std::vector<std::pair<std::string, CollectiveType>> keys;
        for (const CollectiveNames& c : kCollectives) {
            std::string k;
            for (const char* p = c.snake; *p; ++p)
                if (*p != '_')
                    k.push_back(*p);
            keys.emplace_back(std::move(k), c.type);
        }
        std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
            return a.first.size() > b.first.size();
        });
        return keys;
    }();
    for (const auto& [text, type] : kKeys)
        if (key.find(text) != std::string::npos)
            return type;
    return std::nullopt;
}

bool isPointToPointName(std::string_view name) {
    bool fromLibrary = false;
    const std::string key = communicationKey(name, fromLibrary);
    return fromLibrary && !collectiveTypeFromName(name) &&
           (key.find("send") != std::string::npos || key.find("recv") != std::string::npos);
}

const char* assumptionName(Assumption kind) {
    switch (kind) {
    case Assumption::AbsentParent:
        return "absent-parent";
    case Assumption::SelfDependency:
        return "self-dependency";
    case Assumption::CycleBroken:
        return "cycle-broken";
    case Assumption::HostCollective:
        return "host-collective";
    case Assumption::CollectiveFromName:
        return "collective-from-name";
    case Assumption::BarrierAsAllReduce:
        return "barrier-as-all-reduce";
    case Assumption::BroadcastSizeless:
        return "broadcast-without-size";
    case Assumption::SingleNpuCollective:
        return "single-npu-collective";
    }
    return "unknown";
}

const char* assumptionText(Assumption kind) {
    switch (kind) {
    case Assumption::AbsentParent:
        return "dependencies on nodes absent from the file, counted as met";
    case Assumption::SelfDependency:
        return "nodes listed as their own parent, that dependency dropped";
    case Assumption::CycleBroken:
        return "dependencies on a later node (larger id) that closed a cycle, dropped";
    case Assumption::HostCollective:
        return "CPU-side collective calls (is_cpu_op) run as host operators for their measured "
               "duration";
    case Assumption::CollectiveFromName:
        return "collectives without comm_type, the type taken from the c10d / NCCL name";
    case Assumption::BarrierAsAllReduce:
        return "barriers run as an all-reduce of their comm_size (1 byte when absent)";
    case Assumption::BroadcastSizeless:
        return "broadcasts without comm_size, replayed from their measured duration as every "
               "broadcast is";
    case Assumption::SingleNpuCollective:
        return "collectives on a 1-NPU platform, replayed from their measured duration";
    }
    return "unknown";
}

} // namespace astrolabe
