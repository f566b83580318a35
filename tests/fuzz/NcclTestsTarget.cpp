// nccl-tests output (text or CSV, docs/calibration.md): the reader, then for inputs of a
// modest size the fit and its held-out checks, and the text writer read back.
#include "FuzzTarget.h"
#include "calibrate/Calibration.h"

#include <stdexcept>

ASTROLABE_FUZZ_TARGET(nccl_tests) {
    const astrolabe::NcclRun run = astrolabe::parseNcclTests(input, "fuzz.txt");
    if (run.ranks <= 1024) {
        const astrolabe::NcclRun back =
            astrolabe::parseNcclTests(astrolabe::ncclTestsText(run), "fuzz.txt", run.collective);
        if (back.rows.size() != run.rows.size() || back.ranks != run.ranks)
            throw std::logic_error("ncclTestsText does not read back");
    }
    if (run.rows.size() <= 64)
        (void)astrolabe::calibrate({run});
}
