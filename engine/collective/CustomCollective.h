#pragma once
// A custom collective (spec §7): a small trace of sends, receives and computes per rank, run as
// one phase of one stream. All dependency-free nodes are issued at once (ascending id) with no
// resource limits, no endpoint delay and no reduction cost: only explicit COMP nodes cost time.
// Ranks inside the trace are algorithm ranks, translated through the group's member list.

#include "core/Simulator.h"
#include "network/Transport.h"
#include "record/RunResult.h"
#include "trace/WorkloadNode.h"

#include <functional>
#include <string>
#include <vector>

namespace astrolabe {

class CustomCollective {
public:
    /// members: algorithm rank -> NPU (null: identity). workloadBytes: the collective node's
    /// comm_size, used when the trace gives sizes as chunk counts.
    CustomCollective(Simulator& sim, Transport& transport, int npu, const WorkloadTrace& algorithm,
                     const std::vector<int>* members, uint64_t workloadBytes, bool allGather,
                     std::function<void()> onDone);

    /// Logs every send to `log` (RunOptions::recordTransfers), with `identity`'s node id; a
    /// message is marked as reduced when its receive feeds a compute node (MSCCL's rrc step).
    /// Call before start().
    void recordTo(std::vector<ChunkTransfer>* log, const ChunkTransfer& identity);

    void start();
    std::string waitingFor() const;

private:
    void issue(size_t index);
    void complete(size_t index);
    uint64_t messageBytes(const WorkloadNode& node) const;
    int npuOf(uint32_t algorithmRank) const;
    void logSend(int dst, uint64_t bytes);
    void markReduced(int src);
    bool feedsCompute(size_t index) const;

    Simulator& m_sim;
    Transport& m_transport;
    int m_npu;
    const WorkloadTrace& m_algorithm;
    const std::vector<int>* m_members;
    uint64_t m_workloadBytes;
    bool m_allGather;
    std::function<void()> m_onDone;
    std::vector<uint32_t> m_pending; ///< unfinished parents per node
    std::vector<std::vector<uint32_t>> m_children;
    size_t m_done = 0;
    std::vector<ChunkTransfer>* m_log = nullptr;
    ChunkTransfer m_identity;
    int m_sends = 0; ///< sends issued so far: a message's step
};

} // namespace astrolabe
