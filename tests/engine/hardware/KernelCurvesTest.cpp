// The operation compute model's kernel curves (resources/compute/README.md): the measured GEMM
// rates against the table they cite, typed here from the source and not from the CSV, and the
// curve interpolation (non-decreasing, clamped outside the measured range).
#include "hardware/KernelCurves.h"

#include "core/Error.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>

namespace astrolabe::hardware {
namespace {

TEST(GemmRates, EveryEntryMatchesItsMeasurement) {
    // Bekman, "Maximum Achievable Matmul FLOPS comparison table": BF16 A100 SXM 271.2,
    // H100 SXM 794.5 (H200 the same), B200 SXM 1745.0, MI300X 668.4; FP8 H100 SXM 1402.6,
    // H200 SXM 1453.4, B200 SXM 3432.5. A100 40 GB and H800 carry the same die's figure.
    const std::map<std::pair<std::string, std::string>, double> measured{
        {{"a100-40gb", "bf16"}, 271.2}, {{"a100-80gb", "bf16"}, 271.2}, {{"h100", "bf16"}, 794.5},
        {{"h100", "fp8"}, 1402.6},      {{"h800", "bf16"}, 794.5},      {{"h800", "fp8"}, 1402.6},
        {{"h200", "bf16"}, 794.5},      {{"h200", "fp8"}, 1453.4},      {{"b200", "bf16"}, 1745.0},
        {{"b200", "fp8"}, 3432.5},      {{"mi300x", "bf16"}, 668.4},
    };
    ASSERT_EQ(gemmRates().size(), measured.size());
    for (const GemmRate& r : gemmRates()) {
        SCOPED_TRACE(r.accelerator + " " + r.precision);
        const auto it = measured.find({r.accelerator, r.precision});
        ASSERT_NE(it, measured.end());
        EXPECT_DOUBLE_EQ(r.gemmTflops, it->second);
        EXPECT_FALSE(r.source.empty());
        if (r.accelerator == "b200") {
            // Measured on B200 at Llama's attention shape (head dim 128, causal, s 8192; the
            // FlashAttention-4 authors, Dao-AILab/flash-attention#2280): forward 1418.1 and
            // backward 1208.6 TFLOP/s. The backward's FLOPs are 2.5 x the forward's, so the
            // pair runs at 3.5 / (1 / 1418.1 + 2.5 / 1208.6) over the 2250 TFLOP/s BF16 peak.
            EXPECT_NEAR(r.flashFraction, 3.5 / (1 / 1418.1 + 2.5 / 1208.6) / 2250, 5e-4);
            // Under a sustained load the same kernel fell from 1450 to 1237 TFLOP/s as the SM
            // clock dropped from 1965 to about 1580 MHz (flashinfer-ai/flashinfer#2899).
            EXPECT_NEAR(r.sustainedFraction, 1237.0 / 1450, 5e-4);
            continue;
        }
        // Inside both FlashAttention papers' ranges (FA2: 50-73 % on A100), and no published
        // measurement of a sustained-load drop.
        EXPECT_DOUBLE_EQ(r.flashFraction, 0.6);
        EXPECT_DOUBLE_EQ(r.sustainedFraction, 1);
    }
    EXPECT_EQ(findGemmRate("a100-80gb", "fp16"), findGemmRate("a100-80gb", "bf16"));
    EXPECT_EQ(findGemmRate("a100-80gb", "fp8"), nullptr); // no FP8 tensor cores
    EXPECT_EQ(findGemmRate("nonesuch", "bf16"), nullptr);
}

TEST(GemmShapeCurve, HoldsXlaH100PointsNormalisedToTheFastest) {
    const MonotoneCurve& c = gemmShapeCurve();
    ASSERT_EQ(c.xs().size(), 15u);
    // 1024^3 at batch 1: 2.147 GFLOP measured at 236.3 TFLOP/s; the fastest entry 808.7.
    const double ideal = 2.0 * 1024 * 1024 * 1024 / 808.699906572796e12 * 1e6;
    EXPECT_NEAR(c.at(ideal), 236.298816901408 / 808.699906572796, 2e-4);
    // 4096^3 at batch 1: 783.3 TFLOP/s.
    EXPECT_NEAR(c.at(2.0 * 4096 * 4096 * 4096 / 808.699906572796e12 * 1e6), 0.9686, 2e-4);
}

TEST(MonotoneCurve, NeverDecreasesAndClampsOutsideItsPoints) {
    const MonotoneCurve& c = gemmShapeCurve();
    double previous = 0;
    for (double x = 1e-3; x < 1e5; x *= 1.07) {
        const double y = c.at(x);
        EXPECT_GE(y, previous) << "at " << x;
        previous = y;
    }
    EXPECT_DOUBLE_EQ(c.at(1e-9), c.ys().front());
    EXPECT_DOUBLE_EQ(c.at(c.xs().front() / 2), c.ys().front());
    EXPECT_DOUBLE_EQ(c.at(1e12), c.ys().back());
    EXPECT_DOUBLE_EQ(c.at(c.xs().back() * 3), c.ys().back());
}

TEST(MonotoneCurve, InterpolatesInLogXAndPoolsViolators) {
    const MonotoneCurve c({1, 10, 100}, {0.2, 0.6, 1.0});
    EXPECT_DOUBLE_EQ(c.at(1), 0.2);
    EXPECT_NEAR(c.at(std::sqrt(10.0)), 0.4, 1e-12); // halfway in log x
    EXPECT_NEAR(c.at(std::sqrt(1000.0)), 0.8, 1e-12);
    // A measured dip (0.9 after 1.0) is pooled with its neighbour: both become 0.95.
    const MonotoneCurve d({1, 2, 3, 4}, {0.5, 1.0, 0.9, 1.2});
    EXPECT_DOUBLE_EQ(d.ys()[1], 0.95);
    EXPECT_DOUBLE_EQ(d.ys()[2], 0.95);
    EXPECT_DOUBLE_EQ(d.at(4), 1.2);
    EXPECT_THROW(MonotoneCurve({2, 1}, {0, 1}), std::invalid_argument);
    EXPECT_THROW(MonotoneCurve({1}, {0, 1}), std::invalid_argument);
}

TEST(KernelCurveFiles, BadRowsNameFileLineAndColumn) {
    const std::string header =
        "accelerator,precision,gemm_tflops,flash_fraction,sustained_fraction,source\n";
    try {
        parseGemmRates(header + "h100,bf16,fast,0.6,1,x\n", "r.csv");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().file, "r.csv");
        EXPECT_EQ(e.where().line, 2);
        EXPECT_NE(std::string(e.what()).find("gemm_tflops"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parseGemmRates(header + "h100,bf16,1,1.5,1,x\n", "r.csv"), Error);
    EXPECT_THROW(parseGemmRates(header + "h100,bf16,1,0.5,1,x\nh100,bf16,2,0.5,1,y\n", "r.csv"),
                 Error);
    // A sustained share above the measured rate, or none at all, names its column.
    for (const char* bad : {"h100,bf16,1,0.5,1.2,x\n", "h100,bf16,1,0.5,0,x\n"}) {
        try {
            parseGemmRates(header + bad, "r.csv");
            FAIL() << "no error for " << bad;
        } catch (const Error& e) {
            EXPECT_EQ(e.where().line, 2);
            EXPECT_NE(std::string(e.what()).find("sustained_fraction"), std::string::npos)
                << e.what();
        }
    }
    const std::string shape = "ideal_us,fraction,batch,m_n_k,measured_tflops\n";
    EXPECT_THROW(parseGemmShape(shape + "2,0.5,1,1,1\n1,0.6,1,1,1\n", "s.csv"), Error);
    EXPECT_THROW(parseGemmShape(shape, "s.csv"), Error);
    EXPECT_EQ(parseGemmShape(shape + "1,0.5,1,1,1\n", "s.csv").at(7), 0.5);
}

} // namespace
} // namespace astrolabe::hardware
