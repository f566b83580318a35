#pragma once
// A PyTorch profiler trace alone, turned into Chakra traces: each GPU activity becomes a node
// with its measured duration, kernels that communicate become collectives of the kind their name
// says, stream order and the recorded GPU-to-GPU flows become dependencies. The rules are in
// docs/real-traces.md; each kernel name is listed with its class, count and time share.

#include "trace/WorkloadNode.h"
#include "trace/kineto/CommParams.h"
#include "trace/kineto/KinetoTrace.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace astrolabe::kineto {

enum class KernelClass : uint8_t {
    Collective,     ///< NCCL collective kernel: COMM_COLL of its type
    PointToPoint,   ///< NCCL send / recv kernel: peers unknown, run as an all-to-all
    ExpertAllToAll, ///< DeepEP dispatch / combine: COMM_COLL ALL_TO_ALL
    ExpertControl,  ///< DeepEP notify kernels (counts and barriers): COMM_COLL ALL_TO_ALL
    Copy,           ///< gpu_memcpy / gpu_memset: a GPU compute node of its duration
    Compute,        ///< every other kernel: a GPU compute node of its duration
};
const char* kernelClassName(KernelClass kind); ///< "collective", "expert-all-to-all", ...

struct KernelClassification {
    KernelClass kind = KernelClass::Compute;
    CollectiveType collective = CollectiveType::AllToAll; ///< for the communication classes
    const char* rule = ""; ///< which name rule decided, for the report
};
/// The class of one GPU activity by its category and name (one table; see the .cpp).
KernelClassification classifyKernel(const std::string& category, const std::string& name);

/// One row of the import's kernel table: a kernel name (templates and arguments cut) and class.
struct KernelRow {
    std::string name;
    KernelClass kind = KernelClass::Compute;
    size_t count = 0;
    double timeUs = 0;
};

/// What the import could say of its communication kernels.
struct CommCounts {
    size_t sizeUnknown = 0;  ///< communication nodes whose size the trace does not give
    size_t sizeFromHost = 0; ///< ... whose size and kind come from record_param_comms
    /// Communication nodes of a process group other than the default ("0"), run over every NPU
    /// (the trace names the group, not its ranks).
    size_t otherGroup = 0;
    /// Of sizeUnknown, those whose dtype the reader does not know: dtype -> count.
    std::map<std::string, size_t> unknownDtypes;
};

/// The node of one GPU activity, without id or dependencies: a GPU COMP node, or a COMM_COLL
/// node of the kernel's class with the size and kind `params` give (counted in `counts`).
WorkloadNode gpuNode(const GpuActivity& activity, const KernelClassification& kind,
                     const std::optional<CommParams>& params, CommCounts& counts);

struct KinetoImport {
    /// One trace per GPU device in the file, in device order; nodes in start order, ids from 0:
    /// the GPU activities and the host nodes of their launch calls (launchNodes).
    std::vector<WorkloadTrace> traces;
    std::vector<int64_t> devices;
    std::vector<KernelRow> kernels; ///< every distinct name, by class then descending time
    double totalTimeUs = 0;         ///< sum over all activities
    /// First start to last end of the GPU activities of the first device, as measured.
    double measuredSpanUs = 0;
    CommCounts comm;
    size_t flowDeps = 0; ///< dependencies from recorded GPU-to-GPU flows
    /// Dependencies on another stream's activity that ended before the node started (measured).
    size_t crossStreamDeps = 0;
    /// Host nodes of the launch timeline: one per runtime call that launched an activity.
    size_t launchNodes = 0;
};

/// Builds the traces. Throws ErrorList (kind Input) when the trace has no GPU activity, or when
/// the recorded flows and stream order form a cycle (the flow is named).
KinetoImport importKineto(const KinetoTrace& trace);

/// "void cutlass::device_kernel<...>(...)" -> "void cutlass::device_kernel".
std::string kernelBaseName(const std::string& name);

} // namespace astrolabe::kineto
