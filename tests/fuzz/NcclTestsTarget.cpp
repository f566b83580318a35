// nccl-tests output (text or CSV, docs/calibration.md): the reader, and the text writer read
// back. The fit on what was read is the nccl_fit target: it costs a thousand times more per
// input, and in one target it would hold the reader to a thousand inputs a second.
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
}
