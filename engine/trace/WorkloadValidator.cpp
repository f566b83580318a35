#include "trace/WorkloadValidator.h"

#include "core/Collectives.h"
#include "trace/ErrorCollector.h"
#include "trace/NodeIndex.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace astrolabe {
namespace {

std::string nodeWhere(const WorkloadNode& node) {
    return "node " + std::to_string(node.id) + (node.name.empty() ? "" : " \"" + node.name + "\"");
}

void nodeError(ErrorCollector& errors, ErrorKind kind, const WorkloadTrace& trace,
               const WorkloadNode& node, const std::string& message, const std::string& hint = {}) {
    errors.add(kind, trace.file, nodeWhere(node), message, hint);
}

void requireAttributes(const WorkloadTrace& trace, const WorkloadNode& node,
                       const LoadOptions& options, ErrorCollector& errors) {
    std::vector<std::string> missing;
    auto need = [&](bool present, const char* name) {
        if (!present)
            missing.emplace_back(name);
    };
    switch (node.type) {
    case NodeType::CommColl:
        need(node.hasCommType, "comm_type");
        need(node.hasCommSize, "comm_size");
        break;
    case NodeType::CommSend:
        need(node.hasCommDst, "comm_dst");
        need(node.hasCommTag, "comm_tag");
        need(node.hasCommSize, "comm_size");
        break;
    case NodeType::CommRecv:
        need(node.hasCommSrc, "comm_src");
        need(node.hasCommTag, "comm_tag");
        need(node.hasCommSize, "comm_size");
        break;
    case NodeType::Comp:
        if (options.roofline && !node.isCpuOp) {
            need(node.hasNumOps, "num_ops");
            need(node.hasTensorSize, "tensor_size");
        }
        break;
    case NodeType::MemLoad:
    case NodeType::MemStore:
        need(node.hasTensorSize, "tensor_size");
        break;
    default:
        break;
    }
    if (missing.empty())
        return;
    std::string list;
    for (const std::string& name : missing)
        list += (list.empty() ? "" : ", ") + name;
    nodeError(errors, ErrorKind::Validation, trace, node,
              std::string(nodeTypeName(node.type)) + " lacks required attribute" +
                  (missing.size() > 1 ? "s " : " ") + list +
                  (node.type == NodeType::Comp ? " (needed by the roofline compute model)" : ""));
}

void checkCommunication(const WorkloadTrace& trace, const WorkloadNode& node, int rank,
                        int npuCount, const LoadOptions& options, ErrorCollector& errors) {
    const bool comm = node.type == NodeType::CommColl || node.type == NodeType::CommSend ||
                      node.type == NodeType::CommRecv;
    if (comm && node.isCpuOp)
        nodeError(errors, ErrorKind::Validation, trace, node,
                  std::string(nodeTypeName(node.type)) + " has is_cpu_op = true; communication "
                                                         "runs on the NPU, never on the CPU");
    if (node.type == NodeType::CommColl && node.hasCommType) {
        switch (node.commType) {
        case CollectiveType::Reduce:
        case CollectiveType::Gather:
        case CollectiveType::Scatter:
        case CollectiveType::ReduceScatterBlock:
        case CollectiveType::Barrier:
            nodeError(errors, ErrorKind::Unsupported, trace, node,
                      std::string("unsupported collective type ") +
                          collectiveTypeName(node.commType),
                      "supported: " + runCollectiveTypeNames() + " and " +
                          collectiveTypeName(CollectiveType::Broadcast) +
                          " (replayed from duration_micros)");
            break;
        default:
            break;
        }
        if (node.commType != CollectiveType::Broadcast && communicatorGroupId(node.pgName) < 0)
            nodeError(errors, ErrorKind::Validation, trace, node,
                      "pg_name \"" + node.pgName + "\" is not a communicator group id",
                      "pg_name is a decimal group id of the communicator group file (up to "
                      "999999999), or empty for all NPUs");
        const auto& dims = options.dimensionSizes;
        const bool allFalse =
            !node.detail->involvedDim.empty() &&
            std::none_of(node.detail->involvedDim.begin(), node.detail->involvedDim.end(),
                         [](bool b) { return b; });
        bool spansSomething = !dims.empty() ? false : !allFalse;
        for (size_t d = 0; d < dims.size(); ++d)
            if ((node.detail->involvedDim.empty() ||
                 (d < node.detail->involvedDim.size() && node.detail->involvedDim[d])) &&
                dims[d] > 1)
                spansSomething = true;
        // Lenient, a 1-NPU run replays its collectives (Assumption::SingleNpuCollective).
        const bool replayedAlone = !options.strict && npuCount == 1;
        if (!spansSomething && node.commType != CollectiveType::Broadcast && !replayedAlone)
            nodeError(errors, ErrorKind::Validation, trace, node,
                      allFalse ? "COMM_COLL_NODE over no dimension: involved_dim is all false"
                               : "COMM_COLL_NODE over no dimension: every involved dimension "
                                 "has 1 NPU",
                      "a collective needs at least one involved dimension with more than one "
                      "NPU (ASTRA-sim hangs on this)");
    }
    if (node.type == NodeType::CommSend) {
        if (options.checkIssuingRank && node.hasCommSrc && node.commSrc != uint32_t(rank))
            nodeError(errors, ErrorKind::Validation, trace, node,
                      "COMM_SEND_NODE with comm_src " + std::to_string(node.commSrc) +
                          " is issued by rank " + std::to_string(rank) +
                          ": a send must be issued by its sender");
        if (node.hasCommDst && node.commDst >= uint32_t(npuCount))
            nodeError(errors, ErrorKind::Validation, trace, node,
                      "comm_dst " + std::to_string(node.commDst) + " is not an NPU (0.." +
                          std::to_string(npuCount - 1) + ")");
    }
    if (node.type == NodeType::CommRecv) {
        if (options.checkIssuingRank && node.hasCommDst && node.commDst != uint32_t(rank))
            nodeError(errors, ErrorKind::Validation, trace, node,
                      "COMM_RECV_NODE with comm_dst " + std::to_string(node.commDst) +
                          " is issued by rank " + std::to_string(rank) +
                          ": a receive must be issued by its receiver");
        if (node.hasCommSrc && node.commSrc >= uint32_t(npuCount))
            nodeError(errors, ErrorKind::Validation, trace, node,
                      "comm_src " + std::to_string(node.commSrc) + " is not an NPU (0.." +
                          std::to_string(npuCount - 1) + ")");
    }
}

// Kahn's algorithm over parents present in the file; if nodes remain, walk parent links among
// them until one repeats: that loop is a cycle.
void checkDependencies(const WorkloadTrace& trace, ErrorCollector& errors) {
    const auto& nodes = trace.nodes;
    const NodeIndex index(nodes);
    for (const auto& [at, first] : index.duplicates())
        nodeError(errors, ErrorKind::Validation, trace, nodes[at],
                  "duplicate node id " + std::to_string(nodes[at].id) + " (first used by record #" +
                      std::to_string(first + 1) + ")",
                  "node ids must be unique within a file");
    if (nodes.empty()) {
        errors.add(ErrorKind::Validation, trace.file, {},
                   "the trace has no nodes, so no dependency-free node to start from");
        return;
    }
    std::vector<uint32_t> pending(nodes.size(), 0);
    std::vector<std::vector<uint32_t>> children(nodes.size());
    bool anyFree = false;
    for (uint32_t i = 0; i < nodes.size(); ++i) {
        for (const auto* deps : {&nodes[i].dataDeps, &nodes[i].ctrlDeps})
            for (uint64_t parent : *deps) {
                const uint32_t at = index.find(parent);
                if (at == NodeIndex::kAbsent) {
                    nodeError(errors, ErrorKind::Validation, trace, nodes[i],
                              "depends on node " + std::to_string(parent) +
                                  ", which is not in this file",
                              "dependencies refer to node ids of the same file");
                    continue;
                }
                ++pending[i];
                children[at].push_back(i);
            }
        anyFree |= nodes[i].dataDeps.empty() && nodes[i].ctrlDeps.empty();
    }
    if (!anyFree) {
        errors.add(ErrorKind::Validation, trace.file, {},
                   "no dependency-free node: every node waits for another, so nothing can start");
        return;
    }
    std::vector<uint32_t> ready;
    for (uint32_t i = 0; i < nodes.size(); ++i)
        if (pending[i] == 0)
            ready.push_back(i);
    size_t done = 0;
    while (!ready.empty()) {
        const uint32_t n = ready.back();
        ready.pop_back();
        ++done;
        for (uint32_t child : children[n])
            if (--pending[child] == 0)
                ready.push_back(child);
    }
    if (done == nodes.size())
        return;
    uint32_t start = 0;
    while (pending[start] == 0)
        ++start;
    std::vector<int> seenAt(nodes.size(), -1);
    std::vector<uint32_t> path;
    uint32_t at = start;
    while (seenAt[at] < 0) {
        seenAt[at] = static_cast<int>(path.size());
        path.push_back(at);
        uint32_t next = at;
        for (const auto* deps : {&nodes[at].dataDeps, &nodes[at].ctrlDeps})
            for (uint64_t parent : *deps) {
                const uint32_t found = index.find(parent);
                if (found != NodeIndex::kAbsent && pending[found] > 0)
                    next = found;
            }
        at = next;
    }
    // path[seenAt[at]..] follows parent links; print it in execution order (parent first).
    std::string cycle;
    for (size_t i = path.size(); i-- > size_t(seenAt[at]);)
        cycle += std::to_string(nodes[path[i]].id) + " -> ";
    cycle += std::to_string(nodes[path.back()].id);
    errors.add(ErrorKind::Validation, trace.file, nodeWhere(nodes[at]),
               "dependency cycle: " + cycle + " (" + std::to_string(nodes.size() - done) +
                   " nodes can never start)",
               "remove one of these dependencies");
}

} // namespace

