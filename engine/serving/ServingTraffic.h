#pragma once
// Where a serving deployment sits on the platform, and what its KV-cache transfers put on the
// platform's links (docs/serving.md, "Pools on the platform").
//
// Placement (a convention: the serving model itself is placement-free): GPUs are taken in NPU
// id order, pool by pool in the result's replica order (prefill pool first), replica by
// replica; an AFD decode replica's attention GPUs come before its FFN GPUs. With dimension 0
// varying fastest, a replica of up to one node's GPUs stays inside a node. NPUs beyond the
// deployment's GPUs are idle.
//
// KV traffic: each P/D or AFD transfer of `prompt tokens x kvBytesPerToken` bytes leaves the
// prefill replica from its first `prefill-tp` GPUs (the GPUs holding the cache, as the run
// times it) to the decode replica's first GPUs, an equal share per pair, along the platform's
// routes (Topology::appendRoute).
//
// AFD traffic: every token an AFD decode replica decodes sends its activations (BF16, hidden
// wide) from the attention GPUs to the FFN GPUs and back in every layer, as AfdTiming times the
// exchange: tokens x hidden x 2 B x layers each way, an equal share per attention GPU, attention
// GPU g exchanging with FFN GPU g mod (FFN GPUs).

#include "record/RunResult.h"
#include "serving/ServingResult.h"
#include "spec/SimulationSpec.h"

#include <cstdint>
#include <vector>

namespace astrolabe::serving {

enum class GpuRole : uint8_t { Idle, Aggregated, Prefill, Decode, Attention, Ffn };
/// "idle", "aggregated", "prefill", "decode", "attention", "FFN"
const char* gpuRoleName(GpuRole role);

struct GpuPlacement {
    GpuRole role = GpuRole::Idle;
    int replica = -1; ///< index into ServingResult::replicas; -1 when idle
};

/// Each of `npus` NPUs' role, as above. O(npus).
std::vector<GpuPlacement> servingPlacement(const ServingSpec& spec,
                                           const std::vector<ReplicaStats>& replicas, int npus);

/// Sets run.links to the platform's links and run.linkStats / run.dimensions to the KV
/// transfers' and AFD exchanges' bytes and serialization time on them (busy = bytes / link
/// bandwidth). Nothing when the deployment has neither or needs more GPUs than the platform
/// has. O(links + transfers x route length).
void addServingTraffic(RunResult& run, const SimulationSpec& spec, const ServingResult& result);

} // namespace astrolabe::serving
