#include "collective/CustomCollective.h"

#include "core/Error.h"

#include <unordered_map>

namespace astrolabe {

CustomCollective::CustomCollective(Simulator& sim, Transport& transport, int npu,
                                   const WorkloadTrace& algorithm, const std::vector<int>* members,
                                   uint64_t workloadBytes, bool allGather,
                                   std::function<void()> onDone)
    : m_sim(sim)
    , m_transport(transport)
    , m_npu(npu)
    , m_algorithm(algorithm)
    , m_members(members)
    , m_workloadBytes(workloadBytes)
    , m_allGather(allGather)
    , m_onDone(std::move(onDone))
    , m_pending(algorithm.nodes.size(), 0)
    , m_children(algorithm.nodes.size()) {
    std::unordered_map<uint64_t, uint32_t> index;
    for (size_t i = 0; i < algorithm.nodes.size(); ++i)
        index.emplace(algorithm.nodes[i].id, static_cast<uint32_t>(i));
    for (size_t i = 0; i < algorithm.nodes.size(); ++i) {
        const WorkloadNode& n = algorithm.nodes[i];
        for (const auto* deps : {&n.dataDeps, &n.ctrlDeps})
            for (uint64_t d : *deps) {
                const auto it = index.find(d);
                if (it == index.end())
                    throw Error(ErrorKind::Validation,
                                "custom collective node " + std::to_string(n.id) +
                                    " depends on unknown node " + std::to_string(d),
                                {algorithm.file, 0, 0, {}});
                m_children[it->second].push_back(static_cast<uint32_t>(i));
                ++m_pending[i];
            }
        if (n.type != NodeType::CommSend && n.type != NodeType::CommRecv &&
            n.type != NodeType::Comp)
            throw Error(ErrorKind::Unsupported,
                        std::string("custom collective node ") + std::to_string(n.id) + " is a " +
                            nodeTypeName(n.type) + "; only sends, receives and computes can run",
                        {algorithm.file, 0, 0, {}}, "ASTRA-sim would hang on it");
    }
}

int CustomCollective::npuOf(uint32_t rank) const {
    if (!m_members)
        return static_cast<int>(rank);
    if (rank >= m_members->size())
        throw Error(ErrorKind::Validation,
                    "custom collective rank " + std::to_string(rank) + " is outside its group of " +
                        std::to_string(m_members->size()),
                    {m_algorithm.file, 0, 0, {}});
    return (*m_members)[rank];
}

uint64_t CustomCollective::messageBytes(const WorkloadNode& n) const {
    // Newer converters give chunk counts instead of sizes (spec §7.4).
    if (n.detail->totalChunkCount > 0 && n.detail->msgChunkCount > 0) {
        const auto total = static_cast<uint64_t>(n.detail->totalChunkCount);
        const uint64_t ranks = m_members ? m_members->size() : 1;
        const uint64_t base = m_allGather && total >= ranks ? m_workloadBytes / (total / ranks)
                                                            : m_workloadBytes / total;
        uint64_t bytes = base * static_cast<uint64_t>(n.detail->msgChunkCount);
        if (!m_allGather && n.detail->msgChunkIndex >= 0 &&
            static_cast<uint64_t>(n.detail->msgChunkIndex + n.detail->msgChunkCount) == total)
            bytes += m_workloadBytes % total;
        return bytes;
    }
    return n.commSize;
}

void CustomCollective::recordTo(std::vector<ChunkTransfer>* log, const ChunkTransfer& identity) {
    m_log = log;
    m_identity = identity;
}

void CustomCollective::logSend(int dst, uint64_t bytes) {
    ChunkTransfer t = m_identity;
    t.start = t.end = m_sim.now();
    t.src = m_npu;
    t.dst = dst;
    t.bytes = bytes;
    t.step = static_cast<int16_t>(m_sends);
    m_log->push_back(t);
}

void CustomCollective::markReduced(int src) {
    // The latest message from src to this NPU of this collective: the one just received (two
    // in flight between the same pair may swap their marks; both are drawn all the same).
    for (auto it = m_log->rbegin(); it != m_log->rend(); ++it)
        if (it->src == src && it->dst == m_npu && it->nodeId == m_identity.nodeId &&
            it->start <= m_sim.now()) {
            it->reduce = true;
            return;
        }
}

void CustomCollective::start() {
    if (m_algorithm.nodes.empty()) {
        m_sim.scheduleIn(SimTime::zero(), [this] { m_onDone(); });
        return;
    }
    for (size_t i = 0; i < m_pending.size(); ++i)
        if (m_pending[i] == 0)
            issue(i);
}

void CustomCollective::issue(size_t index) {
    const WorkloadNode& n = m_algorithm.nodes[index];
    switch (n.type) {
    case NodeType::CommSend: {
        if (!m_log) {
            m_transport.send(m_npu, npuOf(n.commDst), n.commTag, messageBytes(n),
                             [this, index] { complete(index); });
            return;
        }
        logSend(npuOf(n.commDst), messageBytes(n));
        const size_t logged = m_log->size() - 1;
        ++m_sends;
        m_transport.send(m_npu, npuOf(n.commDst), n.commTag, messageBytes(n),
                         [this, index, logged] {
                             (*m_log)[logged].end = m_sim.now();
                             complete(index);
                         });
        return;
    }
    case NodeType::CommRecv:
        m_transport.receive(m_npu, npuOf(n.commSrc), n.commTag, messageBytes(n), [this, index] {
            if (m_log && feedsCompute(index))
                markReduced(npuOf(m_algorithm.nodes[index].commSrc));
            complete(index);
        });
        return;
    default: {
        m_sim.scheduleIn(replayDuration(n), [this, index] { complete(index); });
        return;
    }
    }
}

void CustomCollective::complete(size_t index) {
    ++m_done;
    for (uint32_t child : m_children[index])
        if (--m_pending[child] == 0)
            issue(child);
    if (m_done == m_pending.size()) {
        const std::function<void()> done = std::move(m_onDone);
        done();
    }
}

bool CustomCollective::feedsCompute(size_t index) const {
    for (uint32_t child : m_children[index])
        if (m_algorithm.nodes[child].type == NodeType::Comp)
            return true;
    return false;
}

std::string CustomCollective::waitingFor() const {
    return "custom collective: " + std::to_string(m_done) + " of " +
           std::to_string(m_pending.size()) + " steps done";
}

} // namespace astrolabe
