// Tensor lists (GeneratorSpec::output.tensors, `--tensors`): the generated traces carry each
// node's "inputs" / "outputs", so that local memory tracking (track-local-mem) measures a
// per-NPU peak, compared here with the generator's own estimate (ModelFigures.h).
//
// The rule (TraceBuilder.cpp): the model states this NPU keeps in HBM (per layer: weights,
// gradients, optimizer states, ZeRO-divided; offloaded ones not listed) are written by no node,
// so they are live from time 0 until their last reader, the optimizer step. Each layer's forward
// pass of micro-batch k writes its activations (Korthikanti bytes) at its first compute node;
// the same layer's backward pass of micro-batch k reads them at its last compute node; the last
// stage's head does the same with the fp32 logits, and the first compute of each of its passes
// writes the 16-bit logits (or their gradient), which no node reads: live while it runs.
// Activations therefore live from forward to backward and their count follows the pipeline
// schedule, which is exactly how the estimate counts them (weights + gradients + optimizer +
// activations x peak micro-batches in flight + logits in flight + one micro-batch's 16-bit
// logits), so the two agree to the byte up to rounding each tensor to whole bytes (half a byte
// per tensor: the tolerance is 1e-6 relative, far above that).
#include "TraceChecks.h"
#include "generate/ModelFigures.h"
#include "generate/ModelPresets.h"
#include "generate/RankLayout.h"
#include "generate/WorkloadGenerator.h"
#include "simulation/Simulation.h"
#include "spec/SimulationSpec.h"
#include "trace/TraceIo.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>

