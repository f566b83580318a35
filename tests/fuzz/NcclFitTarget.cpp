// The calibration fit and its held-out checks (docs/calibration.md) on whatever the nccl-tests
// reader accepts, for inputs of a modest size: regimes, thresholds and the cross-validated
// regime count must come out of any accepted table without a crash, a hang or an internal error.
#include "FuzzTarget.h"
#include "calibrate/Calibration.h"

ASTROLABE_FUZZ_TARGET(nccl_fit) {
    const astrolabe::NcclRun run = astrolabe::parseNcclTests(input, "fuzz.txt");
    if (run.rows.size() <= 64)
        (void)astrolabe::calibrate({run});
}
