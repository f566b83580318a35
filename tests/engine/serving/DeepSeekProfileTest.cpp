// DeepSeek-V3 on H800 as DeepSeek's public profile (deepseek-ai/profile-data) describes it,
// against the throughput InferSim's README reads from that profile: 7,839 prefill and 2,324
// decode tokens per GPU per second. docs/serving.md tabulates these beside InferSim's own
// simulation. The platform: 8 H800 per node on NVLink (400 GB/s per GPU both directions
// together: 200 GB/s each way), nodes joined by one 400 Gb/s NIC per GPU (50 GB/s).
//
// The step is timed by operation (serving/OperationStep.h): DeepGEMM's published FP8 GEMM table
// and FlashMLA's published decoding rates for H800, the kernel curves for the rest. Nothing is
// fitted to either row: both are predictions, and both are still too fast (docs/serving.md says
// by how much and what is missing). The roofline at its default efficiencies (0.7 of the tensor
// peak, 0.8 of HBM) is a looser bound above both.
#include "DeepSeekSupport.h"
#include "serving/Deployment.h"
#include "serving/OperationStep.h"

#include <cstdio>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::serving;

namespace {

constexpr double kPrefillProfile = 7839, kDecodeProfile = 2324;

// Two micro-batches, and a batch as large as the profile's in one iteration. While prefilling,
// DeepEP's all-to-all holds 20 of the H800's 132 SMs (DeepSeek-V3 technical report, 3.2.2).
std::string settings(int ep, const std::string& model) {
    return "two-batch-overlap: true\nmax-batch: 65536\ntoken-budget: 1048576\nep: " +
           std::to_string(ep) + "\ncompute-model: " + model +
           "\ncomm-sm-fraction: " + std::to_string(20.0 / 132) + "\n";
}

void printOperations(const char* title, const Deployment& d, const StepShape& shape) {
    const auto* timing = dynamic_cast<const ColocatedTiming*>(d.pools[0].timing.get());
    ASSERT_NE(timing, nullptr);
    std::vector<OpTime> ops;
    const double total = operationSeconds(timing->cost(), fraction(shape, 2), &ops);
    std::printf("%s, one micro-batch per GPU: %.3f ms computation, communication %.3f ms per "
                "step\n",
                title, total * 1e3, timing->communicationSeconds(shape) * 1e3);
    for (const OpTime& op : ops)
        std::printf("  %-24s %8.3f ms  %s\n", op.name.c_str(), op.seconds * 1e3,
                    opSourceName(op.source));
}

struct Figures {
    double prefill = 0, decode = 0;
};

Figures perGpu(const std::string& model, bool print = false) {
    Figures f;
    // Prefill: EP32, TP1, 4K prompts, 16K tokens per GPU: one iteration of 32 x 16,384 tokens.
    const Deployment p = buildDeployment(deepseektest::project(32, settings(32, model)), 4096);
    f.prefill = 16384 / p.pools[0].timing->stepSeconds(deepseektest::prefillShape(32));
    // Decode: EP128, TP1, 128 requests per GPU with 4K-token contexts.
    const Deployment d = buildDeployment(deepseektest::project(128, settings(128, model)), 4096);
    f.decode = 128 / d.pools[0].timing->stepSeconds(deepseektest::decodeShape(128, 128, 4096));
    if (print) {
        printOperations("prefill EP32", p, deepseektest::prefillShape(32));
        printOperations("decode EP128", d, deepseektest::decodeShape(128, 128, 4096));
    }
    std::printf("%s: prefill %.0f tokens/GPU/s (profile %.0f, %+.1f%%), decode %.0f (profile "
                "%.0f, %+.1f%%)\n",
                model.c_str(), f.prefill, kPrefillProfile, (f.prefill / kPrefillProfile - 1) * 100,
                f.decode, kDecodeProfile, (f.decode / kDecodeProfile - 1) * 100);
    return f;
}

} // namespace

TEST(DeepSeekProfile, TheRooflineBoundsBothProfileFigures) {
    const Figures r = perGpu("roofline");
    EXPECT_GT(r.prefill, kPrefillProfile);
    EXPECT_GT(r.decode, kDecodeProfile);
}

TEST(DeepSeekProfile, TheOperationModelTightensTheRooflineButMissesThe15PercentTarget) {
    // Measured kernels, nothing fitted: prefill +26.1%, decode +42.2% (docs/serving.md). The
    // target of the issue (within 15%) is not met; what is asserted is what the model claims:
    // it is a bound (every kernel at its published best, no launch gaps, the all-to-all hidden),
    // so above the profile, and tighter than the roofline's +63% and +82% (both with DeepEP's
    // 20 SMs taken out while prefilling).
    const Figures f = perGpu("operations", true);
    const Figures r = perGpu("roofline");
    EXPECT_GT(f.prefill, kPrefillProfile);
    EXPECT_GT(f.decode, kDecodeProfile);
    EXPECT_LT(f.prefill - kPrefillProfile, 0.6 * (r.prefill - kPrefillProfile));
    EXPECT_LT(f.decode - kDecodeProfile, 0.6 * (r.decode - kDecodeProfile));
}
