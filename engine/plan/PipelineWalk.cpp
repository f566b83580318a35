#include "plan/PipelineWalk.h"

#include "generate/PipelineOrder.h"

#include <algorithm>
#include <limits>

namespace astrolabe::plan {

double walkPipeline(const PipelineStages& stages, const PipelineWalkOptions& options) {
    const int p = static_cast<int>(stages.size());
    if (p == 0)
        return 0;
    const int v = static_cast<int>(stages.front().size());
    const int m = std::max(1, options.microBatches);
    const int chunks = p * v;
    std::vector<std::vector<generate::PipelineOp>> orders;
    orders.reserve(size_t(p));
    for (int s = 0; s < p; ++s)
        orders.push_back(generate::pipelineOrder(options.schedule, p, v, m, s));

    // When the message a pass waits for arrives, per (model chunk j, micro-batch): forward[j]
    // the activation j sends to j + 1, backward[j] the gradient j sends to j - 1.
    constexpr double unknown = -1;
    std::vector<double> forward(size_t(chunks) * size_t(m), unknown);
    std::vector<double> backward(size_t(chunks) * size_t(m), unknown);
    auto at = [m](int j, int mb) { return size_t(j) * size_t(m) + size_t(mb); };

    struct Stage {
        size_t next = 0;     ///< the next pass in its order
        double free = 0;     ///< when its last pass ended
        double slotFree = 0; ///< when its last send was delivered
    };
    std::vector<Stage> state(static_cast<size_t>(p), Stage{});
    size_t left = 0;
    for (const auto& order : orders)
        left += order.size();
    while (left > 0) {
        size_t progressed = 0;
        for (int s = 0; s < p; ++s) {
            Stage& st = state[size_t(s)];
            const std::vector<generate::PipelineOp>& order = orders[size_t(s)];
            while (st.next < order.size()) {
                const generate::PipelineOp& op = order[st.next];
                const int j = op.chunk * p + s;
                double arrival = 0;
                if (op.forward && j > 0)
                    arrival = forward[at(j - 1, op.microBatch)];
                else if (!op.forward && j < chunks - 1)
                    arrival = backward[at(j + 1, op.microBatch)];
                if (arrival == unknown)
                    break; // its sender has not run that pass yet
                const ChunkPasses& pass = stages[size_t(s)][size_t(op.chunk)];
                const double seconds = op.forward ? pass.forward : pass.backward;
                const double lead = op.forward ? pass.forwardLead : pass.backwardLead;
                const double start = std::max(st.free, arrival);
                // The pass's first collective waits for the send still holding the slot.
                const double late = std::max(0.0, st.slotFree - (start + lead));
                st.free = start + seconds + late;
                const bool sends = op.forward ? j < chunks - 1 : j > 0;
                if (sends) {
                    // Between the last stage and the first (interleaved) the other link.
                    const bool wraps = op.forward ? s == p - 1 : s == 0;
                    const double delta = wraps ? options.wrapDelta : options.delta;
                    st.slotFree = std::max(st.free, st.slotFree) + delta;
                    (op.forward ? forward[at(j, op.microBatch)] : backward[at(j, op.microBatch)]) =
                        st.slotFree;
                }
                ++st.next;
                ++progressed;
            }
        }
        if (progressed == 0)
            return std::numeric_limits<double>::infinity(); // not a valid schedule
        left -= progressed;
    }
    double makespan = 0;
    for (const Stage& st : state)
        makespan = std::max(makespan, st.free);
    return makespan;
}

std::vector<ChunkPasses> chunkPasses(const WalkChunks& chunks, bool recompute, bool zero3,
                                     const PhaseSlots& table, const PhasesOf& phases) {
    std::vector<ChunkPasses> out;
    out.reserve(chunks.size());
    constexpr double none = std::numeric_limits<double>::infinity();
    for (const std::vector<WalkLayer>& layers : chunks) {
        ChunkPasses c;
        double forwardLead = none, backwardLead = none;
        // Adds the steps' seconds to `total`, and sets `lead` at the first collective.
        auto run = [&](const std::vector<WalkStep>& steps, double& total, double& lead) {
            for (const WalkStep& step : steps) {
                if (!step.collective) {
                    total += step.seconds;
                    continue;
                }
                if (lead == none)
                    lead = total;
                const auto& ph = step.slot >= 0 ? table[size_t(step.slot)]
                                                : phases(step.type, step.group, step.commBytes);
                for (const NetworkCosts::Phase& phase : ph)
                    total += phase.seconds;
            }
        };
        for (const WalkLayer& layer : layers)
            run(layer.forward, c.forward, forwardLead);
        for (size_t k = layers.size(); k-- > 0;) {
            const WalkLayer& layer = layers[k];
            if (recompute && layer.recomputable)
                run(layer.forward, c.backward, backwardLead);
            run(layer.backward, c.backward, backwardLead);
        }
        c.forwardLead = zero3 ? 0 : std::min(forwardLead, c.forward);
        c.backwardLead = zero3 ? 0 : std::min(backwardLead, c.backward);
        out.push_back(c);
    }
    return out;
}

} // namespace astrolabe::plan