void validateTrace(const WorkloadTrace& trace, int rank, int npuCount, const LoadOptions& options,
                   ErrorCollector& errors) {
    for (const WorkloadNode& node : trace.nodes) {
        requireAttributes(trace, node, options, errors);
        checkCommunication(trace, node, rank, npuCount, options, errors);
    }
    checkDependencies(trace, errors);
}

void validateSendRecvPairs(const std::vector<WorkloadTrace>& traces, ErrorCollector& errors) {
    using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint64_t>; // src, dst, tag, size
    struct Endpoint {
        int rank;
        const WorkloadNode* node;
    };
    struct Sides {
        std::vector<Endpoint> sends, recvs;
    };
    std::map<Key, Sides> byKey;
    for (size_t rank = 0; rank < traces.size(); ++rank)
        for (const WorkloadNode& node : traces[rank].nodes) {
            const auto r = static_cast<uint32_t>(rank);
            if (node.type == NodeType::CommSend && node.hasCommDst && node.hasCommTag &&
                node.hasCommSize)
                byKey[{node.hasCommSrc ? node.commSrc : r, node.commDst, node.commTag,
                       node.commSize}]
                    .sends.push_back({int(rank), &node});
            else if (node.type == NodeType::CommRecv && node.hasCommSrc && node.hasCommTag &&
                     node.hasCommSize)
                byKey[{node.commSrc, node.hasCommDst ? node.commDst : r, node.commTag,
                       node.commSize}]
                    .recvs.push_back({int(rank), &node});
        }

    // The k-th send of a key meets the k-th receive; the surplus on either side never matches.
    auto nearest = [&](const Key& key, bool wantRecv) -> std::string {
        const auto [src, dst, tag, size] = key;
        std::string best;
        int bestScore = 0;
        for (const auto& [other, sides] : byKey) {
            const auto& [osrc, odst, otag, osize] = other;
            const auto& pool = wantRecv ? sides.recvs : sides.sends;
            const auto& opposite = wantRecv ? sides.sends : sides.recvs;
            if (osrc != src || odst != dst || other == key || pool.size() <= opposite.size())
                continue;
            const int score = otag == tag ? 2 : osize == size ? 1 : 0;
            if (score <= bestScore)
                continue;
            bestScore = score;
            const Endpoint& e = pool[opposite.size()];
            best = "; nearest candidate: " + traces[e.rank].file + " node " +
                   std::to_string(e.node->id) + " (" + (wantRecv ? "RECV" : "SEND") + " tag " +
                   std::to_string(otag) + ", " + std::to_string(osize) + " B): " +
                   (score == 2 ? "size mismatch (" + std::to_string(size) + " B vs " +
                                     std::to_string(osize) + " B)"
                               : "tag mismatch (" + std::to_string(tag) + " vs " +
                                     std::to_string(otag) + ")");
        }
        return best;
    };
    for (const auto& [key, sides] : byKey) {
        const auto [src, dst, tag, size] = key;
        const bool sendSurplus = sides.sends.size() > sides.recvs.size();
        const auto& pool = sendSurplus ? sides.sends : sides.recvs;
        const size_t matched = std::min(sides.sends.size(), sides.recvs.size());
        for (size_t k = matched; k < pool.size(); ++k) {
            const Endpoint& e = pool[k];
            const std::string what = sendSurplus
                                         ? "COMM_SEND_NODE to rank " + std::to_string(dst)
                                         : "COMM_RECV_NODE from rank " + std::to_string(src);
            errors.add(ErrorKind::Validation, traces[e.rank].file, nodeWhere(*e.node),
                       what + " (tag " + std::to_string(tag) + ", " + std::to_string(size) +
                           " B) has no matching " +
                           (sendSurplus ? "COMM_RECV_NODE" : "COMM_SEND_NODE") + " on rank " +
                           std::to_string(sendSurplus ? dst : src) +
                           (errors.full() ? std::string() : nearest(key, sendSurplus)),
                       "a send and a receive match when source, destination, tag and size are "
                       "all equal");
        }
    }
}

