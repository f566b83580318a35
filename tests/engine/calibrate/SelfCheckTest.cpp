// The self-check of docs/calibration.md: Astrolabe's own simulation of a known platform, written
// in nccl-tests format, read back and calibrated, must give back the platform's settings within
// 1 %. The platform is chosen so the simulator's per-message truncation to whole nanoseconds
// never bites (every message and reduction is a whole number of nanoseconds: 128 B/ns links,
// 1024 B/ns memory, power-of-two sizes), so what is checked is the fit and the mapping, not
// rounding. Then the calibrated project must run under both network models and both timing
// modes, and its congestion-unaware time must be the model's.
#include "TestPaths.h"
#include "calibrate/CalibratedProject.h"
#include "calibrate/Calibration.h"
#include "engine/golden/GoldenSpec.h"
#include "project/ProjectFile.h"

#include <gtest/gtest.h>

using namespace golden;

namespace {

constexpr double kLatencyNs = 600, kEndpointNs = 150, kBandwidth = 128e9; // 128 B/ns

SimulationSpec knownPlatform(int ranks = 8) {
    SimulationSpec s = spec({dim(BlockKind::Ring, ranks)});
    s.platform.dimensions[0].latencyNs = kLatencyNs;
    s.platform.dimensions[0].bandwidthBytesPerSecond = kBandwidth;
    s.system.endpointDelayNs = static_cast<int64_t>(kEndpointNs);
    s.system.endpointDelayConfiguredNs = kEndpointNs;
    s.system.endpointDelayFromFile = true;
    s.system.localMemBandwidthGBps = 1024;
    s.system.preferredDatasetSplits = 2;
    return s;
}

/// nccl-tests' view of a simulated collective: size is the whole buffer (all-gather's output),
/// where the simulator's all-gather size is one rank's shard.
NcclRun simulatedRun(const SimulationSpec& s, NcclCollective c, CollectiveType type) {
    const int ranks = s.platform.dimensions[0].size;
    NcclRun run;
    run.file = std::string(ncclCollectiveName(c)) + "_perf.txt";
    run.collective = c;
    run.ranks = ranks;
    for (int e = 14; e <= 30; e += 2) {
        const uint64_t size = uint64_t{1} << e;
        const uint64_t simulated =
            c == NcclCollective::AllGather ? size / static_cast<uint64_t>(ranks) : size;
        const double us = static_cast<double>(maxCycles(*runCollective(s, type, simulated))) / 1e3;
        const double alg = static_cast<double>(size) / (us * 1e3);
        const double bus = alg * ncclBusFactor(c, ranks);
        run.rows.push_back({size, size / 4, "float", us, alg, bus, us, alg, bus, 0});
    }
    // Written as nccl-tests text and read back, as a user's file would be.
    return parseNcclTests(ncclTestsText(run), run.file);
}

} // namespace

TEST(CalibrationSelfCheck, RecoversTheSimulatedPlatformWithinOnePercent) {
    const SimulationSpec known = knownPlatform();
    std::vector<NcclRun> runs{
        simulatedRun(known, NcclCollective::AllReduce, CollectiveType::AllReduce),
        simulatedRun(known, NcclCollective::AllGather, CollectiveType::AllGather),
        simulatedRun(known, NcclCollective::ReduceScatter, CollectiveType::ReduceScatter)};
    SimulationSpec guess = known; // what a user starts from: the datasheet, not the truth
    guess.platform.dimensions[0].latencyNs = 5000;
    guess.platform.dimensions[0].bandwidthBytesPerSecond = 400e9;
    guess.system.endpointDelayNs = 10;
    FitOptions options;
    options.reduceUsPerByte = reduceUsPerByte(guess);
    const Calibration c = calibrate(runs, options);
    std::printf("%s", calibrationReportText(c).c_str());
    EXPECT_EQ(c.fit.model.regimes.size(), 1u);
    const AppliedCalibration applied = applyCalibration(guess, 0, c.fit, c.runs);
    std::printf("%s\n", applied.settings.c_str());
    EXPECT_NEAR(applied.latencyNs / kLatencyNs, 1, 0.01);
    EXPECT_NEAR(applied.endpointDelayNs / kEndpointNs, 1, 0.01);
    EXPECT_NEAR(applied.bandwidthBytesPerSecond / kBandwidth, 1, 0.01);
    EXPECT_NEAR(applied.efficiency, kBandwidth / 400e9, 0.01);
    EXPECT_TRUE(applied.warnings.empty());
    // Held out, the model's own data is predicted to rounding, except all-reduce from
    // all-gather and reduce-scatter: both have n - 1 = 7 steps, so without all-reduce alpha
    // (0.3 us) folds into the step cost (1.5 + 0.3 / 7 us) and all-reduce's 14 steps carry it
    // twice: 0.3 us too much, 1.4 % of the 16 KiB all-reduce's 21.5 us.
    EXPECT_LT(c.heldOut.sizeRangeAll.worst, 0.001);
    ASSERT_EQ(c.heldOut.byCollective.size(), 3u);
    EXPECT_NEAR(c.heldOut.byCollective[0].all.worst, 0.3 / 21.5, 0.001);
    EXPECT_LT(c.heldOut.byCollective[1].all.worst, 0.001);
    EXPECT_LT(c.heldOut.byCollective[2].all.worst, 0.001);
}

