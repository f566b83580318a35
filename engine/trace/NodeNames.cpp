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

} // namespace astrolabe
