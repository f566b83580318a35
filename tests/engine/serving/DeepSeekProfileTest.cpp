// DeepSeek-V3 on H800 as DeepSeek's public profile (deepseek-ai/profile-data) describes it,
// against the throughput InferSim's README reads from that profile: 7,839 prefill and 2,324
// decode tokens per GPU per second. docs/serving.md tabulates these beside InferSim's own
// simulation. The platform: 8 H800 per node on NVLink (400 GB/s per GPU both directions
// together: 200 GB/s each way), nodes joined by one 400 Gb/s NIC per GPU (50 GB/s).
#include "DeepSeekSupport.h"
#include "serving/Deployment.h"

#include <cstdio>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::serving;

namespace {
// Two micro-batches, and a batch as large as the profile's in one iteration.
const std::string kProfile = "two-batch-overlap: true\nmax-batch: 65536\ntoken-budget: 1048576\n";
} // namespace

TEST(DeepSeekProfile, PrefillEp32WithTwoMicroBatches) {
    // EP32, TP1, 4K prompts, 16K tokens per GPU: one iteration of 32 x 16,384 tokens, 128
    // prompts of 4,096 tokens each attending causally to their own earlier tokens.
    const SimulationSpec spec = deepseektest::project(32, kProfile + "ep: 32\n");
    const Deployment d = buildDeployment(spec, 4096);
    const StepShape s = deepseektest::prefillShape(32);
    const double perGpu = 16384 / d.pools[0].timing->stepSeconds(s);
    std::printf("DeepSeek-V3 prefill EP32: %.0f tokens/GPU/s (profile 7839, error %+.1f%%)\n",
                perGpu, (perGpu / 7839 - 1) * 100);
    EXPECT_NEAR(perGpu, 7839, 0.15 * 7839);
}

TEST(DeepSeekProfile, DecodeEp128WithTwoMicroBatches) {
    // EP128, TP1, 128 requests per GPU with 4K-token contexts: 16,384 decodes per iteration.
    const SimulationSpec spec = deepseektest::project(128, kProfile + "ep: 128\n");
    const Deployment d = buildDeployment(spec, 4096);
    const StepShape s = deepseektest::decodeShape(128, 128, 4096);
    const double perGpu = 128 / d.pools[0].timing->stepSeconds(s);
    std::printf("DeepSeek-V3 decode EP128: %.0f tokens/GPU/s (profile 2324, error %+.1f%%)\n",
                perGpu, (perGpu / 2324 - 1) * 100);
    EXPECT_NEAR(perGpu, 2324, 0.15 * 2324);
}
