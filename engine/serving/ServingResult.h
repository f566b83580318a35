#pragma once
// What a serving run produces: one record per request, the KV cache and preemptions over time,
// and the summary (percentiles, throughput, goodput under the SLOs). Times in seconds.
//
// Definitions (as vLLM's benchmark and DistServe use them):
//   TTFT   first token - arrival            E2E   last token - arrival
//   TPOT   (last token - first token) / (output tokens - 1), requests with 2+ output tokens
//   ITL    the gap between consecutive tokens of a request, every gap of every request
//   queueing  first iteration that ran any of the request's tokens - arrival
//   goodput   requests that met both SLOs (TTFT <= slo, TPOT <= slo) per second of the run
// The run lasts from the first arrival to the last token.

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::serving {

struct RequestRecord {
    double arrival = 0;
    double firstScheduled = -1;
    double firstToken = -1;
    double lastToken = -1;
    int32_t promptTokens = 0;
    int32_t outputTokens = 0;
    int32_t generated = 0;
    /// The replica (index over every pool, in pool order) that ran its prefill, and the one that
    /// ran its decode: the same replica unless the deployment is disaggregated.
    int32_t prefillReplica = -1;
    int32_t decodeReplica = -1;
    /// P/D: its KV cache left the prefill replica (its first token) and reached the decode
    /// replica's queue (the link's queueing, serialization and latency); -1 without a transfer.
    double transferStart = -1;
    double transferEnd = -1;
    bool finished() const { return generated >= outputTokens && lastToken >= 0; }
};

struct Percentiles {
    double p50 = 0, p90 = 0, p99 = 0, mean = 0, max = 0;
    int64_t count = 0;
};
/// Nearest-rank percentiles (the value at rank ceil(p/100 x n)); sorts `values`.
Percentiles percentiles(std::vector<double>& values);
Percentiles percentiles(std::vector<float>& values);

struct OccupancySample {
    double seconds = 0;
    double kvOccupancy = 0;  ///< used / total KV blocks over all replicas, in [0, 1]
    int64_t preemptions = 0; ///< since the previous sample
    int64_t running = 0;
    int64_t waiting = 0;
    int64_t outputTokens = 0; ///< tokens emitted since the previous sample
};

/// A pool's part in the deployment (AFD's decode pool is Decode: attention and FFN together).
enum class PoolRole : uint8_t { Aggregated, Prefill, Decode };
const char* poolRoleName(PoolRole role); ///< "aggregated", "prefill", "decode"

/// What one replica did over the run.
struct ReplicaStats {
    PoolRole role = PoolRole::Aggregated;
    int gpus = 1;
    double busySeconds = 0; ///< sum of its iterations' durations
    int64_t iterations = 0;
    int64_t requests = 0; ///< requests it admitted to its queue (a preempted one counts once)
    int64_t tokens = 0;   ///< prefill and decode tokens it computed
};

struct ServingSummary {
    int64_t requests = 0;
    int64_t completed = 0;
    double durationSeconds = 0; ///< first arrival to last token
    Percentiles ttft, tpot, itl, e2e, queueing;
    double requestsPerSecond = 0;
    double inputTokensPerSecond = 0;
    double outputTokensPerSecond = 0;
    int gpus = 0;
    int prefillGpus = 0;                 ///< P/D and AFD: the prefill pool; aggregated: every GPU
    int decodeGpus = 0;                  ///< P/D and AFD: the decode pool; aggregated: every GPU
    double outputTokensPerGpuSecond = 0; ///< over every GPU
    double goodputRequestsPerSecond = 0;
    double goodputPerGpu = 0;
    double sloAttainment = 0; ///< fraction of completed requests meeting both SLOs
    int64_t preemptions = 0;
    double peakKvOccupancy = 0;
    double meanKvOccupancy = 0;
    int64_t iterations = 0;
    double ttftSloSeconds = 0, tpotSloSeconds = 0;
};

struct ServingResult {
    ServingSummary summary;
    std::vector<RequestRecord> requests;
    std::vector<OccupancySample> occupancy;
    std::vector<ReplicaStats> replicas; ///< every pool's replicas, in pool order
    /// The link between replicas that carries P/D KV transfers.
    double linkBytesPerSecond = 0;
    double linkLatencySeconds = 0;
    /// The KV cache of one token of one request, every layer, bytes (a transfer carries
    /// prompt tokens x this; serving/ServingTraffic.h puts it on the platform's links).
    double kvBytesPerToken = 0;
    std::vector<std::string> warnings;
    double wallSeconds = 0;
};

/// The summary of the records (`itl`: every inter-token gap) under the two SLOs.
ServingSummary summarize(const std::vector<RequestRecord>& requests, std::vector<float>& itl,
                         const std::vector<OccupancySample>& occupancy, double ttftSloSeconds,
                         double tpotSloSeconds);

/// "key value" lines of the summary, for the terminal and the project database.
std::vector<std::string> summaryLines(const ServingSummary& summary);

} // namespace astrolabe::serving
