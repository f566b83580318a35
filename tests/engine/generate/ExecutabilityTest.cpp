// Generated traces run to completion under ASTRA-sim's slot rules (MiniExecutor.h), also when
// ranks drift apart, for every schedule, ZeRO stage, sequence parallelism, recomputation and MoE.
#include "MiniExecutor.h"
#include "generate/ModelPresets.h"

#include <cstdio>
#include <gtest/gtest.h>

namespace astrolabe::generate {
namespace {

GeneratorSpec base() {
    GeneratorSpec s;
    ModelSpec& m = s.model;
    m.layers = 8;
    m.hidden = 256;
    m.heads = 4;
    m.ffn = 1024;
    m.vocabulary = 512;
    m.sequence = 64;
    s.training = {1, 16, 2, false};
    s.parallel.tp = 2;
    s.parallel.pp = 4;
    s.parallel.dp = 2;
    s.parallel.bucketBytes = 100000; // several buckets per chunk
    return s;
}

TEST(Executability, GeneratedTracesNeverDeadlock) {
    int runs = 0;
    for (PipelineSchedule schedule :
         {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved})
        for (int zero : {0, 1, 3})
            for (bool sp : {false, true})
                for (bool moe : {false, true})
                    for (unsigned salt : {0u, 1u, 2u, 3u}) {
                        const double jitter = salt == 0 ? 0.0 : 0.5 * salt * salt;
                        GeneratorSpec s = base();
                        s.parallel.schedule = schedule;
                        s.parallel.virtualStages =
                            schedule == PipelineSchedule::Interleaved ? 2 : 1;
                        s.parallel.zeroStage = zero;
                        s.parallel.sequenceParallel = sp;
                        s.parallel.recompute = zero == 1;
                        if (moe) {
                            s.model.experts = 4;
                            s.model.topK = 2;
                            s.model.expertFfn = 512;
                            s.parallel.dp = 4;
                            s.parallel.ep = 2;
                            s.training.globalBatch = 32;
                        }
                        const test::MiniRun run =
                            test::runMiniExecutor(generateWorkload(s), jitter, salt);
                        EXPECT_TRUE(run.completed)
                            << pipelineScheduleName(schedule) << " zero " << zero << " sp " << sp
                            << " moe " << moe << " jitter " << jitter << ": " << run.deadlock;
                        ++runs;
                    }
    EXPECT_EQ(runs, 144);
}

// The checker itself must see a deadlock: two ranks issue collectives on groups 1 and 2 in
// opposite orders (each holds its only communication slot waiting for the other), and a RECV
// whose SEND never comes.
TEST(Executability, TheMiniExecutorDetectsDeadlocks) {
    GeneratedWorkload w;
    w.groups = {{1, {0, 1}}, {2, {0, 1}}};
    auto coll = [](uint64_t id, const char* group) {
        WorkloadNode n;
        n.id = id;
        n.name = std::string("g") + group;
        n.type = NodeType::CommColl;
        n.pgName = group;
        n.commSize = 64;
        if (id > 0)
            n.dataDeps = {id - 1};
        return n;
    };
    w.traces.resize(2);
    w.traces[0].nodes = {coll(0, "1"), coll(1, "2")};
    w.traces[1].nodes = {coll(0, "2"), coll(1, "1")};
    EXPECT_FALSE(test::runMiniExecutor(w, 0).completed);

    w.traces[1].nodes = {coll(0, "1"), coll(1, "2")};
    EXPECT_TRUE(test::runMiniExecutor(w, 0).completed);
    WorkloadNode recv;
    recv.type = NodeType::CommRecv;
    recv.id = 2;
    recv.commSrc = 0;
    recv.commDst = 1;
    recv.commTag = 9;
    w.traces[1].nodes.push_back(recv);
    const test::MiniRun stuck = test::runMiniExecutor(w, 0);
    EXPECT_FALSE(stuck.completed);
    EXPECT_NE(stuck.deadlock.find("rank 1"), std::string::npos) << stuck.deadlock;
}

// The acceptance configuration (GPT-3 175B, t8 p8 d16, 1F1B, 8 micro-batches) runs to the end;
// with communication free its makespan is the pipeline's: (m + p - 1) stage passes plus the
// optimizer step, within a few per cent (stages 0 and 7 carry the embedding and the head).
TEST(Executability, Gpt3On1024NpusRunsToCompletion) {
    GeneratorSpec s = presetSpec("gpt3-175b");
    s.training.globalBatch = 8 * s.parallel.dp;
    const GeneratedWorkload w = generateWorkload(s);
    const test::MiniRun run = test::runMiniExecutor(w, 0);
    ASSERT_TRUE(run.completed) << run.deadlock;
    // Stage 1 (rank 128): one pass = its forward + backward compute of one micro-batch.
    double stagePass = 0, step = 0;
    for (const WorkloadNode& n : w.traces[128].nodes)
        if (n.type == NodeType::Comp) {
            if (n.name == "optimizer.step")
                step = double(n.durationMicros);
            else
                stagePass += double(n.durationMicros) / 8;
        }
    const double expected = (8 + 8 - 1) * stagePass + step;
    std::printf("[ GPT-3 mini executor ] makespan %.0f us, (m + p - 1) x pass + step = %.0f us\n",
                run.makespan, expected);
    EXPECT_NEAR(run.makespan / expected, 1.0, 0.05);
}

TEST(Executability, DataParallelPresetsRun) {
    GeneratorSpec dlrm = presetSpec("dlrm");
    EXPECT_TRUE(test::runMiniExecutor(generateWorkload(dlrm), 1.0).completed);
}

} // namespace
} // namespace astrolabe::generate
