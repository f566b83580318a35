#pragma once
// The sizes and kinds of a profiler trace's communication kernels, from what PyTorch records on
// the host side: the record_param_comms operator of the call that launched the kernel (or, on
// newer PyTorch, the same args on the kernel itself). Rules in docs/real-traces.md.

#include "core/Collectives.h"
#include "trace/kineto/KinetoTrace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace astrolabe::kineto {

/// Bytes of one element of a PyTorch dtype as the profiler names it ("Float", "BFloat16",
/// "Float8_e4m3fn", ...); 0 for a name not in the table.
uint64_t dtypeBytes(const std::string& dtype);
/// The dtype names dtypeBytes knows, in its table's order (smallest elements first).
const std::vector<std::string>& knownDtypes();

struct CommParams {
    std::optional<CollectiveType> collective; ///< empty: the name is no collective (send, recv)
    std::string collectiveName;               ///< as recorded
    std::optional<uint64_t> bytes; ///< In msg nelems x dtype size; empty when not computable
    std::string unknownDtype;      ///< the dtype recorded when dtypeBytes does not know it
    std::string groupName;         ///< "Process Group Name"
    int64_t groupSize = -1;
    const char* source = ""; ///< "kernel args", "record_param_comms by External id", ...
};

/// For each activity of `trace` (same index), the communication parameters recorded for it:
/// first the kernel's own args, then the record_param_comms operator with the kernel's External
/// id, then the innermost record_param_comms around the runtime call that launched the kernel
/// (same correlation, same host thread). Empty where none is found. Linear in the events, plus
/// a sort of each host thread's record_param_comms by start.
std::vector<std::optional<CommParams>> commParamsOf(const KinetoTrace& trace);

} // namespace astrolabe::kineto
