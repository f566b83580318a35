// The pipeline bubble that the generated dependencies imply. With communication free, the
// iteration time is the longest path through all ranks' traces (compute nodes weigh their
// duration; a SEND feeds its matching RECV), because each rank's compute nodes already form one
// chain. For balanced stages the textbook bubble follows:
//   GPipe and 1F1B: (p - 1) / (m + p - 1);   interleaved with v chunks: (p - 1) / (v m + p - 1).
#include "workload/generate/WorkloadGenerator.h"

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

// For the lead, once the executor runs generated traces (needs the Chakra writer or an
// in-memory workload source): write pipelineOnly(OneFOneB) with writeGeneratedWorkload, run it on
// an idealized platform (one Switch dimension of 4 NPUs, 10^6 GB/s, 0 latency, endpoint delay
// 1 ns, replay compute), and expect 1 - gpuTime(rank 1) / finish(rank 1) = 3 / 11 = 0.2727
// within 0.01 (interleaved v = 2: 3 / 19 = 0.158). The optimizer step adds the same time to
// every rank; subtract it, or compare finish(rank 1) - step with the value above.
TEST(PipelineBubble, DISABLED_OnAnIdealPlatformNeedsTheExecutor) {
    GTEST_SKIP() << "needs runSimulation on generated traces (executor + Chakra writer)";
}

} // namespace
} // namespace astrolabe::generate
