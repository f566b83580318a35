#pragma once
// What a serving (LLM inference) run is asked to simulate: the `serving:` section of a project
// (schema: schema/ServingSettings.cpp, docs/serving.md). Plain values; names (model
// preset, accelerator, distributions, deployment) are checked by engine/serving when it builds
// the run, so an unknown name is reported with the valid ones.
//
// Units: times in nanoseconds (the schema's Unit::Nanoseconds), rates in requests per second,
// lengths in tokens, fractions in [0, 1].

#include <cstdint>
#include <string>

namespace astrolabe {

/// One token-length distribution (prompt or output).
struct LengthSpec {
    std::string kind = "fixed"; ///< fixed, uniform, lognormal, empirical
    double mean = 512;          ///< fixed: the length; lognormal: the mean
    double sigma = 0.5;         ///< lognormal: sigma of the underlying normal
    int64_t minimum = 1;        ///< uniform bounds; every kind is clamped to [minimum, maximum]
    int64_t maximum = 4096;
    std::string file; ///< empirical: one length per line (absolute after reading)
    bool operator==(const LengthSpec&) const = default;
};

/// The longest arrival window, 10^15 ns (about 11.6 days; the Azure week is 6e14 ns): the run
/// drains its requests after it, and every time stays within the simulated clock's 106 days.
inline constexpr double kMaxServingDurationNs = 1e15;
/// Synthetic arrival rates, requests per second: from one in 11.6 days to ten million a second.
inline constexpr double kMinServingRate = 1e-6;
inline constexpr double kMaxServingRate = 1e7;

struct ServingSpec {
    bool enabled = false; ///< the project has a serving: section

    // Model and hardware.
    std::string model = "llama3-8b"; ///< a preset of engine/generate (ModelPresets.h)
    std::string gpu = "h100";        ///< resources/hardware/accelerators.csv
    std::string precision = "bf16";  ///< weights and matrix multiplies: bf16 or fp8
    std::string kvPrecision = "bf16";
    /// operations: each kernel timed from measured figures; roofline: one roofline per step part
    std::string computeModel = "operations";
    double computeEfficiency = 0.7;   ///< roofline: fraction of the dense peak reached
    double bandwidthEfficiency = 0.8; ///< roofline: fraction of HBM bandwidth reached
    double stepOverheadNs = 0;        ///< fixed cost per iteration (launches, scheduling)

    // Deployment.
    std::string deployment = "aggregated"; ///< aggregated, pd, afd
    int replicas = 1;                      ///< aggregated: replicas; pd/afd: decode replicas
    int tp = 1;                            ///< tensor parallelism of attention and dense layers
    int ep = 1;                            ///< expert parallelism (GPUs per replica for MoE models)
    int pp = 1;                            ///< pipeline stages per replica (aggregated, pd decode)
    int prefillReplicas = 1;               ///< pd/afd
    int prefillTp = 1;                     ///< pd/afd
    int prefillEp = 1;                     ///< pd/afd
    int prefillPp = 1;                     ///< pd/afd: pipeline stages per prefill replica
    int afdAttentionGpus = 1;              ///< afd: attention GPUs per decode replica
    int afdFfnGpus = 1;                    ///< afd: FFN/expert GPUs per decode replica
    bool twoBatchOverlap = false;          ///< two micro-batches overlap compute and all-to-all
    double commSmFraction = 0;             ///< SMs the overlapped all-to-all holds while prefilling
    double lowLatencyBandwidthFactor = 1;  ///< decode-only iterations' all-to-all bandwidth share
    double moeImbalance = 1.0; ///< busiest expert GPU's load over the mean (1: balanced)

    // Scheduler (per replica).
    int maxBatch = 256;     ///< running requests
    int tokenBudget = 8192; ///< tokens per iteration (prefill chunks + decodes)
    bool chunkedPrefill = true;
    int blockTokens = 16;                 ///< paged KV cache block size
    double kvMemoryFraction = 0.9;        ///< of HBM usable for weights + KV cache
    std::string preemption = "recompute"; ///< recompute or swap (to host memory)
    double swapGBps = 50;                 ///< host link per GPU for swap, 10^9 B/s

    // Requests.
    std::string arrival = "poisson"; ///< poisson, gamma, concurrency
    double rate = 1.0;               ///< requests per second (poisson, gamma)
    double burstiness = 1.0;         ///< gamma: coefficient of variation of the gaps
    int concurrency = 1;             ///< concurrency: requests kept in flight
    double durationNs = 60e9;        ///< arrivals stop after this much simulated time
    int64_t seed = 1;
    LengthSpec input{"fixed", 512, 0.5, 1, 4096, {}};
    LengthSpec output{"fixed", 128, 0.5, 1, 4096, {}};
    double prefixReuse = 0; ///< fraction of each prompt already cached (skips its prefill)
    std::string trace;      ///< a request trace instead of synthetic arrivals (absolute)
    std::string traceFormat = "azure"; ///< azure or burstgpt

    // Service-level objectives.
    double ttftSloNs = 2e9;
    double tpotSloNs = 100e6;

    bool operator==(const ServingSpec&) const = default;
};

} // namespace astrolabe
