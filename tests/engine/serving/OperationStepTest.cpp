// The element-wise kernels of the operation model by hand: each is the kernel latency (2 us, the
// shortest kernel of DeepSeek's decoding profile) plus its bytes at 0.8 of HBM, on any model.
#include "serving/OperationStep.h"

#include "ServingTestSupport.h"
#include "hardware/MeasuredKernels.h"
#include "serving/Deployment.h"
#include "serving/StepTiming.h"

#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::serving;

namespace {

constexpr double kRate = 3350e9 * 0.8; // H100 HBM x the element-wise share
constexpr double kLatency = 2e-6;

double op(const std::vector<OpTime>& ops, const std::string& name) {
    for (const OpTime& o : ops)
        if (o.name == name)
            return o.seconds;
    ADD_FAILURE() << "no operation " << name;
    return 0;
}

std::vector<OpTime> operations(const std::string& serving, const StepShape& shape) {
    const Deployment d = buildDeployment(servingtest::project(serving), 1000);
    const auto* t = dynamic_cast<const ColocatedTiming*>(d.pools[0].timing.get());
    EXPECT_NE(t, nullptr);
    std::vector<OpTime> ops;
    if (t)
        operationSeconds(t->cost(), shape, &ops);
    return ops;
}

} // namespace

TEST(OperationStep, ElementWiseKernelsAreTheLatencyPlusTheirBytes) {
    ASSERT_DOUBLE_EQ(hardware::kernelLatencySeconds(), kLatency);
    // Llama-3 8B, BF16, one H100, 8 decode tokens: per layer two norms with their residual
    // additions (read and write both, 4 x 2 bytes x hidden each) and the final one (2 x 2
    // bytes), the rotary embedding of 32 query and 8 key heads of 128, and the cache write of
    // 8 K and 8 V heads (read BF16, write BF16).
    StepShape s;
    s.decodeTokens = s.logits = 8;
    s.decodeContext = 8 * 1000.0;
    const auto ops = operations("model: llama3-8b\n  gpu: h100\n", s);
    const double h = 4096, T = 8;
    EXPECT_NEAR(op(ops, "norms"),
                64 * (kLatency + 4 * 2 * T * h / kRate) + kLatency + 2 * 2 * T * h / kRate, 1e-12);
    EXPECT_NEAR(op(ops, "rotary"), 32 * (kLatency + 2 * 2 * T * 40 * 128 / kRate), 1e-12);
    EXPECT_NEAR(op(ops, "kv cache write"), 32 * (kLatency + T * 2 * 8 * 128 * 4 / kRate), 1e-12);
}

TEST(OperationStep, APrefillScattersAndGathersTheRoutedRowsOnce) {
    // Qwen3-30B-A3B (48 MoE layers, hidden 2,048, 128 experts, top-8), BF16, one H100: every
    // token reaches the GPU's experts, so the scatter reads its 1,024 rows and writes 8 x 1,024,
    // the gather the reverse, both BF16. A decode-only iteration (masked layout) has neither.
    StepShape s;
    s.prefillTokens = 1024;
    s.prefillContext = 1024.0 * 1025 / 2;
    s.logits = 1;
    const auto ops = operations("model: qwen3-30b-a3b\n  gpu: h100\n", s);
    const double rows = 1024 + 8 * 1024.0;
    EXPECT_NEAR(op(ops, "routed scatter (prefill)"), 48 * (kLatency + rows * 2048 * 2 / kRate),
                1e-12);
    EXPECT_NEAR(op(ops, "routed gather (prefill)"), 48 * (kLatency + rows * 2048 * 2 / kRate),
                1e-12);
    StepShape decode;
    decode.decodeTokens = decode.logits = 8;
    decode.decodeContext = 8000;
    for (const OpTime& o : operations("model: qwen3-30b-a3b\n  gpu: h100\n", decode))
        EXPECT_EQ(o.name.find("scatter"), std::string::npos);
}
