#pragma once
// Local memory usage of one NPU (system setting track-local-mem; spec §1.4, §8.1, §8.2).
//
// Every node may list the tensors it reads ("inputs") and writes ("outputs"), each with a size
// in bytes; tensors are matched by name within the NPU's trace. The rule:
//
// * a tensor is allocated when the node that outputs it starts;
// * a tensor no node of this NPU outputs (weights, inputs from outside) is live from time 0;
// * a tensor is released when its producer and every node that lists it as an input have
//   finished; a tensor nobody reads is thus released when its producer finishes.
//
// Usage is the sum of the live tensors' sizes. Changes at one instant are netted: the usage
// series has one point per distinct time (the value after everything that happened then), and
// the peak is the largest point, so a tensor released and another allocated at the same time
// never count together.
//
// Cost: O(uses) to index the trace, O(tensors a node touches) per start and finish, one point
// per distinct time at which the usage changed. Built only when tracking is on.

#include "core/SimTime.h"
#include "record/RunResult.h"
#include "trace/WorkloadNode.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe {

class LocalMemoryTracker {
public:
    /// Indexes the tensors of `trace` (NPU `npu`); tensors nobody outputs become live at `start`.
    /// Throws Error (Validation, naming the file, both nodes and the tensor) when two nodes
    /// output the same tensor.
    LocalMemoryTracker(int npu, const WorkloadTrace& trace, SimTime start = SimTime::zero());

    /// Node `index` (position in trace.nodes) started or finished at `now` (non-decreasing).
    void nodeStarted(uint32_t index, SimTime now);
    void nodeFinished(uint32_t index, SimTime now);

    uint64_t currentBytes() const { return m_current; }
    /// The largest usage over the points so far.
    uint64_t peakBytes() const;
    /// The step series, one point per distinct time, the first at `start`.
    const std::vector<MemoryUsagePoint>& usage() const { return m_usage; }
    /// Every tensor that was allocated, by (allocation time, first mention); a tensor still live
    /// is given `end` as its release time.
    std::vector<TensorLifetime> lifetimes(SimTime end) const;

private:
    struct Tensor {
        std::string name;
        uint64_t bytes = 0;
        int64_t producerNodeId = -1;
        int32_t producer = -1; ///< index of the node that outputs it
        uint32_t pending = 0;  ///< finishes still to come: the producer's and each read's
        bool live = false;
        bool allocated = false; ///< has been live at some time
        SimTime allocatedAt, releasedAt;
    };

    void allocate(Tensor& tensor, SimTime now);
    void release(Tensor& tensor, SimTime now);
    void record(SimTime now);

    int m_npu;
    std::vector<Tensor> m_tensors;
    // CSR per node: tensors it outputs (allocated at its start), tensors whose pending count its
    // finish decrements (its inputs, one entry per mention, and its outputs).
    std::vector<uint32_t> m_producedOffsets, m_produced, m_finishOffsets, m_finish;
    uint64_t m_current = 0;
    std::vector<MemoryUsagePoint> m_usage;
};

/// ASTRA-sim's spelling of a memory size in the peak report line: the value with 2 decimals and
/// B, KB, MB, GB or TB (1024-based, the largest unit not above the value), computed in single
/// precision as upstream does: 1536 -> "1.50 KB".
std::string formatMemorySize(uint64_t bytes);

} // namespace astrolabe
