#pragma once
// Runs native collectives for every NPU: chunking (spec §5.1), phase plans (§5.2), the
// per-dimension queues with active-chunk limits, and the phases themselves.
//
// A collective of S bytes becomes ceil(S/C) chunks ("streams") of exactly C = floor(S/splits)
// bytes (at least N bytes except for all-gather); each walks its phase list, one queue per
// (dimension, queue index). At most ceil(active-chunks-per-dimension / Q) chunks run in a queue
// at once; the others wait in priority order.

#include "collective/CustomCollective.h"
#include "collective/DimensionScheduler.h"
#include "collective/InSwitchPhase.h"
#include "collective/Phase.h"
#include "collective/PhasePlan.h"
#include "core/Simulator.h"
#include "network/Transport.h"
#include "record/RunResult.h"
#include "spec/SimulationSpec.h"
#include "topology/Topology.h"

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace astrolabe {

/// Finds a custom collective's trace for one algorithm rank: `source` is an ET prefix or an
/// MSCCL-IR .xml file, `bytes` the collective node's comm_size.
using CustomTraceProvider =
    std::function<const WorkloadTrace&(const std::string& source, int position, uint64_t bytes)>;

struct CollectiveRequest {
    int npu = 0;
    uint64_t nodeId = 0;
    CollectiveKind kind = CollectiveKind::AllReduce;
    CollectiveType chakraType = CollectiveType::AllReduce;
    uint64_t bytes = 0;
    int group = 0; ///< communicator group id, 0 = all NPUs
    std::vector<bool> involvedDims;
    uint32_t priority = 0; ///< comm_priority (EXPLICIT scheduling)
};

class CollectiveEngine {
public:
    CollectiveEngine(Simulator& sim, Transport& transport, const Topology& topology,
                     const SimulationSpec& spec, RunResult* record);
    ~CollectiveEngine();

    /// Starts a collective now; onDone runs when this NPU's part is complete.
    void start(const CollectiveRequest& request, std::function<void()> onDone);

    void setCustomTraceProvider(CustomTraceProvider provider) {
        m_customTraces = std::move(provider);
    }

    /// Symmetric runs simulate one representative NPU; its sends stand for their mirror images.
    void setSymmetric(bool symmetric) { m_symmetric = symmetric; }

    /// One line per unfinished collective on `npu` (deadlock report).
    std::vector<std::string> describePending(int npu) const;
    /// Whether some unfinished chunk waits for a slot in its dimension's queue (the queue's
    /// active-chunk limit is reached): the deadlock report's cue to explain slot waits.
    bool chunksWaitForQueueSlots() const;

private:
    struct Collective;
    struct Stream {
        Collective* owner = nullptr;
        int chunk = 0;
        std::vector<PhaseSpec> phases;
        size_t current = 0;
        int64_t priority = 0;
        std::unique_ptr<Phase> running;
        SimTime phaseStart;
    };
    struct Collective {
        CollectiveRequest request;
        std::function<void()> onDone;
        std::vector<std::unique_ptr<Stream>> streams;
        int remaining = 0;
        uint64_t firstTag = 0;
        SimTime start;
        uint64_t chunkBytes = 0;
        std::unique_ptr<CustomCollective> custom;
    };
    struct Queue {
        int running = 0;
        std::deque<Stream*> waiting;
    };
    struct NpuState {
        std::vector<Queue> queues;
        int64_t priorityCounter = 0;
        std::map<int, uint64_t> streamCounter; ///< per communicator group
        QueueCursor cursor;
        std::map<int, uint32_t> treeCounter;           ///< per (collective kind, dimension)
        std::unique_ptr<DimensionScheduler> scheduler; ///< null: natural order
        std::vector<Collective*> active;
    };

    std::string customSourceFor(const CollectiveRequest& request) const;
    void startCustom(std::unique_ptr<Collective> collective, const std::string& source,
                     const std::vector<int>* members);
    void enqueue(Stream& stream);
    /// Where a stream entering a queue goes among the waiting ones (intra-dimension policy).
    std::deque<Stream*>::iterator insertionPoint(std::deque<Stream*>& waiting,
                                                 const Stream& stream) const;
    void startPhase(Stream& stream);
    void phaseDone(Stream& stream);
    void finishCollective(Collective& collective);
    SimTime endpointDelayFor(const PhaseSpec& phase) const;

    Simulator& m_sim;
    Transport& m_transport;
    const Topology& m_topology;
    const SimulationSpec& m_spec;
    RunResult* m_record;
    Timing m_timing;
    int m_queuesPerDim;
    int m_queueThreshold;
    /// Queues per NPU (dimensions x queues per dimension), made when the NPU first enqueues: a
    /// symmetric run simulates one NPU of thousands, whose queues alone would be made.
    size_t m_queueCount = 0;
    SimTime m_endpointDelay;
    bool m_symmetric = false;
    CustomTraceProvider m_customTraces;
    std::vector<NpuState> m_npus;
    SwitchAggregator m_switches;
    std::vector<std::unique_ptr<Collective>> m_finished; ///< freed lazily (see finishCollective)
};

} // namespace astrolabe
