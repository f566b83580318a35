#pragma once
// The one cost model calibration fits (docs/calibration.md states it with its reasons).
//
// A collective of S bytes (nccl-tests' size) over a ring of n ranks takes
//
//   t(S) = alpha_r + [r last] l_c + steps(c, n) * delta_r + bus(c, n) * S * u_r / f_c
//          + sqrt(bus(c, n) * S) * w_r + reduced(c, n) * S * g
//
// where r is the protocol regime S falls in (NCCL switches protocol, LL -> LL128 -> Simple, as
// messages grow: regimes are size ranges split at fitted thresholds), and per regime
//   alpha_r  us            fixed cost of a collective (launch, synchronisation)
//   delta_r  us            cost per ring step (link latency plus the endpoint's handling)
//   u_r      us per byte   1 / the bandwidth one ring link achieves (efficiency x link rate)
//   w_r      us per sqrt(byte)  filling the pipeline: a message cut into chunks of a size
//            that grows with the message (NCCL's channels and chunking) pays a start-up that
//            grows as sqrt(S) (a pipeline of optimal chunk size costs (sqrt(a) + sqrt(S/B))^2),
//            so the achieved bandwidth ramps up smoothly over mid-size messages
// With several collectives, each one's regimes below its own last threshold are its own
// (OwnRegimes): only the last regime, the one the simulator runs, is shared.
// f_c    the collective's bandwidth factor (1 with one collective; CostFit.h says how it is fitted)
// l_c    the collective's own latency (us, >= 0; 0 with one collective): what its fixed cost adds
//        to the shared alpha_r + steps * delta_r of the last regime (below it, a collective of
//        the data has regimes of its own). The simulator, which runs the last regime at every
//        size, gets settingLatencyUs instead: the l_c that best fit each collective's times at
//        every size so run
// steps: all_reduce 2(n-1); all_gather, reduce_scatter, alltoall n-1; sendrecv 1.
// bus = ncclBusFactor() (so predicted busbw = bus * S / t, as nccl-tests computes it).
// reduced: the bytes each rank reduces, (n-1)/n of S for all_reduce and reduce_scatter, else 0;
// g (us per byte) is not fitted but known from the platform (the simulator's reduction cost,
// 3 passes over local memory), so that a fitted platform simulates to the fitted times.
//
// The last regime is what the simulator models, in its form (w = 0): CalibratedProject maps it
// onto a dimension's latency and bandwidth and the endpoint delay. Evaluation is O(regimes).

#include "calibrate/NcclTests.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe {

/// steps(c, n) and reduced(c, n) of the model; bus(c, n) is ncclBusFactor().
double ringSteps(NcclCollective collective, int ranks);
double reducedFraction(NcclCollective collective, int ranks);

struct RegimeCost {
    double alphaUs = 0;
    double stepUs = 0;
    double usPerBusByte = 0;
    double usPerRootBusByte = 0; ///< w: the pipeline's fill, growing as sqrt(bus * S)
    bool operator==(const RegimeCost&) const = default;
};

/// "alpha 12.3 us, per step 0.45 us, ring link 180.2 GB/s[, fill 3.1 ns x sqrt(bytes)]"
std::string regimeText(const RegimeCost& regime);
/// A regime's threshold or first size in the report, to 3 significant digits ("2.83 MiB"): a
/// threshold inside a gap between measured sizes is a fitted guess, not a byte count.
std::string thresholdText(uint64_t bytes);

/// A collective's own regimes (docs/calibration.md, "Per-collective regimes"): with several
/// collectives in the data, each one is also fitted alone (f = 1, l = 0), and below `lastFrom`
/// its time is that fit's (its own thresholds, constants, bandwidths and fill); from `lastFrom`
/// on it runs the shared last regime with its factor and latency, as the simulator does.
/// lastFrom = the larger of its own and the shared last regime's first size.
struct OwnRegimes {
    bool fitted = false; ///< false: the collective runs the shared regimes at every size
    std::vector<uint64_t> thresholdBytes; ///< its own fit's, ascending
    std::vector<RegimeCost> regimes;      ///< thresholdBytes.size() + 1
    uint64_t lastFrom = 0;
    bool operator==(const OwnRegimes&) const = default;
};

