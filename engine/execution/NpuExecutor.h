#pragma once
// Runs one NPU's execution trace with ASTRA-sim's semantics (spec §2):
//
// * a node is ready when all its parents finished (data and control dependencies, or data only);
// * on every reaction the ready nodes are considered in ascending id order and issued when
//   their resource slot is free: CPU (is_cpu_op), GPU compute (COMP), GPU communication
//   (collectives, sends, remote memory, metadata); receives take no slot;
// * compute is replayed (duration_micros, at least 1 ns) or costed by the roofline;
// * in a trace of the PyTorch profiler import (kineto/ImportSchema.h), GPU compute nodes take no
//   shared slot: each CUDA stream is a dependency chain there, so each runs on a lane of its own;
// * nodes that complete instantly (INVALID, METADATA, empty roofline COMP) release their
//   children in the same reaction (ASTRA-sim defers them to the next completion and can end a
//   run silently; we do not).
//
// Cost per reaction: O(k log n) for k issued nodes: ready nodes sit in one ordered set per slot.
// With track-local-mem on, a LocalMemoryTracker follows every node's start and finish.

#include "collective/CollectiveEngine.h"
#include "core/Simulator.h"
#include "execution/LocalMemoryTracker.h"
#include "execution/RunNode.h"
#include "memory/RemoteMemory.h"
#include "network/Timing.h"
#include "network/Transport.h"
#include "record/RunResult.h"
#include "spec/SimulationSpec.h"
#include "trace/WorkloadNode.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace astrolabe {

struct ExecutorContext {
    Simulator* sim = nullptr;
    Transport* transport = nullptr;
    CollectiveEngine* collectives = nullptr;
    RemoteMemory* memory = nullptr;
    const SimulationSpec* spec = nullptr;
    Timing timing;
    /// Called once when the NPU has nothing left to run.
    std::function<void(int npu)> onFinished;
    /// Node names, shared by the run's executors; each executor makes its own when null.
    std::shared_ptr<NamePool> names;
};

class NpuExecutor {
public:
    /// Copies what the run needs of `trace` (RunNode): the trace may be freed afterwards.
    NpuExecutor(int npu, const WorkloadTrace& trace, ExecutorContext context);

    void start();
    bool finished() const { return m_finished; }
    /// When the NPU had nothing left to run; now while it has.
    SimTime finishTime() const { return m_finished ? m_finishTime : m_ctx.sim->now(); }
    /// The heap memory this executor holds per node (its nodes, their state and children).
    size_t memoryBytes() const;
    int npu() const { return m_npu; }

    /// Node name -> index in RunResult::names, shared by every NPU of a run: names repeat across
    /// NPUs (the same layer on every replica), so each is stored once.
    using NameIndex = std::unordered_map<std::string, uint32_t>;
    /// Fills the summary, appends this NPU's activities (and names, through `names`) to the
    /// result.
    NpuSummary summarize(RunResult* record, NameIndex* names = nullptr) const;
    /// Activities summarize() will append: nodes that ran for a positive time.
    size_t activityCount() const;
    /// Collective nodes in the trace (each records one collective span when it finishes).
    size_t collectiveCount() const;
    /// Report lines of spec §8.1 for this NPU (finished, statistics).
    std::vector<std::string> reportLines() const;
    /// What this NPU still waits for (deadlock report), empty when finished.
    std::vector<std::string> describeWaiting() const;
    /// The nodes issued and not done ("COMM_COLL_NODE 7 ("grad") ALL_REDUCE of 1 MiB"), for
    /// saying what was being simulated when the run stopped.
    std::vector<std::string> describeInFlight() const;
    /// The chain of node indices that ended last on this NPU, first to last.
    std::vector<uint64_t> criticalChain() const;

private:
    enum class Slot : uint8_t { Cpu, Compute, Comm, None };
    enum class Class : uint8_t { Cpu, Gpu, Comm, RemoteMem, Invalid };
    /// Per node for the whole run: 24 bytes (155,200 of them in the 128-NPU GPT-3 case).
    static constexpr uint32_t kMaxParents = (1u << 24) - 1;
    struct NodeState {
        uint32_t pendingParents : 24 = 0; ///< at most kMaxParents (checked when built)
        uint32_t issued : 1 = 0;
        uint32_t done : 1 = 0;
        Slot slot : 2 = Slot::None;
        Class cls : 3 = Class::Invalid;
        int32_t enabler = -1; ///< the node whose completion let this one start
        SimTime start;
        SimTime end;
    };
    static_assert(sizeof(SimTime) != 8 || sizeof(NodeState) == 24);
    struct Roofline {
        SimTime duration;
        bool computeBound = false;
        double computeUtilization = 0, memoryUtilization = 0, intensity = 0;
    };

    void markReady(uint32_t index);
    void react();
    void issue(uint32_t index);
    void complete(uint32_t index);
    void startCollective(uint32_t index);
    Roofline roofline(const RunNode& node) const;
    Slot slotOf(const RunNode& node) const;
    [[noreturn]] void fail(const RunNode& node, const std::string& what,
                           const std::string& hint = {}) const;

    int m_npu;
    std::string m_file; ///< the trace file, for error messages
    ExecutorContext m_ctx;
    std::vector<RunNode> m_nodes; ///< the trace's nodes, in file order
    /// The rare attributes, by node index: involved_dim when given, comm_priority when not 0,
    /// pg_name when it names no communicator group (for the error when the node is issued).
    std::unordered_map<uint32_t, std::vector<bool>> m_involvedDims;
    std::unordered_map<uint32_t, uint32_t> m_priorities;
    std::unordered_map<uint32_t, std::string> m_badGroupNames;
    std::vector<NodeState> m_state;
    std::vector<uint32_t> m_childOffsets; ///< CSR: children of i are m_children[off[i]..off[i+1])
    std::vector<uint32_t> m_children;
    /// Per Slot: (node id, index) of the ready nodes, a min-heap by node id (std::push_heap
    /// with std::greater), so marking a node ready allocates nothing.
    std::vector<std::pair<uint64_t, uint32_t>> m_ready[4];
    bool m_slotBusy[3] = {false, false, false};
    int32_t m_lastOnSlot[3] = {-1, -1, -1};
    uint32_t m_inFlight = 0;
    uint32_t m_completed = 0;
    bool m_reacting = false;
    bool m_again = false;
    bool m_finished = false;
    bool m_streamLanes = false; ///< a profiler import's trace: GPU compute takes no shared slot
    SimTime m_finishTime;
    SimTime m_gpuTime, m_cpuTime;
    std::unique_ptr<LocalMemoryTracker> m_memory; ///< only with system.track-local-mem
    // Roofline statistics, duration-weighted.
    double m_opTimeNs = 0, m_boundTimeNs = 0, m_computeUtilNs = 0, m_memoryUtilNs = 0,
           m_intensityNs = 0;
};

} // namespace astrolabe
