// A run that cannot finish because chunks wait for each other's queue slots across NPUs (one NPU
// starts a two-chunk all-reduce late, one active chunk per dimension): the report says why and
// points at the setting, and the setting it names does let the same run finish. Found by the
// folding differential test (its seeds 246, 355, 601, 695 and 821 end this way).
#include "core/Error.h"
#include "engine/golden/RandomWorkload.h"
#include "simulation/Simulation.h"

#include <gtest/gtest.h>

using astrolabe::Error;
using astrolabe::ErrorKind;
using astrolabe::NetworkBackend;

TEST(QueueSlotDeadlock, ReportSaysWhyAndTheNamedSettingLetsTheRunFinish) {
    for (const auto& [seed, backend] :
         {std::pair{uint64_t{246}, NetworkBackend::CongestionUnaware},
          std::pair{uint64_t{355}, NetworkBackend::CongestionAware}}) {
        golden::RandomWorkload w = golden::randomWorkload(seed, backend);
        w.spec.options.exploitSymmetry = false;
        ASSERT_EQ(w.spec.system.activeChunksPerDimension, 1) << w.description;
        ASSERT_GT(w.spec.system.preferredDatasetSplits, 1) << w.description;
        try {
            astrolabe::runSimulation(w.spec, w.traces);
            ADD_FAILURE() << w.description << ": finished, expected the slot wait";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::Deadlock);
            EXPECT_NE(e.message().find("why: some chunks wait for a slot"), std::string::npos);
            EXPECT_EQ(e.where().keyPath, "system.active-chunks-per-dimension");
            EXPECT_NE(e.hint().find("preferred-dataset-splits, " +
                                    std::to_string(w.spec.system.preferredDatasetSplits)),
                      std::string::npos)
                << e.hint();
        }
        w.spec.system.activeChunksPerDimension = w.spec.system.preferredDatasetSplits;
        const auto result = astrolabe::runSimulation(w.spec, w.traces);
        EXPECT_EQ(result->simulatedNpus, result->npuCount) << w.description;
    }
}