TEST(CalibrationSelfCheck, CalibratedProjectRunsInBothModelsAndBothTimings) {
    // The bundled HGX H100 project calibrated from the bundled DGX A100 measurements (8 GPUs,
    // one node): written, read back, and run.
    const std::string project = ASTROLABE_SOURCE_DIR + "/projects/hgx-h100/project.yaml";
    SimulationSpec s = loadProject(project);
    std::vector<NcclRun> runs{
        readNcclTests(ASTROLABE_TEST_DATA_DIR + "/nccl-tests/a100-oci-1node-all_reduce.txt")};
    FitOptions options;
    options.reduceUsPerByte = reduceUsPerByte(s);
    const Calibration c = calibrate(runs, options);
    const AppliedCalibration applied = applyCalibration(s, 0, c.fit, c.runs);
    const std::string path = ::testing::TempDir() + "calibrated-hgx.yaml";
    const std::string text = calibratedProjectText(s, applied, path);
    EXPECT_NE(text.find("# Calibrated with 'astrolabe-cli calibrate nccl-tests'"),
              std::string::npos);
    EXPECT_NE(text.find("a100-oci-1node-all_reduce.txt: all_reduce_perf, 8 ranks on 1 node"),
              std::string::npos);
    const SimulationSpec back = parseProject(text, path);
    EXPECT_EQ(back.platform.dimensions[0].latencyNs, applied.latencyNs); // whole picoseconds
    EXPECT_EQ(back.platform.dimensions[0].bandwidthBytesPerSecond, applied.bandwidthBytesPerSecond);
    EXPECT_EQ(back.system.endpointDelayNs, static_cast<int64_t>(applied.endpointDelayNs));
    const uint64_t size = uint64_t{1} << 30;
    for (const NetworkBackend backend :
         {NetworkBackend::CongestionUnaware, NetworkBackend::CongestionAware})
        for (const TimingMode timing : {TimingMode::AstraCompatible, TimingMode::Precise}) {
            SimulationSpec run = back;
            run.options.backend = backend;
            run.options.timing = timing;
            const double us = static_cast<double>(
                                  maxCycles(*runCollective(run, CollectiveType::AllReduce, size))) /
                              1e3;
            const double model = c.fit.model.timeUs(NcclCollective::AllReduce, 8, size);
            std::printf("[ calibrate ] %s, %s: all-reduce 1 GiB %.1f us, model %.1f us\n",
                        networkBackendName(backend),
                        timing == TimingMode::Precise ? "precise" : "astra-compatible", us, model);
            EXPECT_GT(us, 0);
            if (backend == NetworkBackend::CongestionUnaware) {
                EXPECT_NEAR(us / model, 1, 0.01);
            }
        }
}