struct CostModel {
    /// Ascending; regime k holds sizes in [thresholds[k-1], thresholds[k]). regimes.size() =
    /// thresholds.size() + 1.
    std::vector<uint64_t> thresholdBytes;
    std::vector<RegimeCost> regimes{RegimeCost{}};
    double reduceUsPerByte = 0; ///< g: known, not fitted
    /// Per collective (NcclCollective order), the share of the ring link's bandwidth its bytes
    /// move at: the bandwidth term is bus * S * u_r / f_c. NCCL's collectives are different
    /// kernels (protocols, channels) and reach different bus bandwidths on one link; 1 for a
    /// collective the fit had no data of (docs/calibration.md, "Per-collective bandwidth").
    std::array<double, kNcclCollectiveCount> bandwidthFactor{1, 1, 1, 1, 1};
    double factorOf(NcclCollective collective) const {
        return bandwidthFactor[static_cast<size_t>(collective)];
    }
    /// Per collective, its own latency l_c in us (>= 0): its fixed cost beyond the shared
    /// alpha_r + steps * delta_r, in the last regime. NCCL's collectives are different
    /// kernels with different launch and synchronisation costs; 0 for a collective the fit had
    /// no data of, and for the fastest one (docs/calibration.md, "Per-collective latency").
    std::array<double, kNcclCollectiveCount> latencyUs{0, 0, 0, 0, 0};
    double latencyOf(NcclCollective collective) const {
        return latencyUs[static_cast<size_t>(collective)];
    }
    /// Per collective, the latency the settings get (system.<collective>-latency, in us): the
    /// constant that, added to the last regime run at every size (as the simulator runs it),
    /// best fits the collective's times at every size, dominated by its small, latency-bound
    /// messages; the fastest collective 0. latencyUs fits the last regime's sizes only, where
    /// a steep last regime can put a large intercept (docs/calibration.md).
    std::array<double, kNcclCollectiveCount> settingLatencyUs{0, 0, 0, 0, 0};

    /// Per collective, its own regimes below lastFrom; not fitted with one collective.
    std::array<OwnRegimes, kNcclCollectiveCount> own{};

    size_t regimeOf(uint64_t sizeBytes) const;
    double timeUs(NcclCollective collective, int ranks, uint64_t sizeBytes) const;
    /// The last regime at every size, with the collective's factor and latency: what the
    /// settings make the simulator run (CalibratedProject.h).
    double lastRegimeTimeUs(NcclCollective collective, int ranks, uint64_t sizeBytes) const;
    /// bus(c, n) * S / t in GB/s (10^9 B/s), as nccl-tests prints busbw.
    double busBandwidthGBps(NcclCollective collective, int ranks, uint64_t sizeBytes) const;
    bool operator==(const CostModel&) const = default;
};

/// One measured time: a row's out-of-place or in-place column.
struct CalibrationPoint {
    NcclCollective collective = NcclCollective::AllReduce;
    int ranks = 0;
    uint64_t sizeBytes = 0;
    double timeUs = 0;
    int file = 0; ///< index into the list of runs
    int line = 0;
};

/// Every row of every run with size > 0, once per column that has a time > 0.
std::vector<CalibrationPoint> calibrationPoints(const std::vector<NcclRun>& runs);

/// Repeated measurements of one (collective, ranks, size) as one point: a row's out-of-place and
/// in-place columns, and the rows of several files, take the median of their times (of two, their
/// mean), so that a size measured twice weighs in the fit and in the held-out error as one size
/// measured once. The point keeps the file and line of its first measurement; order is that of
/// the first measurements. The same rule for every dataset (docs/calibration.md).
std::vector<CalibrationPoint> mergeRepeats(const std::vector<CalibrationPoint>& points);

} // namespace astrolabe
