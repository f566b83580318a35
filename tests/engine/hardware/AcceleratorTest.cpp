// The accelerator library against the datasheets it cites (resources/hardware/README.md). The
// expected figures are typed here from the documents, not from the CSV: a mistyped CSV cell
// fails. Tensor rates printed "with sparsity" are halved to the dense rate the library holds.
#include "hardware/Accelerator.h"

#include "core/Error.h"
#include "generate/GeneratorValues.h"

#include <gtest/gtest.h>
#include <map>

namespace astrolabe::hardware {
namespace {

struct Datasheet {
    double fp32, tf32, bf16, fp8, hbmGiB, hbmGBps, scaleUpGBps, nicGbps;
};

// name -> figures as printed (sparse tensor rates marked "/ 2").
const std::map<std::string, Datasheet>& datasheets() {
    static const std::map<std::string, Datasheet> sheets{
        // A100 datasheet: dense TF32 156, BF16 312; NVLink 600 GB/s; DGX A100: 8 x 200 Gb/s.
        {"a100-40gb", {19.5, 156, 312, 0, 40, 1555, 600, 200}},
        {"a100-80gb", {19.5, 156, 312, 0, 80, 2039, 600, 200}},
        // H100 SXM datasheet: TF32 989, BF16 1,979, FP8 3,958 with sparsity; HBM as nvidia-smi
        // reports it, 81,559 MiB (the datasheets' "GB" of HBM is GiB, rounded).
        {"h100", {67, 989.0 / 2, 1979.0 / 2, 3958.0 / 2, 81559.0 / 1024, 3350, 900, 400}},
        {"h800", {67, 989.0 / 2, 1979.0 / 2, 3958.0 / 2, 81559.0 / 1024, 3350, 400, 400}},
        {"h200", {67, 989.0 / 2, 1979.0 / 2, 3958.0 / 2, 141, 4800, 900, 400}},
        // HGX B200 (8 GPUs): FP32 600 TF, TF32 18 PF, BF16 36 PF, FP8 72 PF (sparse), 1,440 GB,
        // 64 TB/s; NVLink 1.8 TB/s per GPU.
        {"b200",
         {600.0 / 8, 18000.0 / 8 / 2, 36000.0 / 8 / 2, 72000.0 / 8 / 2, 1440.0 / 8, 64000.0 / 8,
          1800, 400}},
        // MI300X datasheet (dense); 7 Infinity Fabric links x 128 GB/s.
        {"mi300x", {163.4, 653.7, 1307.4, 2614.9, 192, 5300, 7 * 128, 400}},
    };
    return sheets;
}

TEST(AcceleratorLibrary, EveryEntryMatchesItsDatasheet) {
    ASSERT_EQ(accelerators().size(), datasheets().size());
    for (const auto& [name, sheet] : datasheets()) {
        SCOPED_TRACE(name);
        const Accelerator& a = findAccelerator(name);
        EXPECT_NEAR(a.fp32Tflops, sheet.fp32, 0.06);
        EXPECT_NEAR(a.tf32Tflops, sheet.tf32, 0.06);
        EXPECT_NEAR(a.bf16Tflops, sheet.bf16, 0.06);
        EXPECT_NEAR(a.fp8Tflops, sheet.fp8, 0.06);
        EXPECT_NEAR(a.hbmGiB, sheet.hbmGiB, 0.001);
        EXPECT_DOUBLE_EQ(a.hbmGBps, sheet.hbmGBps);
        EXPECT_DOUBLE_EQ(a.scaleUpGBps, sheet.scaleUpGBps);
        EXPECT_DOUBLE_EQ(a.nicGbps, sheet.nicGbps);
        EXPECT_FALSE(a.source.empty());
        EXPECT_FALSE(a.label.empty());
    }
}

TEST(AcceleratorLibrary, RatesAreOrderedByPrecision) {
    // Each halving of the operand width doubles the tensor rate on these parts (FP8 where present).
    for (const Accelerator& a : accelerators()) {
        SCOPED_TRACE(a.name);
        EXPECT_NEAR(a.bf16Tflops / a.tf32Tflops, 2.0, 0.01);
        if (a.fp8Tflops > 0) {
            EXPECT_NEAR(a.fp8Tflops / a.bf16Tflops, 2.0, 0.01);
        }
        EXPECT_GT(a.tf32Tflops, a.fp32Tflops);
    }
}

TEST(AcceleratorLibrary, UnknownNameListsTheValidOnesAndSuggests) {
    try {
        findAccelerator("h10", "gpu");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().keyPath, "gpu");
        EXPECT_NE(e.message().find("a100-40gb"), std::string::npos) << e.message();
        EXPECT_NE(e.message().find("mi300x"), std::string::npos) << e.message();
        EXPECT_NE(e.hint().find("did you mean"), std::string::npos) << e.hint();
    }
    EXPECT_EQ(findAccelerator("H100").name, "h100"); // case-insensitive
}

TEST(AcceleratorLibrary, MalformedTableNamesFileLineAndColumn) {
    const std::string header = "name,label,fp32_tflops,tf32_tflops,bf16_tflops,fp8_tflops,hbm_gib,"
                               "hbm_gbps,scaleup_gbps,nic_gbps,source\n";
    try {
        parseAcceleratorTable("# comment\n" + header + "x,X,1,2,fast,0,1,1,1,1,src\n", "t.csv");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().file, "t.csv");
        EXPECT_EQ(e.where().line, 3);
        EXPECT_NE(e.message().find("bf16_tflops"), std::string::npos) << e.message();
        EXPECT_NE(e.message().find("fast"), std::string::npos) << e.message();
    }
    EXPECT_THROW(parseAcceleratorTable(header + "x,X,1,2\n", "t.csv"), Error);
    EXPECT_THROW(parseAcceleratorTable(header + "x,X,1,2,4,0,1,1,1,1,\n", "t.csv"), Error);
    EXPECT_THROW(parseAcceleratorTable("name,label\n", "t.csv"), Error);
}

