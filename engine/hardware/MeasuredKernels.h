#pragma once
// Measured inference kernels by shape (resources/compute/deepgemm-h800.csv, mla-decode.csv;
// README.md there names the publication behind every row): FP8 GEMMs (DeepGEMM's table on
// H800) and MLA decoding attention (FlashMLA). The serving step cost (engine/serving) times the
// operations these tables cover from them and the others from the kernel curves
// (KernelCurves.h) or the roofline. H100 SXM reads the H800 rows: the same compute die and HBM3
// (3.35 TB/s); only NVLink differs (resources/compute/README.md).

#include <optional>
#include <string>
#include <vector>

namespace astrolabe::hardware {

enum class GemmLayout : unsigned char { Normal, Contiguous, Masked };
const char* gemmLayoutName(GemmLayout layout); ///< "normal", "contiguous", "masked"

struct MeasuredGemm {
    std::string accelerator;
    GemmLayout layout = GemmLayout::Normal;
    double groups = 1, m = 0, n = 0, k = 0; ///< m per group
    double tflops = 0, gbps = 0;
    std::string source;
};

struct MlaDecodeRate {
    std::string accelerator;
    double tflops = 0, gbps = 0;
    std::string source;
};

const std::vector<MeasuredGemm>& measuredGemms();
const std::vector<MlaDecodeRate>& mlaDecodeRates();

/// Seconds of `groups` FP8 GEMMs of m x k by k x n (m per group) on `accelerator` from the rows
/// of the same layout, n and k; nullopt when there are none. Between two measured m the rate is
/// read linear in log(m); above the largest m it stays that row's; below the smallest the
/// kernel streams its bytes (m k + n k + 2 m n per group) at the smallest row's bandwidth.
std::optional<double> measuredGemmSeconds(const std::string& accelerator, GemmLayout layout,
                                          double groups, double m, double n, double k);

/// A kernel of DeepSeek's decoding profile on H800 (resources/compute/decode-kernels-h800.csv):
/// what one MoE layer of one micro-batch launched and how long each kernel ran.
struct ProfileKernel {
    std::string accelerator, operation, kernel;
    double tokens = 0, seconds = 0;
    std::string source;
};
const std::vector<ProfileKernel>& profileKernels();

/// The shortest kernel of that profile: what a kernel whose work is negligible takes from its
/// start to its end (launch, a wave of one block, the write-back). The operation model adds it
/// to every element-wise kernel (serving/OperationStep.h), on every accelerator.
double kernelLatencySeconds();

/// The MLA decoding rates of `accelerator`, or nullptr.
const MlaDecodeRate* findMlaDecodeRate(const std::string& accelerator);

/// Parsers (`file` names them in errors). Throw astrolabe::Error (Input).
std::vector<MeasuredGemm> parseMeasuredGemms(const std::string& text, const std::string& file);
std::vector<MlaDecodeRate> parseMlaDecodeRates(const std::string& text, const std::string& file);
std::vector<ProfileKernel> parseProfileKernels(const std::string& text, const std::string& file);

} // namespace astrolabe::hardware
