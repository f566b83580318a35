#include "generate/PipelineOrder.h"

#include <algorithm>

namespace astrolabe::generate {

namespace {

/// k-th forward (or backward) chunk pass of the interleaved schedule on any stage.
PipelineOp interleavedOp(bool forward, int k, int p, int v) {
    PipelineOp op;
    op.forward = forward;
    const int group = k / (p * v);
    const int inGroup = k % (p * v);
    op.chunk = inGroup / p;
    if (!forward)
        op.chunk = v - 1 - op.chunk;
    op.microBatch = group * p + inGroup % p;
    return op;
}

} // namespace

std::vector<PipelineOp> pipelineOrder(PipelineSchedule schedule, int p, int v, int m, int stage) {
    std::vector<PipelineOp> order;
    if (schedule == PipelineSchedule::GPipe) {
        for (int mb = 0; mb < m; ++mb)
            order.push_back({true, mb, 0});
        for (int mb = 0; mb < m; ++mb)
            order.push_back({false, mb, 0});
        return order;
    }
    const bool interleaved = schedule == PipelineSchedule::Interleaved;
    const int chunks = interleaved ? v : 1;
    const int total = m * chunks;
    const int warmup =
        std::min(total, interleaved ? (p - stage - 1) * 2 + (v - 1) * p : p - stage - 1);
    auto forwardOp = [&](int k) {
        return interleaved ? interleavedOp(true, k, p, v) : PipelineOp{true, k, 0};
    };
    auto backwardOp = [&](int k) {
        return interleaved ? interleavedOp(false, k, p, v) : PipelineOp{false, k, 0};
    };
    for (int k = 0; k < warmup; ++k)
        order.push_back(forwardOp(k));
    const int steady = total - warmup;
    for (int k = 0; k < steady; ++k) {
        order.push_back(forwardOp(warmup + k));
        order.push_back(backwardOp(k));
    }
    for (int k = steady; k < total; ++k)
        order.push_back(backwardOp(k));
    return order;
}

double pipelineBubbleFraction(PipelineSchedule schedule, int p, int v, int m) {
    const double work = schedule == PipelineSchedule::Interleaved ? double(v) * m : double(m);
    return double(p - 1) / (work + p - 1);
}

int peakInFlightChunks(PipelineSchedule schedule, int p, int v, int m, int stage) {
    if (schedule == PipelineSchedule::GPipe)
        return m;
    // The order (pipelineOrder) is warm-up forwards, then forward / backward pairs, then the
    // remaining backwards: the peak is one past the warm-up while a steady pair exists.
    const bool interleaved = schedule == PipelineSchedule::Interleaved;
    const int total = m * (interleaved ? v : 1);
    const int warmup =
        std::min(total, interleaved ? (p - stage - 1) * 2 + (v - 1) * p : p - stage - 1);
    return std::min(total, warmup + 1);
}

int peakLastChunkInFlight(PipelineSchedule schedule, int p, int v, int m) {
    (void)p;
    (void)v;
    if (schedule == PipelineSchedule::GPipe || m <= 0)
        return m;
    // 1F1B and interleaved: on the last stage each forward of the last chunk is followed at once
    // by its backward.
    return 1;
}

} // namespace astrolabe::generate
