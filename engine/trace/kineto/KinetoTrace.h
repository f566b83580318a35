#pragma once
// A PyTorch profiler (Kineto) trace: the Chrome trace-event JSON that torch.profiler exports,
// {"traceEvents": [...], "distributedInfo": {...}, ...} or a bare array of events. Only what an
// import needs is kept: the GPU activities (complete events of category kernel, gpu_memcpy and
// gpu_memset; pid is the device, tid the stream), the flows between them, and the host events
// that name what launched them (operators, annotations and CUDA runtime / driver calls).
//
// Every event is checked: a malformed one (not an object, no or an unknown phase, a time that is
// not a number, a negative duration, a flow id started or finished twice) is an error naming its
// index in traceEvents and its name. All problems are collected and thrown as one ErrorList.

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe::kineto {

/// What PyTorch records of a collective (record_param_comms, and on newer versions the NCCL
/// kernel itself): args "Collective name", "In msg nelems", "Out msg nelems", "dtype",
/// "Group size", "Process Group Name". Absent fields stay empty / -1.
struct CommArgs {
    std::string collective; ///< "allreduce", "_allgather_base", "all_to_allv", ...
    std::string dtype;      ///< "Float", "BFloat16", ...
    std::string groupName;  ///< the process group's name ("0" is the default group)
    int64_t inElements = -1, outElements = -1, groupSize = -1;
    bool present() const { return !collective.empty() || inElements >= 0; }
};

/// One GPU activity, times in microseconds as the profiler wrote them.
struct GpuActivity {
    std::string name;
    std::string category; ///< "kernel", "gpu_memcpy" or "gpu_memset"
    int64_t device = 0;   ///< the event's pid
    int64_t stream = 0;   ///< the event's tid
    double startUs = 0;
    double durationUs = 0;
    uint64_t bytes = 0;       ///< args.bytes of copies and sets; 0 when absent
    int64_t correlation = -1; ///< args.correlation: the runtime call that launched it
    int64_t externalId = -1;  ///< args["External id"]: the host operator it belongs to
    CommArgs comm;
    size_t eventIndex = 0;
};

/// A complete host event: an operator (cpu_op), an annotation (user_annotation) or a CUDA
/// runtime / driver call (cuda_runtime, cuda_driver).
struct HostEvent {
    std::string name;
    std::string category;
    int64_t pid = 0, tid = 0;
    double startUs = 0;
    double durationUs = 0;
    int64_t externalId = -1;       ///< args["External id"]
    int64_t recordFunctionId = -1; ///< args["Record function id"] (PyTorch 2.1 and later)
    int64_t correlation = -1;      ///< runtime / driver calls: args.correlation
    CommArgs comm;                 ///< record_param_comms
    size_t eventIndex = 0;
    bool isRuntime() const { return category == "cuda_runtime" || category == "cuda_driver"; }
};

/// A recorded flow (ph "s" then "f", same category and id) whose both ends are GPU activities.
struct GpuFlow {
    std::string id;          ///< "category:id", for messages
    size_t from = 0, to = 0; ///< indices into KinetoTrace::activities
};

struct KinetoTrace {
    std::string file;
    int64_t rank = -1, worldSize = 0;    ///< distributedInfo, -1 / 0 when absent
    std::vector<GpuActivity> activities; ///< in file order
    std::vector<GpuFlow> flows;
    std::vector<HostEvent> hostEvents; ///< in file order
    /// Index into hostEvents of the runtime call with each correlation id (unique: a reused id
    /// is refused).
    std::map<int64_t, size_t> runtimeByCorrelation;
    size_t events = 0;        ///< every entry of traceEvents
    size_t hostFlows = 0;     ///< flows with an end on the host or unbound (not imported)
    size_t unpairedFlows = 0; ///< a start without a finish or the reverse (not imported)
};

/// Parses the JSON text; `file` names it in messages.
KinetoTrace parseKinetoTrace(std::string_view text, const std::string& file);

/// The JSON of a PyTorch trace file (profiler or execution trace). Text that is not JSON is an
/// Input error naming `file` and the byte offset, with `hint` saying what the file should be.
nlohmann::json parseTraceJson(std::string_view text, const std::string& file,
                              const std::string& hint);
/// Reads the file (regular file, text size limit) and parses it.
KinetoTrace readKinetoTrace(const std::string& path);

} // namespace astrolabe::kineto
