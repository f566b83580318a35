#pragma once
// A Chakra execution-trace node, decoded into plain fields the executor reads directly.
// Chakra's protobuf types stay inside trace/chakra/; everything else sees this.
//
// Enum values equal Chakra's current schema (0.0.4 generation), so they convert by cast
// (CollectiveType, with every collective's names, is in core/Collectives.h).

#include "core/Collectives.h"
#include "core/SimTime.h"
#include "trace/DependencyList.h"
#include "trace/NodeText.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe {

enum class NodeType : uint8_t {
    Invalid = 0,
    Metadata = 1,
    MemLoad = 2,
    MemStore = 3,
    Comp = 4,
    CommSend = 5,
    CommRecv = 6,
    CommColl = 7,
};
const char* nodeTypeName(NodeType type); ///< "COMP_NODE", ...

/// The collective an operator or kernel name stands for, as PyTorch and NCCL name them:
/// "c10d::allreduce_", "nccl:all_reduce", "ncclKernel_AllReduce_RING_LL_Sum_float(...)",
/// "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(...)", "record_param_comms" is not one.
/// Case, '_' and ':' are ignored. Empty for a name that names no collective (send and recv are
/// point-to-point, not collectives: see isPointToPointName).
std::optional<CollectiveType> collectiveTypeFromName(std::string_view name);
/// True for NCCL / c10d point-to-point names ("c10d::send", "ncclDevKernel_SendRecv", ...).
bool isPointToPointName(std::string_view name);

/// One tensor a node reads or writes (Chakra "inputs" / "outputs" attributes, read only when
/// track-local-mem is on; spec §1.4). Tensors are matched by name within one NPU's trace.
struct TensorUse {
    std::string name;
    uint64_t bytes = 0;
    bool operator==(const TensorUse&) const = default;
};

/// Attributes few nodes carry: kept out of line so that a node stays small (a 1,024-NPU training
/// iteration holds over a million nodes).
struct NodeDetail {
    uint64_t startTimeMicros = 0;
    std::vector<bool> involvedDim; ///< empty = all dimensions
    // Custom-collective chunk attributes (newer MSCCL converter); -1 when absent.
    int32_t msgChunkCount = -1, msgChunkIndex = -1, totalChunkCount = -1;
    /// METADATA_NODE process groups ("inputs.values" Python-repr JSON), raw.
    std::string inputsValues;
    /// Tensors read and written (local memory tracking); empty unless the reader was asked.
    std::vector<TensorUse> inputs, outputs;
    bool operator==(const NodeDetail&) const = default;
};

/// A node's NodeDetail, allocated on the first edit(). Reading a node that has none gives the
/// defaults; reading never allocates, so a const or non-const read costs the same.
class NodeDetailRef {
public:
    NodeDetailRef() = default;
    NodeDetailRef(const NodeDetailRef& other)
        : m_detail(other.m_detail ? std::make_unique<NodeDetail>(*other.m_detail) : nullptr) {}
    NodeDetailRef(NodeDetailRef&&) noexcept = default;
    NodeDetailRef& operator=(const NodeDetailRef& other) {
        if (this != &other)
            m_detail = other.m_detail ? std::make_unique<NodeDetail>(*other.m_detail) : nullptr;
        return *this;
    }
    NodeDetailRef& operator=(NodeDetailRef&&) noexcept = default;
    ~NodeDetailRef() = default;

    const NodeDetail* operator->() const { return m_detail ? m_detail.get() : &defaults(); }
    const NodeDetail& operator*() const { return *operator->(); }
    NodeDetail& edit() {
        if (!m_detail)
            m_detail = std::make_unique<NodeDetail>();
        return *m_detail;
    }

private:
    static const NodeDetail& defaults() {
        static const NodeDetail none;
        return none;
    }
    std::unique_ptr<NodeDetail> m_detail;
};

/// Fields ordered by size so that the node packs without holes.
struct WorkloadNode {
    uint64_t id = 0;
    uint64_t durationMicros = 0;
    uint64_t numOps = 0;
    uint64_t tensorSize = 0;
    uint64_t commSize = 0;
    NodeText name;
    NodeText pgName; ///< communicator group id as decimal text; "" = all NPUs
    DependencyList dataDeps;
    DependencyList ctrlDeps;
    NodeDetailRef detail;
    uint32_t commPriority = 0;
    uint32_t commSrc = 0;
    uint32_t commDst = 0;
    uint32_t commTag = 0;
    NodeType type = NodeType::Invalid;
    CollectiveType commType = CollectiveType::AllReduce;
    bool isCpuOp = false;
    // Attributes ASTRA-sim consumes (spec §1.4). has* says whether the attribute was present.
    bool hasNumOps = false, hasTensorSize = false, hasCommType = false, hasCommSize = false;
    bool hasCommSrc = false, hasCommDst = false, hasCommTag = false;
};

