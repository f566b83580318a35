// The pipeline bubble that the generated dependencies imply. With communication free, the
// iteration time is the longest path through all ranks' traces (compute nodes weigh their
// duration; a SEND feeds its matching RECV), because each rank's compute nodes already form one
// chain. For balanced stages the textbook bubble follows:
//   GPipe and 1F1B: (p - 1) / (m + p - 1);   interleaved with v chunks: (p - 1) / (v m + p - 1).
#include "TraceChecks.h"
#include "generate/WorkloadGenerator.h"
#include "simulation/Simulation.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <tuple>

namespace astrolabe::generate {
namespace {

// p 4, m 8, 8 layers of h 4096 (2 per stage; 1 per chunk with v = 2), tp = dp = 1 (no
// collectives). A vocabulary of 8 keeps the embedding and LM head (which unbalance stages
// 0 and 3) below 1 % of a stage.
GeneratorSpec pipelineOnly(PipelineSchedule schedule) {
    GeneratorSpec s;
    ModelSpec& m = s.model;
    m.layers = 8;
    m.hidden = 4096;
    m.heads = 32;
    m.ffn = 16384;
    m.vocabulary = 8;
    m.sequence = 2048;
    s.training = {1, 8, 2, false};
    s.parallel.pp = 4;
    s.parallel.schedule = schedule;
    s.parallel.virtualStages = schedule == PipelineSchedule::Interleaved ? 2 : 1;
    s.compute.efficiency = 1.0;
    return s;
}

struct Timing {
    double iteration = 0;     ///< microseconds, optimizer step left out
    std::vector<double> busy; ///< per rank
};

Timing zeroCommunicationTiming(const GeneratedWorkload& w) {
    Timing t;
    std::vector<std::vector<double>> finish(w.traces.size());
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, double> sent; // (tag, src, dst) -> time
    // Ranks depend on each other only through SEND -> RECV; sweep until every node is timed.
    std::vector<size_t> next(w.traces.size(), 0);
    bool progress = true;
    while (progress) {
        progress = false;
        for (size_t r = 0; r < w.traces.size(); ++r) {
            const WorkloadTrace& trace = w.traces[r];
            finish[r].resize(trace.nodes.size(), 0);
            for (; next[r] < trace.nodes.size(); ++next[r]) {
                const WorkloadNode& n = trace.nodes[next[r]];
                double ready = 0;
                for (const auto* deps : {&n.dataDeps, &n.ctrlDeps})
                    for (uint64_t d : *deps)
                        ready = std::max(ready, finish[r][d]);
                if (n.type == NodeType::CommRecv) {
                    const auto it = sent.find({n.commTag, n.commSrc, n.commDst});
                    if (it == sent.end())
                        break; // the sender has not got there yet
                    ready = std::max(ready, it->second);
                }
                const bool step = n.name == "optimizer.step";
                const double cost = n.type == NodeType::Comp && !step ? n.durationMicros : 0;
                finish[r][next[r]] = ready + cost;
                if (n.type == NodeType::CommSend)
                    sent[{n.commTag, n.commSrc, n.commDst}] = ready;
                progress = true;
            }
        }
    }
    t.busy.resize(w.traces.size(), 0);
    for (size_t r = 0; r < w.traces.size(); ++r) {
        EXPECT_EQ(next[r], w.traces[r].nodes.size()) << "rank " << r << " never finished";
        for (size_t i = 0; i < w.traces[r].nodes.size(); ++i) {
            const WorkloadNode& n = w.traces[r].nodes[i];
            if (n.type == NodeType::Comp && n.name != "optimizer.step") {
                t.busy[r] += double(n.durationMicros);
                t.iteration = std::max(t.iteration, finish[r][i]);
            }
        }
    }
    return t;
}

TEST(PipelineBubble, GeneratedDependenciesGiveTheTextbookBubble) {
    const int p = 4, m = 8, v = 2;
    for (PipelineSchedule schedule :
         {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved}) {
        const Timing t = zeroCommunicationTiming(generateWorkload(pipelineOnly(schedule)));
        const double work = schedule == PipelineSchedule::Interleaved ? double(v) * m : m;
        const double expected = (p - 1) / (work + p - 1);
        // Stage 1 carries no embedding or head: the cleanest measure.
        const double bubble = 1 - t.busy[1] / t.iteration;
        EXPECT_NEAR(bubble, expected, 0.01) << pipelineScheduleName(schedule);
        std::printf("[ bubble ] %-11s measured %.4f, closed form %.4f (iteration %.0f us)\n",
                    pipelineScheduleName(schedule), bubble, expected, t.iteration);
    }
}

// The same through the executor: the generated traces run on an idealized platform (a switch
// of 4 NPUs with effectively infinite bandwidth and no latency, replayed compute). On stage 1
// (no embedding or head), bubble = 1 - busy / iteration with the optimizer step left out of
// both; expected (p - 1) / (m + p - 1) = 3 / 11, interleaved (v = 2) 3 / 19, within 1 %.
TEST(PipelineBubble, OnAnIdealPlatformMatchesTheClosedForm) {
    const int p = 4, m = 8, v = 2;
    for (PipelineSchedule schedule :
         {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved}) {
        GeneratedWorkload w = generateWorkload(pipelineOnly(schedule));
        const SimulationSpec spec = test::idealSwitchSpec(w);
        auto stepNs = [&](size_t rank) {
            double ns = 0;
            for (const WorkloadNode& n : w.traces[rank].nodes)
                if (n.name == "optimizer.step")
                    ns += 1000.0 * static_cast<double>(n.durationMicros);
            return ns;
        };
        const auto result = runSimulation(spec, w.traces);
        // The iteration ends when the last stage is done (stage 0 drains last), not stage 1.
        double iteration = 0;
        for (size_t r = 0; r < result->npus.size(); ++r)
            iteration = std::max(iteration, result->npus[r].finish.ns() - stepNs(r));
        const double busy = result->npus.at(1).gpuTime.ns() - stepNs(1);
        const double work = schedule == PipelineSchedule::Interleaved ? double(v) * m : m;
        const double expected = (p - 1) / (work + p - 1);
        EXPECT_NEAR(1 - busy / iteration, expected, 0.01) << pipelineScheduleName(schedule);
        std::printf("[ bubble ] executor %-11s measured %.4f, closed form %.4f\n",
                    pipelineScheduleName(schedule), 1 - busy / iteration, expected);
    }
}

} // namespace
} // namespace astrolabe::generate
