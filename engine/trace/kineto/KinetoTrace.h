#pragma once
// A PyTorch profiler (Kineto) trace: the Chrome trace-event JSON that torch.profiler exports,
// {"traceEvents": [...], "distributedInfo": {...}, ...} or a bare array of events. Only what an
// import needs is kept: the GPU activities (complete events of category kernel, gpu_memcpy and
// gpu_memset; pid is the device, tid the stream) and the flows between them.
//
// Every event is checked: a malformed one (not an object, no or an unknown phase, a time that is
// not a number, a negative duration, a flow id started or finished twice) is an error naming its
// index in traceEvents and its name. All problems are collected and thrown as one ErrorList.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe::kineto {

/// One GPU activity, times in microseconds as the profiler wrote them.
struct GpuActivity {
    std::string name;
    std::string category; ///< "kernel", "gpu_memcpy" or "gpu_memset"
    int64_t device = 0;   ///< the event's pid
    int64_t stream = 0;   ///< the event's tid
    double startUs = 0;
    double durationUs = 0;
    uint64_t bytes = 0; ///< args.bytes of copies and sets; 0 when absent
    size_t eventIndex = 0;
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
    size_t events = 0;        ///< every entry of traceEvents
    size_t hostFlows = 0;     ///< flows with an end on the host or unbound (not imported)
    size_t unpairedFlows = 0; ///< a start without a finish or the reverse (not imported)
};

/// Parses the JSON text; `file` names it in messages.
KinetoTrace parseKinetoTrace(std::string_view text, const std::string& file);
/// Reads the file (regular file, text size limit) and parses it.
KinetoTrace readKinetoTrace(const std::string& path);

} // namespace astrolabe::kineto