/// The communicator group a pg_name names: 0 for "" (all NPUs), else its decimal id; -1 when the
/// name is not a decimal number up to 10^9 ("abc", "1a", "-2", 2^32 + 1).
inline int communicatorGroupId(const std::string& pgName) {
    if (pgName.size() > 9)
        return -1;
    int value = 0;
    for (char c : pgName) {
        if (c < '0' || c > '9')
            return -1;
        value = value * 10 + (c - '0');
    }
    return value;
}

/// How long a node replays: its duration_micros, or 1 ns for 0 (ASTRA-sim's minimum). A duration
/// past the simulated clock throws TimeOverflow (never a wrapped, negative or short time).
inline SimTime replayDurationOf(uint64_t durationMicros) {
    if (durationMicros == 0)
        return SimTime::fromNs(1);
    if (durationMicros > static_cast<uint64_t>(INT64_MAX))
        throwTimeOverflow("conversion from microseconds");
    return SimTime::fromUs(static_cast<int64_t>(durationMicros));
}
inline SimTime replayDuration(const WorkloadNode& node) {
    return replayDurationOf(node.durationMicros);
}

/// What a lenient load had to assume to run a trace as PyTorch's converter writes it (each kind
/// is one documented rule of docs/real-traces.md), counted per kind, with the first node.
enum class Assumption : uint8_t {
    AbsentParent,        ///< a dependency on a node absent from the file counts as met
    SelfDependency,      ///< a node listed as its own parent: dropped
    CycleBroken,         ///< a dependency on a later node (larger id) that closed a cycle: dropped
    HostCollective,      ///< a CPU-side collective call (is_cpu_op) runs as a host operator
    CollectiveFromName,  ///< comm_type absent: taken from the c10d / NCCL name
    BarrierAsAllReduce,  ///< BARRIER runs as an all-reduce of its comm_size, as NCCL does it
    BroadcastSizeless,   ///< a broadcast without comm_size (replayed anyway) gets size 0
    SingleNpuCollective, ///< a collective on a 1-NPU platform replays its measured duration
};
inline constexpr size_t kAssumptionKinds = 8;
/// "dependencies on nodes absent from the file, counted as met", ...
const char* assumptionText(Assumption kind);
/// "absent-parent", ... (stable names for scripts and tests)
const char* assumptionName(Assumption kind);

struct TraceAssumptions {
    std::array<uint64_t, kAssumptionKinds> counts{};
    std::array<uint64_t, kAssumptionKinds> firstNode{}; ///< valid where counts[k] > 0
    uint64_t absentNodes = 0; ///< distinct absent ids behind the AbsentParent count

    void add(Assumption kind, uint64_t nodeId, uint64_t times = 1) {
        const auto k = static_cast<size_t>(kind);
        if (counts[k] == 0)
            firstNode[k] = nodeId;
        counts[k] += times;
    }
    uint64_t count(Assumption kind) const { return counts[static_cast<size_t>(kind)]; }
    bool empty() const {
        for (uint64_t c : counts)
            if (c)
                return false;
        return true;
    }
};

/// One NPU's trace: its nodes in file order.
struct WorkloadTrace {
    std::string file;
    std::string schemaVersion; ///< GlobalMetadata.version or the "schema" attribute
    std::vector<WorkloadNode> nodes;
    /// GlobalMetadata start_ts / finish_ts as PyTorch's converter wrote them (the recording's
    /// own clock; Chakra states no unit); both 0 when absent. Shown, never used by a run.
    uint64_t recordedStartTs = 0, recordedFinishTs = 0;
    /// The metadata's "ngpus" (a workload_graph JSON's top-level key): the GPU count the trace
    /// says it was recorded for; 0 when absent.
    uint64_t recordedNpus = 0;
    /// Filled by a lenient load (LoadOptions::strict = false); empty otherwise.
    TraceAssumptions assumptions;
};

} // namespace astrolabe