TEST(AcceleratorLibrary, GeneratorTakesTheGpuAndLetsFlagsOverrideIt) {
    using generate::generatorSpecFrom;
    const generate::GeneratorSpec a100 = generatorSpecFrom("gpt3-175b", {{"gpu", "a100-80gb"}});
    EXPECT_DOUBLE_EQ(a100.compute.peakTflops, 312);
    EXPECT_DOUBLE_EQ(a100.compute.hbmGBps, 2039);
    EXPECT_DOUBLE_EQ(a100.compute.hbmCapacityGiB, 80); // 81,920 MiB, as nvidia-smi reports
    const generate::GeneratorSpec own =
        generatorSpecFrom("gpt3-175b", {{"gpu", "a100-80gb"}, {"peak-tflops", "300"}});
    EXPECT_DOUBLE_EQ(own.compute.peakTflops, 300);
    EXPECT_DOUBLE_EQ(own.compute.hbmGBps, 2039);
    EXPECT_THROW(generatorSpecFrom("gpt3-175b", {{"gpu", "v100"}}), Error);
    // FP8: the part's FP8 rate; A100 has none; a precision needs a gpu.
    EXPECT_DOUBLE_EQ(
        generatorSpecFrom("gpt3-175b", {{"gpu", "h100"}, {"precision", "fp8"}}).compute.peakTflops,
        3958.0 / 2);
    EXPECT_THROW(generatorSpecFrom("gpt3-175b", {{"gpu", "a100-80gb"}, {"precision", "fp8"}}),
                 Error);
    EXPECT_THROW(generatorSpecFrom("gpt3-175b", {{"precision", "fp8"}}), Error);
    EXPECT_THROW(generatorSpecFrom("gpt3-175b", {{"gpu", "h100"}, {"precision", "int4"}}), Error);
}

} // namespace
} // namespace astrolabe::hardware
