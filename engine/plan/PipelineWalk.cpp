#include "plan/PipelineWalk.h"

#include <algorithm>
#include <limits>

namespace astrolabe::plan {

double walkPipeline(const PipelineStages& stages, const PipelineWalkOptions& options) {
    if (stages.empty())
        return 0;
    PipelineWalk walk(options.schedule, static_cast<int>(stages.size()),
                      static_cast<int>(stages.front().size()), options.microBatches);
    std::vector<ChunkPasses> passes;
    for (const std::vector<ChunkPasses>& stage : stages)
        passes.insert(passes.end(), stage.begin(), stage.end());
    const std::vector<double>& ends = walk.stageEnds(passes, options.delta, options.wrapDelta);
    return *std::max_element(ends.begin(), ends.end());
}

PipelineWalk::PipelineWalk(generate::PipelineSchedule schedule, int p, int v, int m)
    : m_schedule(schedule)
    , m_p(p)
    , m_v(v)
    , m_m(std::max(1, m)) {
    m_orders.reserve(size_t(p));
    m_lastBackward.assign(size_t(p) * size_t(v), 0);
    for (int s = 0; s < p; ++s) {
        m_orders.push_back(generate::pipelineOrder(schedule, p, v, m_m, s));
        for (size_t i = 0; i < m_orders.back().size(); ++i)
            if (!m_orders.back()[i].forward)
                m_lastBackward[size_t(s) * size_t(v) + size_t(m_orders.back()[i].chunk)] = i;
    }
}

const std::vector<double>& PipelineWalk::stageEnds(const std::vector<ChunkPasses>& passes,
                                                   double delta, double wrapDelta) {
    for (const Answer& a : m_answers)
        if (a.delta == delta && a.wrapDelta == wrapDelta && a.passes == passes)
            return a.ends;
    constexpr size_t kRemembered = 8;
    if (m_answers.size() < kRemembered) {
        m_answers.push_back({passes, delta, wrapDelta, {}});
        walk(passes, delta, wrapDelta, m_answers.back().ends);
        return m_answers.back().ends;
    }
    Answer& a = m_answers[m_oldest];
    m_oldest = (m_oldest + 1) % kRemembered;
    a.passes.assign(passes.begin(), passes.end()); // reuses its storage
    a.delta = delta;
    a.wrapDelta = wrapDelta;
    walk(passes, delta, wrapDelta, a.ends);
    return a.ends;
}

void PipelineWalk::walk(const std::vector<ChunkPasses>& passes, double delta, double wrapDelta,
                        std::vector<double>& ends) {
    const int p = m_p, m = m_m, chunks = m_p * m_v;
    // When the message a pass waits for arrives, per (model chunk j, micro-batch): forward[j]
    // the activation j sends to j + 1, backward[j] the gradient j sends to j - 1.
    constexpr double unknown = -1;
    m_forward.assign(size_t(chunks) * size_t(m), unknown);
    m_backward.assign(size_t(chunks) * size_t(m), unknown);
    auto at = [m](int j, int mb) { return size_t(j) * size_t(m) + size_t(mb); };

    std::vector<Stage>& state = m_state;
    state.assign(static_cast<size_t>(p), Stage{});
    size_t left = 0;
    for (const auto& order : m_orders)
        left += order.size();
    while (left > 0) {
        size_t progressed = 0;
        for (int s = 0; s < p; ++s) {
            Stage& st = state[size_t(s)];
            const std::vector<generate::PipelineOp>& order = m_orders[size_t(s)];
            const ChunkPasses* stage = passes.data() + size_t(s) * size_t(m_v);
            // Between the last stage and the first (interleaved) the other link.
            const double forwardDelta = s == p - 1 ? wrapDelta : delta;
            const double backwardDelta = s == 0 ? wrapDelta : delta;
            while (st.next < order.size()) {
                const generate::PipelineOp& op = order[st.next];
                const int j = op.chunk * p + s;
                double arrival = 0;
                if (op.forward && j > 0)
                    arrival = m_forward[at(j - 1, op.microBatch)];
                else if (!op.forward && j < chunks - 1)
                    arrival = m_backward[at(j + 1, op.microBatch)];
                if (arrival == unknown)
                    break; // its sender has not run that pass yet
                const ChunkPasses& pass = stage[op.chunk];
                const bool last =
                    !op.forward &&
                    st.next == m_lastBackward[size_t(s) * size_t(m_v) + size_t(op.chunk)];
                const double seconds = op.forward
                                           ? pass.forward
                                           : pass.backward + (last ? pass.lastBackwardLonger : 0);
                const double lead = op.forward ? pass.forwardLead : pass.backwardLead;
                const double start = std::max(st.free, arrival);
                // The pass's first collective waits for the send still holding the slot.
                const double late = std::max(0.0, st.slotFree - (start + lead));
                st.free = start + seconds + late;
                if (op.forward ? j < chunks - 1 : j > 0) {
                    const double held = last ? pass.lastBackwardHeld : 0;
                    st.slotFree = std::max(st.free + held, st.slotFree) +
                                  (op.forward ? forwardDelta : backwardDelta);
                    (op.forward ? m_forward : m_backward)[at(j, op.microBatch)] = st.slotFree;
                }
                ++st.next;
                ++progressed;
            }
        }
        if (progressed == 0) { // an order that waits on itself
            ends.assign(size_t(p), std::numeric_limits<double>::infinity());
            return;
        }
        left -= progressed;
    }
    ends.resize(size_t(p));
    for (int s = 0; s < p; ++s)
        ends[size_t(s)] = state[size_t(s)].free;
}

void appendChunkPasses(std::vector<ChunkPasses>& out, const WalkChunks& chunks,
                       const WalkOptions& options, const PhaseSlots& table,
                       const PhasesOf& phases) {
    const bool recompute = options.recompute, zero3 = options.zero3;
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
        if (!zero3) {
            const BucketWalk last = walkChunkLastBackward(layers, options, table, phases);
            c.lastBackwardLonger = std::max(0.0, last.withBuckets - last.without);
            c.lastBackwardHeld = last.after;
        }
        out.push_back(c);
    }
}

} // namespace astrolabe::plan
