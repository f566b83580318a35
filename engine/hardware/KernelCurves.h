#pragma once
// The measured kernel curves of the operation compute model (docs/compute-model.md): each
// accelerator's achieved GEMM rate by precision and its FlashAttention fraction
// (resources/compute/gemm-rates.csv), and the fraction of that rate a GEMM reaches by its size
// (resources/compute/gemm-shape.csv). Both files are compiled in; resources/compute/README.md
// names the measurement behind every number.

#include <string>
#include <vector>

namespace astrolabe::hardware {

/// A non-decreasing curve y(x), linear in log(x) between its points and clamped to its first
/// and last y outside them.
class MonotoneCurve {
public:
    MonotoneCurve() = default;
    /// `x` strictly increasing and > 0 (sorted by the caller); `y` as measured: points that
    /// break the order are pooled with their neighbours (pool-adjacent-violators, weights equal)
    /// so the curve never decreases. Throws std::invalid_argument on sizes or x out of order.
    MonotoneCurve(std::vector<double> x, std::vector<double> y);

    double at(double x) const;
    const std::vector<double>& xs() const { return m_x; }
    const std::vector<double>& ys() const { return m_y; }

private:
    std::vector<double> m_x, m_y;
};

struct GemmRate {
    std::string accelerator;  ///< a key of the accelerator library ("a100-80gb")
    std::string precision;    ///< "bf16", "fp8"
    double gemmTflops = 0;    ///< achieved dense GEMM rate, 10^12 FLOP/s
    double flashFraction = 0; ///< FlashAttention (fwd + bwd) rate over the dense peak
    /// The share of both rates kept under sustained load (power-limited clocks), in (0, 1].
    double sustainedFraction = 1;
    std::string source;
};

/// Every row of gemm-rates.csv, in the file's order.
const std::vector<GemmRate>& gemmRates();
/// The row for `accelerator` and `precision` ("fp16" reads "bf16"), or nullptr: the compute
/// model then times that GPU's nodes by the roofline.
const GemmRate* findGemmRate(const std::string& accelerator, const std::string& precision);

/// The fraction of the achieved rate a GEMM reaches, by the microseconds it would take at that
/// rate (gemm-shape.csv).
const MonotoneCurve& gemmShapeCurve();

/// Parsers of the two files (`file` names them in errors: "file:line: column: ...").
/// Throw astrolabe::Error (Input).
std::vector<GemmRate> parseGemmRates(const std::string& text, const std::string& file);
MonotoneCurve parseGemmShape(const std::string& text, const std::string& file);

} // namespace astrolabe::hardware
