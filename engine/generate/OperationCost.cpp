#include "generate/OperationCost.h"

#include "hardware/KernelCurves.h"

#include <algorithm>

namespace astrolabe::generate {

const char* timedByName(TimedBy by) {
    return by == TimedBy::Operations ? "operations" : "roofline";
}

TimedBy timedBy(double flops, const std::vector<Kernel>& kernels, const ComputeSpec& compute) {
    if (compute.model != ComputeModel::Operations || compute.gemmTflops <= 0)
        return TimedBy::Roofline;
    return !kernels.empty() || flops <= 0 ? TimedBy::Operations : TimedBy::Roofline;
}

double kernelSeconds(const Kernel& g, const ComputeSpec& c, double e) {
    const double stream = c.hbmGBps * 1e9 * c.memoryEfficiency;
    switch (g.kind) {
    case Kernel::Kind::Gemm: {
        const double flops = 2 * g.batch * g.m * g.n * g.k;
        if (flops <= 0)
            return 0;
        const double rate =
            (g.bf16 && c.fp8Gemms && c.bf16GemmTflops > 0 ? c.bf16GemmTflops : c.gemmTflops) * 1e12;
        const double ideal = flops / rate;
        const double fraction = std::max(1e-3, hardware::gemmShapeCurve().at(ideal * 1e6));
        const double operands = e * g.batch * (g.m * g.k + g.k * g.n + g.m * g.n);
        return std::max(ideal / fraction, operands / stream);
    }
    case Kernel::Kind::Memory:
        return g.bytes / stream;
    case Kernel::Kind::Flash:
        return g.flops / ((c.attentionPeakTflops > 0 ? c.attentionPeakTflops : c.peakTflops) *
                          1e12 * c.flashFraction);
    }
    return 0;
}

double computeSeconds(double flops, double bytes, const std::vector<Kernel>& kernels,
                      const ComputeSpec& c, double e) {
    if (timedBy(flops, kernels, c) == TimedBy::Roofline)
        return std::max(flops / (c.peakTflops * 1e12), bytes / (c.hbmGBps * 1e9)) / c.efficiency;
    if (kernels.empty())
        return bytes / (c.hbmGBps * 1e9 * c.memoryEfficiency);
    double seconds = 0;
    for (const Kernel& g : kernels)
        seconds += kernelSeconds(g, c, e);
    return seconds;
}

} // namespace astrolabe::generate
