// The optimizer step on the host CPU (offload.step = cpu, ZeRO-Offload's CPU Adam): with the
// optimizer states offloaded, each layer's step is a CPU node (is_cpu_op) of the NPU's Adam
// traffic, elements x (2e + 24) bytes (e-byte gradient read and weight written; fp32 master, m and
// v read and written), replayed for bytes / offload.cpuGBps whatever the roofline.
#include "TraceChecks.h"
#include "core/Error.h"
#include "generate/GeneratorValues.h"
#include "generate/WorkloadGenerator.h"
#include "simulation/Simulation.h"
#include "spec/SimulationSpec.h"
#include "support/SmallGpt.h"

#include <gtest/gtest.h>
#include <map>

namespace astrolabe::generate {
namespace {

const WorkloadNode& node(const WorkloadTrace& t, const std::string& name) {
    return test::nodeNamed(t, name);
}

// OffloadTest's small GPT-style model (t2 p2 d2, 4 micro-batches), optimizer states in the pool,
// the step on a CPU streaming 0.5 GB/s. Per NPU (elements): stage 0 embed 5,120 and L0 25,184;
// stage 1 L1 25,184 and head 4,224; ZeRO-1 halves them over dp 2.
GeneratorSpec small(int zero) {
    GeneratorSpec s = astrolabe::test::smallGpt();
    s.parallel.zeroStage = zero;
    s.offload.optimizer = OffloadTier::Pool;
    s.offload.step = StepDevice::Cpu;
    s.offload.cpuGBps = 0.5;
    return s;
}

// Durations, 28 bytes per element at 0.5 10^9 B/s, rounded to whole microseconds:
//   ZeRO 0: embed 5,120 x 28 = 143,360 B -> 286.72 us -> 287; L0 and L1 25,184 x 28 = 705,152 B
//   -> 1,410.304 -> 1,410; head 4,224 x 28 = 118,272 B -> 236.544 -> 237.
//   ZeRO 1: half the elements: embed 71,680 B -> 143.36 -> 143; L0 / L1 352,576 B -> 705.152 ->
//   705; head 59,136 B -> 118.272 -> 118.
TEST(OffloadCpuStep, EachLayersStepIsACpuNodeOfItsAdamTraffic) {
    struct Expected {
        const char* layer;
        int rank;
        uint64_t bytes, micros;
    };
    for (int zero : {0, 1}) {
        const GeneratedWorkload w = generateWorkload(small(zero));
        EXPECT_TRUE(test::wellFormednessProblems(w).empty());
        const std::vector<Expected> expected =
            zero == 0 ? std::vector<Expected>{{"embed", 0, 143360, 287},
                                              {"L0", 0, 705152, 1410},
                                              {"L1", 4, 705152, 1410},
                                              {"head", 4, 118272, 237}}
                      : std::vector<Expected>{{"embed", 0, 71680, 143},
                                              {"L0", 0, 352576, 705},
                                              {"L1", 4, 352576, 705},
                                              {"head", 4, 59136, 118}};
        for (const Expected& x : expected) {
            const WorkloadTrace& t = w.traces[size_t(x.rank)];
            const WorkloadNode& step = node(t, std::string("optimizer.") + x.layer + ".step");
            EXPECT_EQ(step.type, NodeType::Comp);
            EXPECT_TRUE(step.isCpuOp) << x.layer;
            EXPECT_EQ(step.tensorSize, x.bytes) << "zero " << zero << " " << x.layer;
            EXPECT_EQ(step.durationMicros, x.micros) << "zero " << zero << " " << x.layer;
            // Still between its states' load and store.
            EXPECT_EQ(node(t, std::string("optimizer.") + x.layer + ".store.pool").dataDeps,
                      std::vector<uint64_t>{step.id});
        }
        // On the NPU (the default) the same steps are GPU COMP nodes of the same bytes.
        GeneratorSpec npu = small(zero);
        npu.offload.step = StepDevice::Npu;
        const GeneratedWorkload v = generateWorkload(npu);
        const WorkloadNode& gpuStep = node(v.traces[0], "optimizer.L0.step");
        EXPECT_FALSE(gpuStep.isCpuOp);
        EXPECT_EQ(gpuStep.tensorSize, expected[1].bytes);
        ASSERT_EQ(v.traces[0].nodes.size(), w.traces[0].nodes.size());
        for (size_t i = 0; i < w.traces[0].nodes.size(); ++i) {
            EXPECT_EQ(v.traces[0].nodes[i].name, w.traces[0].nodes[i].name);
            EXPECT_EQ(v.traces[0].nodes[i].dataDeps, w.traces[0].nodes[i].dataDeps);
        }
    }
}

// The engine runs the CPU steps in the CPU slot for their replayed durations even with the
// roofline on: an NPU's CPU time is the sum of its steps (ZeRO 0, stage 0: 287 + 1,410 us;
// stage 1: 1,410 + 237 us).
TEST(OffloadCpuStep, TheEngineReplaysTheStepsOnTheCpu) {
    GeneratedWorkload w = generateWorkload(small(0));
    SimulationSpec spec = test::idealSwitchSpec(w);
    spec.system.rooflineEnabled = true;
    spec.system.peakPerfTFlops = 1000;
    spec.system.localMemBandwidthGBps = 1000;
    spec.memory.type = RemoteMemoryType::PerNpuMemoryExpansion;
    spec.memory.latencyNs = 100;
    spec.memory.bandwidthBytesPerNs = 100;
    const auto result = runSimulation(spec, std::move(w.traces));
    for (const NpuSummary& npu : result->npus) {
        EXPECT_TRUE(npu.finished) << npu.npu;
        EXPECT_EQ(npu.cpuTime, SimTime::fromUs(npu.npu < 4 ? 287 + 1410 : 1410 + 237)) << npu.npu;
    }
}

// Settings: --offload-step and --offload-cpu-bandwidth set the spec; a bad device names the flag
// and the valid values; the CPU step without offloaded optimizer states is an error at
// offload.step.
TEST(OffloadCpuStep, SettingsParseAndCheck) {
    const GeneratorSpec s = generatorSpecFrom(
        "gpt2-124m",
        {{"offload-optimizer", "nvme"}, {"offload-step", "cpu"}, {"offload-cpu-bandwidth", "25"}});
    EXPECT_EQ(s.offload.step, StepDevice::Cpu);
    EXPECT_EQ(s.offload.cpuGBps, 25);
    EXPECT_EQ(generatorSpecFrom("gpt2-124m", {}).offload.step, StepDevice::Npu);
    try {
        generatorSpecFrom("gpt2-124m", {{"offload-optimizer", "nvme"}, {"offload-step", "gpu"}});
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().keyPath, "offload-step");
        EXPECT_EQ(e.message(), "expected npu or cpu, found \"gpu\"");
    }
    GeneratorSpec bad = s;
    bad.offload.optimizer = OffloadTier::None;
    try {
        validate(bad);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().keyPath, "offload.step");
        EXPECT_NE(e.message().find("offload.optimizer none"), std::string::npos) << e.message();
    }
    bad = s;
    bad.offload.cpuGBps = 0;
    try {
        validate(bad);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().keyPath, "offload.cpuGBps");
        EXPECT_EQ(e.message(), "the CPU's memory bandwidth must be positive, found 0 GB/s");
    }
}

} // namespace
} // namespace astrolabe::generate
