// The measured inference kernels (resources/compute/deepgemm-h800.csv, mla-decode.csv): the
// published rows read back as published, the reading between and outside them, and a bad row
// named by its line.
#include "hardware/MeasuredKernels.h"

#include "core/Error.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::hardware;

TEST(MeasuredKernels, PublishedRowsGiveTheirOwnTimes) {
    // DeepGEMM, H800: m 64, n 7168, k 16384 at 336 TFLOPS; masked 4 x 256 x 4096 x 7168 at 932.
    const auto dense = measuredGemmSeconds("h800", GemmLayout::Normal, 1, 64, 7168, 16384);
    ASSERT_TRUE(dense.has_value());
    EXPECT_NEAR(*dense, 2.0 * 64 * 7168 * 16384 / 336e12, 1e-12);
    const auto masked = measuredGemmSeconds("h800", GemmLayout::Masked, 4, 256, 4096, 7168);
    ASSERT_TRUE(masked.has_value());
    EXPECT_NEAR(*masked, 2.0 * 4 * 256 * 4096 * 7168 / 932e12, 1e-12);
    EXPECT_EQ(measuredGemms().size(), 28u);
    // H100 SXM reads the H800 rows (same die and HBM).
    EXPECT_EQ(*measuredGemmSeconds("h100", GemmLayout::Normal, 1, 64, 7168, 16384), *dense);
}

TEST(MeasuredKernels, BetweenAndOutsideTheMeasuredM) {
    // m = 90 between 64 (295 TFLOPS) and 128 (510) for n 7168, k 2048: linear in log(m).
    const double t = (std::log(90.0) - std::log(64.0)) / (std::log(128.0) - std::log(64.0));
    const double rate = 295 + t * (510 - 295);
    EXPECT_NEAR(*measuredGemmSeconds("h800", GemmLayout::Normal, 1, 90, 7168, 2048),
                2.0 * 90 * 7168 * 2048 / (rate * 1e12), 1e-12);
    // Above 4096: that row's 1025 TFLOPS. Below 64: its bytes at that row's 2470 GB/s.
    EXPECT_NEAR(*measuredGemmSeconds("h800", GemmLayout::Normal, 1, 8192, 7168, 2048),
                2.0 * 8192 * 7168 * 2048 / 1025e12, 1e-12);
    EXPECT_NEAR(*measuredGemmSeconds("h800", GemmLayout::Normal, 1, 8, 7168, 2048),
                (8.0 * 2048 + 7168.0 * 2048 + 2 * 8.0 * 7168) / 2470e9, 1e-12);
    // Two masked groups of 256 run at the rate measured for 256 per group.
    EXPECT_NEAR(*measuredGemmSeconds("h800", GemmLayout::Masked, 2, 256, 7168, 2048),
                2.0 * 2 * 256 * 7168 * 2048 / 815e12, 1e-12);
    // A shape or an accelerator the table does not hold: nothing.
    EXPECT_FALSE(measuredGemmSeconds("h800", GemmLayout::Normal, 1, 64, 8192, 8192).has_value());
    EXPECT_FALSE(measuredGemmSeconds("b200", GemmLayout::Normal, 1, 64, 7168, 2048).has_value());
}

TEST(MeasuredKernels, FlashMlaRatesAndBadRows) {
    const MlaDecodeRate* mla = findMlaDecodeRate("h800");
    ASSERT_NE(mla, nullptr);
    EXPECT_EQ(mla->tflops, 580);
    EXPECT_EQ(mla->gbps, 3000);
    EXPECT_EQ(findMlaDecodeRate("a100-80gb"), nullptr);
    const std::string header = "accelerator,layout,groups,m,n,k,tflops,gbps,source\n";
    try {
        parseMeasuredGemms(header + "h800,strided,1,64,7168,2048,295,2470,x\n", "t.csv");
        FAIL() << "an unknown layout was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("t.csv:2"), std::string::npos)
            << std::string(e.what());
        EXPECT_NE(std::string(e.what()).find("strided"), std::string::npos)
            << std::string(e.what());
    }
    // 295 TFLOPS and 1000 GB/s are not the same time for this shape.
    EXPECT_THROW(parseMeasuredGemms(header + "h800,normal,1,64,7168,2048,295,1000,x\n", "t.csv"),
                 Error);
}

TEST(MeasuredKernels, DecodeProfileKernelsAndTheirBadRows) {
    // resources/compute/decode-kernels-h800.csv: 18 computation kernels, the 4 of the shared
    // experts, the dispatch and the combine; the shortest 2 us (the latency).
    EXPECT_EQ(profileKernels().size(), 24u);
    EXPECT_DOUBLE_EQ(kernelLatencySeconds(), 2e-6);
    const std::string header = "accelerator,operation,kernel,tokens,microseconds,source\n";
    try {
        parseProfileKernels(header + "h800,q_b,FP8 GEMM,128,fast,x\n", "k.csv");
        FAIL() << "a duration that is not a number was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("k.csv:2"), std::string::npos)
            << std::string(e.what());
        EXPECT_NE(std::string(e.what()).find("microseconds"), std::string::npos)
            << std::string(e.what());
    }
    EXPECT_THROW(parseProfileKernels(header + "h800,q_b,FP8 GEMM,128,19,\n", "k.csv"), Error);
}
