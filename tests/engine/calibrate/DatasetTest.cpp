// Every bundled public dataset (tests/data/nccl-tests/PROVENANCE.md) calibrated and checked held
// out: the table of docs/calibration.md. The targets of issue #47 are the references: held-out
// geomean error of bus bandwidth <= 5 % for messages >= 1 MiB and <= 15 % over all sizes. One
// model and one fitting procedure for all of them; nothing is set per dataset.
#include "TestPaths.h"
#include "calibrate/Calibration.h"

#include <gtest/gtest.h>

using namespace astrolabe;

namespace {

/// Why a dataset misses the targets, as docs/calibration.md reports, and what is checked instead.
enum class Miss {
    None,      ///< meets both targets
    DataSteps, ///< steps or noise: the model is no worse than interpolating between neighbours
};

struct Dataset {
    std::vector<const char*> files; ///< fitted together: one system, one dimension
    Miss miss;
};

bool meetsTargets(const HeldOutReport& r) {
    return r.sizeRangeLarge.geomean <= 0.05 && r.sizeRangeAll.geomean <= 0.15;
}

const Dataset kDatasets[] = {
    {{"a100-oci-1node-all_reduce.txt"}, Miss::None},
    {{"a100-80gb-1node-all_reduce.txt"}, Miss::None},
    {{"h100-a3mega-2node-all_reduce.txt"}, Miss::None},
    {{"h100-k8s-2node-all_reduce.txt"}, Miss::None},
    {{"mi300x-aac-1node-all_reduce.txt"}, Miss::None},
    // Two GPUs over PCIe without P2P: at large sizes all_gather reaches 3.2 - 3.8 GB/s of bus
    // bandwidth, all_reduce 4.0 and alltoall 4.6; their small-message latencies differ (10, 12
    // and 13 us) and their curves step at different sizes (alltoall at 16 MiB). A bandwidth
    // factor, a latency and regimes of its own per collective: held out >= 1 MiB 10.1 % with
    // one bandwidth, 5.4 % with the factors, 1.3 % with all three.
    {{"rtx2080ti-pcie-2gpu-all_reduce.txt", "rtx2080ti-pcie-2gpu-all_gather.txt",
      "rtx2080ti-pcie-2gpu-alltoall.txt"},
     Miss::None},
    // Its time falls from 1 MiB to 2 MiB (414 to 316 us) and jumps between 64 and 256 MiB: steps
    // its neighbours do not show. Interpolating each held-out size between its measured
    // neighbours misses by as much as the model does (12.9 % above 1 MiB, the model 12.0 %). The
    // fall is a protocol switch RCCL's tuner places from its own per-GPU tables and per-size
    // corrections, which the output does not give (docs/calibration.md).
    {{"mi300x-aac-2node-all_reduce.txt"}, Miss::DataSteps},
    // Two ranks on one GPU over sockets: its own out-of-place and in-place columns differ by
    // 7.4 % (geomean) and up to 54 %, and eight sizes leave six to fit from per fold. Repeats
    // count as one point at their median. Held out 14.4 % at every size (all-sizes target met,
    // the >= 1 MiB one not; noise floor 3.6 %), each collective alone 17.5 % and 14.4 %.
    {{"rtx5090-socket-2rank-all_gather.txt", "rtx5090-socket-2rank-reduce_scatter.txt"},
     Miss::DataSteps},
};

} // namespace

TEST(CalibrationDatasets, HeldOutErrorsPerDataset) {
    std::printf(
        "| dataset | regimes | in-sample rms | held-out >= 1 MiB: geomean (worst) | "
        "held-out all sizes: geomean (worst) | wide ranges held out: >= 1 MiB / all | "
        "neighbour interpolation: >= 1 MiB / all | repeatability: geomean (worst) | repeats about "
        "their median: geomean (worst) | held out against every measurement: >= 1 MiB / all | "
        "its noise floor: >= 1 MiB / all |\n");
    for (const Dataset& d : kDatasets) {
        std::vector<NcclRun> runs;
        for (const char* file : d.files)
            runs.push_back(readNcclTests(ASTROLABE_TEST_DATA_DIR + "/nccl-tests/" + file));
        const Calibration c = calibrate(runs);
        const ErrorStats& large = c.heldOut.sizeRangeLarge;
        const ErrorStats& all = c.heldOut.sizeRangeAll;
        std::printf(
            "| %s | %zu | %.1f %% | %.1f %% (%.1f %%) | %.1f %% (%.1f %%) | %.1f %% / "
            "%.1f %% | %.1f %% / %.1f %% | %.1f %% (%.1f %%) | %.1f %% (%.1f %%) | %.1f %% / "
            "%.1f %% | %.1f %% / %.1f %% |\n",
            d.files.front(), c.fit.model.regimes.size(), 100 * c.fit.rmsRelativeError,
            100 * large.geomean, 100 * large.worst, 100 * all.geomean, 100 * all.worst,
            100 * c.heldOut.wideRangeLarge.geomean, 100 * c.heldOut.wideRangeAll.geomean,
            100 * c.heldOut.interpolationLarge.geomean, 100 * c.heldOut.interpolationAll.geomean,
            100 * c.repeatability.geomean, 100 * c.repeatability.worst, 100 * c.spread.geomean,
            100 * c.spread.worst, 100 * c.everyMeasurementLarge.geomean,
            100 * c.everyMeasurementAll.geomean, 100 * c.noiseFloorLarge.geomean,
            100 * c.noiseFloorAll.geomean);
        std::printf("%s", calibrationReportText(c).c_str());
        EXPECT_EQ(all.points, c.fit.points) << d.files.front() << ": a fold could not be fitted";
        EXPECT_EQ(meetsTargets(c.heldOut), d.miss == Miss::None) << d.files.front();
        // Every dataset meets the all-sizes target; the two that miss do so above 1 MiB.
        EXPECT_LE(all.geomean, 0.15) << d.files.front();
        // Against every measurement, no prediction of a size does better than its median (which
        // minimises the sum of |ln(measured / predicted)| over the size's measurements): the
        // noise floor is a lower bound. Every measurement has a held-out prediction.
        EXPECT_GE(c.everyMeasurementAll.geomean, c.noiseFloorAll.geomean) << d.files.front();
        EXPECT_EQ(c.everyMeasurementAll.points, c.measurements) << d.files.front();
        if (d.miss == Miss::DataSteps) {
            // The model still predicts no worse than the model-free baseline that interpolates
            // between the measured neighbours.
            EXPECT_LE(large.geomean, c.heldOut.interpolationLarge.geomean) << d.files.front();
            // And the report names the steps: sizes of 1 MiB and up that the fit misses by more
            // than 15 % held out and interpolating between their neighbours misses too.
            int steps = 0;
            for (const HeldOutMiss& m : heldOutMisses(c.points, c.heldOut))
                steps += m.step && c.points[m.point].sizeBytes >= kLargeMessageBytes;
            EXPECT_GE(steps, 2) << d.files.front();
        }
        if (d.files.size() > 1) // several collectives: each alone, as a reference
            for (const NcclRun& run : runs) {
                const Calibration alone = calibrate({run});
                std::printf("  %s alone: held out >= 1 MiB %.1f %%, all sizes %.1f %%\n",
                            ncclCollectiveName(run.collective),
                            100 * alone.heldOut.sizeRangeLarge.geomean,
                            100 * alone.heldOut.sizeRangeAll.geomean);
            }
    }
}
