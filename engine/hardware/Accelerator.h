#pragma once
// The accelerator library: datasheet figures of the GPUs a platform is built from, read from
// resources/hardware/accelerators.csv (compiled in; its README names the datasheet behind every
// number). Rates are dense (no structured sparsity).
//
// Units: *Tflops 10^12 FLOP/s; hbmGiB 2^30 B; hbmGBps and scaleUpGBps 10^9 B/s (scale-up is the
// vendor's NVLink / xGMI total per GPU, both directions together); nicGbps 10^9 bit/s per GPU.

#include <string>
#include <vector>

namespace astrolabe::hardware {

struct Accelerator {
    std::string name;  ///< the key users type: "h100", "a100-80gb"
    std::string label; ///< "NVIDIA H100 SXM5 80 GB"
    double fp32Tflops = 0;
    double tf32Tflops = 0;
    double bf16Tflops = 0; ///< also FP16
    double fp8Tflops = 0;  ///< 0: no FP8 tensor cores
    double hbmGiB = 0;     ///< what the driver reports (the datasheet's "GB" of HBM is GiB)
    double hbmGBps = 0;
    double scaleUpGBps = 0;
    double nicGbps = 0;
    std::string source; ///< keys into resources/hardware/README.md

    double hbmBytes() const { return hbmGiB * 1024.0 * 1024.0 * 1024.0; }
};

/// Every entry, in the file's order. Parsed once; the file is part of the build, so a malformed
/// row is a build-time mistake caught by the tests (parseAcceleratorTable names its line).
const std::vector<Accelerator>& accelerators();

/// The entry called `name` (case-insensitive). Throws astrolabe::Error (Validation) at key path
/// `key` listing the valid names, with "did you mean" when one is close.
const Accelerator& findAccelerator(const std::string& name, const std::string& key = "gpu");

std::vector<std::string> acceleratorNames();

/// The dense tensor peak for `precision` ("fp32", "tf32", "bf16", "fp16", "fp8"), 10^12 FLOP/s.
/// Throws astrolabe::Error (Validation) at key path `key` for another name (the valid ones
/// listed) or a precision the part lacks (FP8 on A100).
double peakTflops(const Accelerator& gpu, const std::string& precision,
                  const std::string& key = "precision");

/// Parses the CSV text of the library (`file` names it in errors: "file:line: column: expected
/// a number >= 0, found ..."). Throws astrolabe::Error (Input).
std::vector<Accelerator> parseAcceleratorTable(const std::string& text, const std::string& file);

} // namespace astrolabe::hardware
