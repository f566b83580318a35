#pragma once
// One calibration from start to report: the runs' measurements, the fit, the held-out checks and
// the text a front end prints (the CLI's 'calibrate nccl-tests'; docs/calibration.md).

#include "calibrate/HeldOutCheck.h"

#include <string>
#include <vector>

namespace astrolabe {

struct Calibration {
    std::vector<NcclRun> runs;
    /// One per (collective, ranks, size): the median of its repeated measurements (mergeRepeats).
    std::vector<CalibrationPoint> points;
    int measurements = 0; ///< before merging repeats
    FitResult fit;
    HeldOutReport heldOut;
    /// Out-of-place against in-place time of the same row: how far two measurements of one
    /// point differ.
    ErrorStats repeatability;
    /// Every measurement of a size measured more than once against that size's point (the
    /// median): how far the repeats lie from it.
    ErrorStats spread;
    /// The held-out predictions (HeldOutReport::predictedUs) against every measurement rather
    /// than each size's median: the error against the runs themselves, all sizes and >= 1 MiB.
    ErrorStats everyMeasurementAll, everyMeasurementLarge;
    /// Its noise floor: every measurement against its size's median (a single measurement 0),
    /// the error a model that predicted every median exactly would get on that check.
    ErrorStats noiseFloorAll, noiseFloorLarge;
    double seconds = 0; ///< wall time of the fit and the checks
};

/// Fits every point of `runs` and checks the fit held out. Throws what fitCostModel throws,
/// prefixed with the files' names.
Calibration calibrate(std::vector<NcclRun> runs, const FitOptions& options = {});

/// The fit, the held-out tables and the summary lines, as the CLI prints them.
std::string calibrationReportText(const Calibration& calibration);

} // namespace astrolabe
