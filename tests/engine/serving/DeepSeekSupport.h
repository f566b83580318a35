#pragma once
// DeepSeek-V3 on H800 nodes: 8 GPUs on NVLink (200 GB/s each way), nodes on 400 Gb/s NICs.
// Decode's all-to-all (DeepEP's low-latency kernels) moves at 0.85 of the links' bandwidth, set
// from DeepEP's published EP128 row (DeepSeekProfile.DeepEpsLowLatencyRowSetsTheDecodeAllToAll).
#include "project/ProjectFile.h"
#include "serving/StepCost.h"

#include <string>

namespace astrolabe::deepseektest {

/// `serving` adds lines to the serving: section (each ending in a newline, no indentation).
inline SimulationSpec project(int gpus, const std::string& serving) {
    std::string extra;
    size_t from = 0;
    while (from < serving.size()) {
        const size_t end = serving.find('\n', from);
        extra += "  " + serving.substr(from, end - from) + "\n";
        from = end == std::string::npos ? serving.size() : end + 1;
    }
    return parseProject(
        "name: deepseek\nplatform:\n  dimensions:\n"
        "    - {type: Switch, size: 8, bandwidth: 200 GB/s, latency: 1 us}\n"
        "    - {type: Switch, size: " +
            std::to_string(gpus / 8) +
            ", bandwidth: 50 GB/s, latency: 5 us}\n"
            "system:\n  algorithms: [direct, direct]\n  chunks: 4\n  scheduling-policy: LIFO\n"
            "  collective-optimization: localBWAware\n  active-chunks-per-dimension: 2\n"
            "  endpoint-delay: 10 ns\n  local-memory-bandwidth: 3350 GB/s\n"
            "serving:\n  model: deepseek-v3\n  gpu: h800\n  precision: fp8\n"
            "  low-latency-bandwidth-factor: 0.85\n" +
            extra,
        "deepseek.yaml");
}

// Two micro-batches, and a batch as large as the profile's in one iteration. While prefilling,
// DeepEP's all-to-all holds 24 of the H800's 132 SMs (the prefill figure of deepseek-ai/
// profile-data: computation on 108 SMs, communication on 24).
inline std::string settings(int ep, const std::string& model) {
    return "two-batch-overlap: true\nmax-batch: 65536\ntoken-budget: 1048576\nep: " +
           std::to_string(ep) + "\ncompute-model: " + model +
           "\ncomm-sm-fraction: " + std::to_string(24.0 / 132) + "\n";
}

/// One prefill iteration of `gpus` x 16,384 tokens in 4,096-token prompts.
inline serving::StepShape prefillShape(int gpus) {
    serving::StepShape s;
    const double prompts = gpus * 4.0, p = 4096;
    s.prefillTokens = int64_t(gpus) * 16384;
    s.prefillContext = prompts * p * (p + 1) / 2;
    s.logits = int64_t(prompts);
    return s;
}

/// One decode iteration of `perGpu` requests on each of `gpus` GPUs, `context` tokens each.
inline serving::StepShape decodeShape(int gpus, int perGpu, double context) {
    serving::StepShape s;
    s.decodeTokens = s.logits = int64_t(gpus) * perGpu;
    s.decodeContext = double(s.decodeTokens) * context;
    return s;
}

} // namespace astrolabe::deepseektest