namespace {

/// The collectives over all NPUs (no communicator group) are issued by every rank, each with
/// the same type and size: a rank whose set differs (an all-reduce of 2 MiB where the others
/// reduce 1 MiB) would wait for peers that never come. Compared as multisets of (type, size),
/// so that ranks may list them in another order; each difference is named once, on the first
/// rank that differs from rank 0, at its node.
void validateCollectivesMatch(const std::vector<WorkloadTrace>& traces, ErrorCollector& errors) {
    using Key = std::pair<CollectiveType, uint64_t>;
    using Collectives = std::map<Key, std::vector<const WorkloadNode*>>;
    auto collectivesOf = [](const WorkloadTrace& trace) {
        Collectives out;
        for (const WorkloadNode& node : trace.nodes)
            if (node.type == NodeType::CommColl && node.pgName.empty())
                out[{node.commType, node.commSize}].push_back(&node);
        return out;
    };
    auto sameCounts = [](const Collectives& a, const Collectives& b) {
        return a.size() == b.size() &&
               std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
                   return x.first == y.first && x.second.size() == y.second.size();
               });
    };
    // The first collective rank `more` issues more often than rank `fewer`, named at its node.
    auto reportSurplus = [&](const Collectives& mine, size_t more, const Collectives& theirs,
                             size_t fewer, const std::string& consequence) {
        for (const auto& [key, nodes] : mine) {
            const auto it = theirs.find(key);
            const size_t count = it == theirs.end() ? 0 : it->second.size();
            if (nodes.size() <= count)
                continue;
            nodeError(errors, ErrorKind::Validation, traces[more], *nodes[count],
                      "rank " + std::to_string(more) + " issues " + std::to_string(nodes.size()) +
                          " x " + namesOf(key.first).chakra + " of " + std::to_string(key.second) +
                          " B over all NPUs; rank " + std::to_string(fewer) + " (" +
                          traces[fewer].file + ") issues " + std::to_string(count) + ": " +
                          consequence,
                      "every rank issues the same collectives over all NPUs; a collective of a "
                      "subset needs its communicator group (pg_name)");
            return;
        }
    };
    if (traces.size() < 2)
        return;
    const Collectives reference = collectivesOf(traces[0]);
    // The first rank that differs from rank 0 says it; the others would repeat it.
    for (size_t rank = 1; rank < traces.size(); ++rank) {
        const Collectives mine = collectivesOf(traces[rank]);
        if (sameCounts(mine, reference))
            continue;
        reportSurplus(mine, rank, reference, 0, "the other ranks would never join this collective");
        reportSurplus(reference, 0, mine, rank, "rank 0 would wait for it forever");
        return;
    }
}

} // namespace

void validateWorkload(const std::vector<WorkloadTrace>& traces, const LoadOptions& options) {
    ErrorCollector errors(options.maxErrors);
    const int npus = static_cast<int>(traces.size());
    for (int rank = 0; rank < npus; ++rank)
        validateTrace(traces[rank], rank, npus, options, errors);
    if (options.checkSendRecvPairs) {
        validateSendRecvPairs(traces, errors);
        validateCollectivesMatch(traces, errors);
    }
    errors.throwIfAny();
}

} // namespace astrolabe