TEST(CalibrationSelfCheck, RecoversPerCollectiveBandwidthFactorsAndTheProjectRunsThem) {
    // The known platform with a bandwidth factor per collective (product 1, so the fit's
    // normalisation, the geometric mean of the collectives' own bandwidths, is the link's):
    // all-gather's bytes move at half the link rate, all-reduce's at twice, reduce-scatter's at
    // the rate. Every message stays a whole number of nanoseconds (x / f bytes at 128 B/ns).
    SimulationSpec known = knownPlatform();
    const auto index = [](CollectiveKind k) { return static_cast<size_t>(k); };
    known.system.bandwidthFactor[index(CollectiveKind::AllGather)] = 0.5;
    known.system.bandwidthFactor[index(CollectiveKind::AllReduce)] = 2;
    std::vector<NcclRun> runs{
        simulatedRun(known, NcclCollective::AllReduce, CollectiveType::AllReduce),
        simulatedRun(known, NcclCollective::AllGather, CollectiveType::AllGather),
        simulatedRun(known, NcclCollective::ReduceScatter, CollectiveType::ReduceScatter)};
    SimulationSpec guess = knownPlatform();
    guess.platform.dimensions[0].latencyNs = 5000;
    guess.platform.dimensions[0].bandwidthBytesPerSecond = 400e9;
    guess.system.endpointDelayNs = 10;
    FitOptions options;
    options.reduceUsPerByte = reduceUsPerByte(guess);
    const Calibration c = calibrate(runs, options);
    std::printf("%s", calibrationReportText(c).c_str());
    const CostModel& m = c.fit.model;
    EXPECT_NEAR(m.factorOf(NcclCollective::AllGather), 0.5, 0.005);
    EXPECT_NEAR(m.factorOf(NcclCollective::AllReduce), 2, 0.02);
    EXPECT_NEAR(m.factorOf(NcclCollective::ReduceScatter), 1, 0.01);
    const AppliedCalibration applied = applyCalibration(guess, 0, c.fit, c.runs);
    std::printf("%s\n", applied.settings.c_str());
    EXPECT_NEAR(applied.bandwidthBytesPerSecond / kBandwidth, 1, 0.01);
    EXPECT_NEAR(applied.latencyNs / kLatencyNs, 1, 0.01);
    // Held out by size, each collective keeps its own factor: predicted to rounding.
    EXPECT_LT(c.heldOut.sizeRangeAll.worst, 0.01);

    // The project text holds the factors as settings (not reduce-scatter's 1), and they read
    // back (through a bundled project: the test platform here has no workload to write).
    const std::string path = ::testing::TempDir() + "calibrated-factors.yaml";
    const std::string text = calibratedProjectText(guess, applied, path);
    EXPECT_NE(text.find("all-gather-bandwidth-factor: 0.5"), std::string::npos) << text;
    EXPECT_NE(text.find("all-reduce-bandwidth-factor: 2"), std::string::npos) << text;
    EXPECT_EQ(text.find("reduce-scatter-bandwidth-factor"), std::string::npos) << text;
    SimulationSpec bundled = loadProject(ASTROLABE_SOURCE_DIR + "/projects/hgx-h100/project.yaml");
    bundled.system.bandwidthFactor = applied.bandwidthFactor;
    EXPECT_EQ(parseProject(projectYamlText(bundled, path), path).system.bandwidthFactor,
              applied.bandwidthFactor);
    // The calibrated platform runs every collective at the fitted time, in both timing modes
    // (congestion-unaware, as above).
    const SimulationSpec& back = guess;
    const uint64_t size = uint64_t{1} << 28;
    for (const auto& [nccl, type] :
         {std::pair{NcclCollective::AllReduce, CollectiveType::AllReduce},
          {NcclCollective::AllGather, CollectiveType::AllGather},
          {NcclCollective::ReduceScatter, CollectiveType::ReduceScatter}})
        for (const TimingMode timing : {TimingMode::AstraCompatible, TimingMode::Precise}) {
            SimulationSpec run = back;
            run.options.timing = timing;
            const uint64_t simulated = nccl == NcclCollective::AllGather ? size / 8 : size;
            const double us =
                static_cast<double>(maxCycles(*runCollective(run, type, simulated))) / 1e3;
            EXPECT_NEAR(us / m.timeUs(nccl, 8, size), 1, 0.01) << ncclCollectiveName(nccl);
            // Without its factor the collective would run at the shared bandwidth.
            SimulationSpec plain = run;
            plain.system.bandwidthFactor = {1, 1, 1, 1};
            const double plainUs =
                static_cast<double>(maxCycles(*runCollective(plain, type, simulated))) / 1e3;
            if (nccl != NcclCollective::ReduceScatter) {
                EXPECT_GT(std::abs(plainUs / us - 1), 0.2) << ncclCollectiveName(nccl);
            }
            // The congestion-aware model runs it too (a Ring: no Switch to serialise on).
            run.options.backend = NetworkBackend::CongestionAware;
            const double awareUs =
                static_cast<double>(maxCycles(*runCollective(run, type, simulated))) / 1e3;
            EXPECT_NEAR(awareUs / us, 1, 0.05) << ncclCollectiveName(nccl);
        }
}

