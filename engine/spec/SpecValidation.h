#pragma once
// Checks that need several files at once (a system list against the network's dimensions,
// communicator groups against the NPU count, trace files against the NPU count). Each file is
// already valid on its own when these run. The limits on sizes are checked here too, first.

#include "core/Error.h"
#include "core/Limits.h"
#include "spec/SimulationSpec.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace astrolabe {

/// Endpoint delay after the injection scale: one second, in ns.
inline constexpr double kMaxEndpointDelayNs = 1e9;

/// How the keys of a spec were spelled, so messages name the key the user wrote.
enum class SpecKeyStyle : uint8_t { AstraFiles, Project };

/// Whether crossCheckSpec looks for the trace files of every NPU.
enum class TraceFileCheck : uint8_t { Include, Skip };

/// The problems found (empty when consistent). Does not throw.
std::vector<Error> crossCheckSpec(const SimulationSpec& spec, SpecKeyStyle style,
                                  TraceFileCheck traces = TraceFileCheck::Include);
/// The values an expanded memory of the project format lacks (memory.bandwidth; per-node:
/// num-nodes and npus-per-node; pooled: groups and fabric-bandwidth), in key order, each an
/// error naming its key with an example as the hint. The project reader reports them, the
/// topology editor lists them: one wording for both.
std::vector<Error> memoryTierGaps(const RemoteMemoryConfig& memory);
/// Pooled memory through out-of-node switches (memory.switch-dimension) that does not name a
/// Switch dimension of a stacked platform; nothing otherwise. Part of crossCheckSpec, and
/// checked again by the simulation (a spec edited in the GUI is not re-read).
std::optional<Error> memorySwitchProblem(const SimulationSpec& spec);
/// Throws the error of a trace set that lacks a file for some NPU (what crossCheckSpec says),
/// naming the project's workload.trace key when the spec came from a project file.
void requireTraceFiles(const SimulationSpec& spec);

/// The Chakra traces <prefix>.<i>.et found beside a trace prefix.
struct TraceSetCount {
    int files = 0;      ///< files named <prefix>.<i>.et, any i
    int contiguous = 0; ///< i = 0, 1, ... present without a gap
};
/// Reads the prefix's directory once (not one probe per NPU); looks at no more than `maxEntries`
/// directory entries, so a huge directory costs a bounded time. Does not throw.
TraceSetCount countTraceFiles(const std::string& prefix, size_t maxEntries = size_t{1} << 20);

/// How a trace set fits the platform, said before a run: empty when the traces are exactly
/// <prefix>.0.et ... <prefix>.<n-1>.et for the platform's n NPUs.
struct TraceCountProblem {
    std::string message;
    bool blocking = false; ///< traces are missing (the run would fail); extra ones are only odd
    bool any() const { return !message.empty(); }
};
TraceCountProblem traceCountProblem(const SimulationSpec& spec);

} // namespace astrolabe