namespace astrolabe::generate {
namespace {

struct Case {
    const char* name;
    GeneratorSpec spec;
};

/// Three presets, small enough to simulate in a second or two each, pp > 1 everywhere.
std::vector<Case> cases() {
    std::vector<Case> out;
    // GPT-2 350M as shipped: t2 p2 d2, 1F1B, 8 micro-batches, ZeRO 0.
    GeneratorSpec s = presetSpec("gpt2-350m");
    out.push_back({"gpt2-350m t2 p2 d2 1f1b", s});
    // Llama-3.2 1B: p4 d2, 1F1B, 8 micro-batches, ZeRO-1 (the preset's), sequence parallel off.
    s = presetSpec("llama3.2-1b");
    s.parallel.tp = 1;
    s.parallel.pp = 4;
    s.parallel.dp = 2;
    s.training.globalBatch = 16;
    out.push_back({"llama3.2-1b p4 d2 1f1b zero-1", s});
    // GPT-2 124M: p4 d2, GPipe, 8 micro-batches, ZeRO-2.
    s = presetSpec("gpt2-124m");
    s.parallel.pp = 4;
    s.parallel.dp = 2;
    s.parallel.schedule = PipelineSchedule::GPipe;
    s.parallel.zeroStage = 2;
    s.training.globalBatch = 16;
    out.push_back({"gpt2-124m p4 d2 gpipe zero-2", s});
    for (Case& c : out)
        c.spec.output.tensors = true;
    return out;
}

/// A switch of all NPUs with effectively free communication; compute is replayed.
SimulationSpec platform(const GeneratedWorkload& w) {
    SimulationSpec spec = test::idealSwitchSpec(w);
    spec.system.trackLocalMemory = true;
    return spec;
}

// Off (the default), no node lists a tensor; on, the nodes are otherwise the same.
TEST(GeneratedTensors, OnlyAddTensorLists) {
    for (const Case& c : cases()) {
        GeneratorSpec plain = c.spec;
        plain.output.tensors = false;
        const GeneratedWorkload off = generateWorkload(plain), on = generateWorkload(c.spec);
        ASSERT_EQ(off.traces.size(), on.traces.size());
        size_t listed = 0;
        for (size_t r = 0; r < off.traces.size(); ++r) {
            ASSERT_EQ(off.traces[r].nodes.size(), on.traces[r].nodes.size()) << c.name;
            for (size_t i = 0; i < off.traces[r].nodes.size(); ++i) {
                const WorkloadNode &a = off.traces[r].nodes[i], &b = on.traces[r].nodes[i];
                EXPECT_TRUE(a.detail->inputs.empty() && a.detail->outputs.empty());
                EXPECT_EQ(a.name, b.name);
                EXPECT_EQ(a.dataDeps, b.dataDeps);
                EXPECT_EQ(a.ctrlDeps, b.ctrlDeps);
                EXPECT_EQ(a.durationMicros, b.durationMicros);
                EXPECT_EQ(a.tensorSize, b.tensorSize);
                EXPECT_EQ(a.commSize, b.commSize);
                listed += b.detail->inputs.size() + b.detail->outputs.size();
            }
        }
        EXPECT_GT(listed, 0u) << c.name;
    }
}

// The Chakra writer writes the lists and the reader reads them back (track-local-mem on).
TEST(GeneratedTensors, SurviveTheChakraFile) {
    const GeneratedWorkload w = generateWorkload(cases()[0].spec);
    const std::string path =
        (std::filesystem::temp_directory_path() / "astrolabe-generated-tensors.0.et").string();
    writeWorkloadTrace(path, w.traces[0]);
    const WorkloadTrace back = readWorkloadTrace(path, true);
    std::filesystem::remove(path);
    ASSERT_EQ(back.nodes.size(), w.traces[0].nodes.size());
    for (size_t i = 0; i < back.nodes.size(); ++i) {
        EXPECT_EQ(back.nodes[i].detail->inputs, w.traces[0].nodes[i].detail->inputs) << i;
        EXPECT_EQ(back.nodes[i].detail->outputs, w.traces[0].nodes[i].detail->outputs) << i;
    }
}

/// Runs the case with track-local-mem on; checks and prints measured against estimated peak.
void checkPeak(const Case& c) {
    const ModelFigures figures = computeFigures(c.spec);
    const double estimate = figures.memory.total();
    GeneratedWorkload w = generateWorkload(c.spec);
    SimulationSpec spec = platform(w);
    if (c.spec.offload.any()) { // NVMe per NPU: 100 ns, 100 B/ns
        spec.memory.type = RemoteMemoryType::PerNpuMemoryExpansion;
        spec.memory.latencyNs = 100;
        spec.memory.bandwidthBytesPerNs = 100;
    }
    const auto result = runSimulation(spec, std::move(w.traces));
    const RankLayout layout(c.spec.parallel);
    double worstMeasured = 0, highest = 0;
    for (size_t r = 0; r < result->npus.size(); ++r) {
        const double peak = double(result->npus[r].peakMemoryBytes);
        highest = std::max(highest, peak);
        if (layout.coordinates(int(r)).pp == figures.worstStage) {
            EXPECT_NEAR(peak, estimate, 1e-6 * estimate) << c.name << " NPU " << r;
            worstMeasured = peak;
        }
    }
    EXPECT_LE(highest, estimate * (1 + 1e-6)) << c.name;
    const MemoryBreakdown& m = figures.memory;
    std::printf("[ memory ] %-30s stage %d: measured %.0f B, estimate %.0f B (%s: weights %.0f, "
                "gradients %.0f, optimizer %.0f, activations %.0f), ratio %.9f\n",
                c.name, figures.worstStage, worstMeasured, estimate, formatBytes(estimate).c_str(),
                m.weights, m.gradients, m.optimizer, m.activations, worstMeasured / estimate);
}

// The measured peak per NPU of the worst stage equals the estimate (1e-6 relative: whole-byte
// rounding of each tensor); no NPU of another stage exceeds it.
TEST(GeneratedTensors, MeasuredPeakMatchesTheEstimate) {
    for (const Case& c : cases())
        checkPeak(c);
}

// Beyond the three presets: the interleaved schedule (chunks of equal layer counts, so the
// estimate's average chunk is every chunk) and offloaded states (not in HBM, not listed).
TEST(GeneratedTensors, InterleavedAndOffloadAgreeToo) {
    Case c = cases()[1];
    c.name = "llama3.2-1b p4 d2 interleaved v2";
    c.spec.parallel.schedule = PipelineSchedule::Interleaved;
    c.spec.parallel.virtualStages = 2;
    checkPeak(c);
    c = cases()[0];
    c.name = "gpt2-350m offload params, opt";
    c.spec.offload.parameters = OffloadTier::Nvme;
    c.spec.offload.optimizer = OffloadTier::Nvme;
    checkPeak(c);
}

// The other model kinds (pp = 1): a MoE transformer, ResNet-50 and DLRM.
TEST(GeneratedTensors, OtherModelKindsAgreeToo) {
    std::vector<Case> others;
    GeneratorSpec s = presetSpec("olmoe-1b-7b");
    s.model.layers = 2;
    others.push_back({"olmoe-1b-7b 2 layers d8 ep8", s});
    s = presetSpec("resnet50");
    s.parallel.dp = 4;
    s.training.globalBatch = 4 * s.training.microBatch;
    others.push_back({"resnet50 d4", s});
    others.push_back({"dlrm", presetSpec("dlrm")});
    for (Case& c : others) {
        c.spec.output.tensors = true;
        checkPeak(c);
    }
}

} // namespace
} // namespace astrolabe::generate
