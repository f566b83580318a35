#pragma once
// A custom collective (spec §7): a small trace of sends, receives and computes per rank, run as
// one phase of one stream. All dependency-free nodes are issued at once (ascending id) with no
// resource limits, no endpoint delay and no reduction cost: only explicit COMP nodes cost time.
// Ranks inside the trace are algorithm ranks, translated through the group's member list.

#include "core/Simulator.h"
#include "network/Transport.h"
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

    void start();
    std::string waitingFor() const;

private:
    void issue(size_t index);
    void complete(size_t index);
    uint64_t messageBytes(const WorkloadNode& node) const;
    int npuOf(uint32_t algorithmRank) const;

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
};

} // namespace astrolabe
