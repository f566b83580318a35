#pragma once
// The operation compute model (docs/compute-model.md): a generated compute step is the kernels
// it launches, each timed from its operation and the measured kernel curves
// (hardware/KernelCurves.h), and the step's time is their sum. The roofline,
// max(FLOPs / peak, bytes / HBM) / efficiency, stays the fallback: for the roofline model, for
// a step that lists no kernels, and for an accelerator without a measured GEMM rate.

#include "generate/GeneratorSpec.h"

#include <cstdint>
#include <vector>

namespace astrolabe::generate {

struct Kernel {
    enum class Kind : uint8_t {
        Gemm,   ///< batch x (m x k) * (k x n), 2 m n k FLOPs each
        Memory, ///< element-wise / normalization / optimizer: `bytes` of HBM traffic
        Flash,  ///< fused attention (FlashAttention): `flops` at the accelerator's flash fraction
    };
    Kind kind = Kind::Memory;
    double batch = 1, m = 0, n = 0, k = 0;
    double bytes = 0;
    double flops = 0;
    /// A GEMM kept in BF16 when the others run in FP8 (ComputeSpec::fp8Gemms): Megatron's FP8
    /// recipes leave the LM head (output layer) in BF16; timed at ComputeSpec::bf16GemmTflops.
    bool bf16 = false;

    static Kernel gemm(double m, double n, double k, double batch = 1) {
        Kernel g;
        g.kind = Kind::Gemm;
        g.m = m;
        g.n = n;
        g.k = k;
        g.batch = batch;
        return g;
    }
    static Kernel bf16Gemm(double m, double n, double k) {
        Kernel g = gemm(m, n, k);
        g.bf16 = true;
        return g;
    }
    static Kernel memory(double bytes) {
        Kernel g;
        g.bytes = bytes;
        return g;
    }
    static Kernel flash(double flops) {
        Kernel g;
        g.kind = Kind::Flash;
        g.flops = flops;
        return g;
    }
};

/// Which model timed a step: the operation model (its kernels, or its bytes for a step of no
/// FLOPs such as the optimizer's) or the roofline.
enum class TimedBy : uint8_t { Operations, Roofline };
const char* timedByName(TimedBy by); ///< "operations", "roofline"

/// The model that times a step of `flops` with `kernels` under `compute`.
TimedBy timedBy(double flops, const std::vector<Kernel>& kernels, const ComputeSpec& compute);

/// Seconds of one kernel under the operation model; `elementBytes` sizes a GEMM's operands.
/// GEMM: max(2 batch m n k / (rate x shape fraction), operand bytes / achieved HBM bandwidth),
/// the rate the accelerator's achieved one and the fraction read from the shape curve at the
/// GEMM's ideal time. Memory: bytes / (HBM x memoryEfficiency). Flash: flops / (BF16 peak x
/// fraction).
double kernelSeconds(const Kernel& kernel, const ComputeSpec& compute, double elementBytes);

/// Seconds of a compute step: the sum of its kernels, the bytes of a FLOP-free step at the
/// achieved HBM bandwidth, or the roofline (timedBy says which).
double computeSeconds(double flops, double bytes, const std::vector<Kernel>& kernels,
                      const ComputeSpec& compute, double elementBytes);

} // namespace astrolabe::generate
