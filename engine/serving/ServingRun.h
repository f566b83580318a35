#pragma once
// The one entry point of a serving run (CLI and GUI alike): the project's serving: section in,
// a ServingResult out. Discrete-event on the engine's EventQueue: one pending event per replica
// (its iteration in flight), one for the next arrival, one per KV-cache transfer in flight and
// one for the occupancy sampler. Same input, same output, bit for bit.
//
// Requests go to the replica of their pool with the fewest requests (ties: the lowest index).
// P/D: when a prefill replica emits a request's first token, its KV cache (prompt tokens x
// kvBytesPerToken) is sent to the least-loaded decode replica over the scale-out link:
// transfers to one decode replica queue behind each other, each taking
// bytes / (link bandwidth x GPUs holding the cache) + link latency.

#include "serving/Requests.h"
#include "serving/ServingResult.h"
#include "spec/SimulationSpec.h"

#include <vector>

namespace astrolabe::serving {

/// A project to run as serving (`astrolabe-cli serve`, the window's Run): a serving: section
/// and no workload of its own (the default microbenchmark of size 0).
bool isServingProject(const SimulationSpec& spec);

/// Builds the deployment and the requests (the trace, or synthetic arrivals) and runs them to
/// completion. Throws astrolabe::Error (Validation, Input) naming the serving.* key or the
/// trace's row: a KV cache that cannot hold one request, weights that do not fit, bad rows.
ServingResult runServing(const SimulationSpec& spec);
/// The same with the requests given (sorted by arrival).
ServingResult runServing(const SimulationSpec& spec, std::vector<Request> requests);

} // namespace astrolabe::serving
