#include "trace/WorkloadNode.h"

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

const char* collectiveTypeName(CollectiveType type) {
    switch (type) {
    case CollectiveType::AllReduce:
        return "ALL_REDUCE";
    case CollectiveType::Reduce:
        return "REDUCE";
    case CollectiveType::AllGather:
        return "ALL_GATHER";
    case CollectiveType::Gather:
        return "GATHER";
    case CollectiveType::Scatter:
        return "SCATTER";
    case CollectiveType::Broadcast:
        return "BROADCAST";
    case CollectiveType::AllToAll:
        return "ALL_TO_ALL";
    case CollectiveType::ReduceScatter:
        return "REDUCE_SCATTER";
    case CollectiveType::ReduceScatterBlock:
        return "REDUCE_SCATTER_BLOCK";
    case CollectiveType::Barrier:
        return "BARRIER";
    }
    return "UNKNOWN";
}

} // namespace astrolabe