TEST(CalibrationSelfCheck, RecoversPerCollectiveLatenciesAndTheProjectRunsThem) {
    // The known platform with a latency of its own for all-gather (2 us) and reduce-scatter
    // (5 us), none for all-reduce (the fit gives the fastest collective 0), simulated on rings of
    // 4 and 8 NPUs: two step counts per collective tell each one's fixed cost from the per-step
    // cost, which one ring size cannot (there, a latency on all-reduce alone is indistinguishable
    // from a longer step). The latencies are whole nanoseconds, as every message is.
    const auto index = [](CollectiveKind k) { return static_cast<size_t>(k); };
    std::vector<NcclRun> runs;
    for (const int ranks : {4, 8}) {
        SimulationSpec known = knownPlatform(ranks);
        known.system.collectiveLatencyNs[index(CollectiveKind::AllGather)] = 2000;
        known.system.collectiveLatencyNs[index(CollectiveKind::ReduceScatter)] = 5000;
        runs.push_back(simulatedRun(known, NcclCollective::AllReduce, CollectiveType::AllReduce));
        runs.push_back(simulatedRun(known, NcclCollective::AllGather, CollectiveType::AllGather));
        runs.push_back(
            simulatedRun(known, NcclCollective::ReduceScatter, CollectiveType::ReduceScatter));
    }
    SimulationSpec guess = knownPlatform();
    guess.platform.dimensions[0].latencyNs = 5000;
    guess.platform.dimensions[0].bandwidthBytesPerSecond = 400e9;
    guess.system.endpointDelayNs = 10;
    FitOptions options;
    options.reduceUsPerByte = reduceUsPerByte(guess);
    const Calibration c = calibrate(runs, options);
    std::printf("%s", calibrationReportText(c).c_str());
    const CostModel& m = c.fit.model;
    EXPECT_NEAR(m.latencyOf(NcclCollective::AllGather) / 2.0, 1, 0.01);
    EXPECT_NEAR(m.latencyOf(NcclCollective::ReduceScatter) / 5.0, 1, 0.01);
    EXPECT_NEAR(m.latencyOf(NcclCollective::AllReduce), 0, 0.01 * 5.0);
    const AppliedCalibration applied = applyCalibration(guess, 0, c.fit, c.runs);
    std::printf("%s\n", applied.settings.c_str());
    EXPECT_NEAR(applied.latencyNs / kLatencyNs, 1, 0.01);
    EXPECT_NEAR(applied.endpointDelayNs / kEndpointNs, 1, 0.01);
    EXPECT_NEAR(applied.bandwidthBytesPerSecond / kBandwidth, 1, 0.01);
    EXPECT_NEAR(applied.collectiveLatencyNs[index(CollectiveKind::AllGather)] / 2000, 1, 0.01);
    EXPECT_NEAR(applied.collectiveLatencyNs[index(CollectiveKind::ReduceScatter)] / 5000, 1, 0.01);
    // Held out by size, each collective keeps its own latency: predicted to rounding.
    EXPECT_LT(c.heldOut.sizeRangeAll.worst, 0.01);

    // The settings are written and read back (through a bundled project, as above).
    const std::string path = ::testing::TempDir() + "calibrated-latencies.yaml";
    const std::string text = calibratedProjectText(guess, applied, path);
    EXPECT_NE(text.find("all-gather-latency:"), std::string::npos) << text;
    EXPECT_EQ(text.find("all-reduce-latency"), std::string::npos) << text;
    SimulationSpec bundled = loadProject(ASTROLABE_SOURCE_DIR + "/projects/hgx-h100/project.yaml");
    bundled.system.collectiveLatencyNs = applied.collectiveLatencyNs;
    EXPECT_EQ(parseProject(projectYamlText(bundled, path), path).system.collectiveLatencyNs,
              applied.collectiveLatencyNs);
    // The calibrated 8-NPU platform runs each collective at the fitted time at 16 KiB, where the
    // latency is a large share, in both network models and both timing modes; without its
    // latency all-gather and reduce-scatter would run more than 5 % faster.
    const uint64_t size = uint64_t{1} << 14;
    for (const auto& [nccl, type] :
         {std::pair{NcclCollective::AllReduce, CollectiveType::AllReduce},
          {NcclCollective::AllGather, CollectiveType::AllGather},
          {NcclCollective::ReduceScatter, CollectiveType::ReduceScatter}})
        for (const NetworkBackend backend :
             {NetworkBackend::CongestionUnaware, NetworkBackend::CongestionAware})
            for (const TimingMode timing : {TimingMode::AstraCompatible, TimingMode::Precise}) {
                SimulationSpec run = guess;
                run.options.backend = backend;
                run.options.timing = timing;
                const uint64_t simulated = nccl == NcclCollective::AllGather ? size / 8 : size;
                const double us =
                    static_cast<double>(maxCycles(*runCollective(run, type, simulated))) / 1e3;
                EXPECT_NEAR(us / m.timeUs(nccl, 8, size), 1, 0.01) << ncclCollectiveName(nccl);
                SimulationSpec plain = run;
                plain.system.collectiveLatencyNs = {0, 0, 0, 0};
                const double plainUs =
                    static_cast<double>(maxCycles(*runCollective(plain, type, simulated))) / 1e3;
                if (nccl != NcclCollective::AllReduce) {
                    EXPECT_LT(plainUs / us, 0.95) << ncclCollectiveName(nccl);
                }
            }
}
