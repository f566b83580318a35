// The speed targets of docs/serving.md: an hour of Poisson traffic at 10 requests/s for
// Llama-3 70B on 8 H100 (about 36,000 requests) in under 30 s, because the scheduler advances
// by iterations and a step's time is a closed form. Measured about 2 s on a shared 2-core machine.
#include "TestPaths.h"
#include "export/Comparison.h"
#include "project/ProjectFile.h"
#include "serving/ServingRun.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::serving;

TEST(ServingSpeed, AnHourOfLlama70bTrafficSimulatesInUnder30Seconds) {
    const SimulationSpec spec = loadProject(std::string(test_paths::sourceDir()) +
                                            "/projects/serving/llama3-70b-h100.yaml");
    const ServingResult r = runServing(spec);
    EXPECT_NEAR(double(r.summary.requests), 36000, 600); // Poisson: 36,000 +- 3 sigma
    EXPECT_EQ(r.summary.completed, r.summary.requests);
    EXPECT_LT(r.wallSeconds, 30);
    EXPECT_EQ(r.summary.gpus, 8);
    // The comparison of stored runs lists the serving settings of a serving run.
    const std::vector<SettingValue> rows = flattenSpec(spec);
    EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), [](const SettingValue& v) {
        return v.key == "serving.model" && v.text == "llama3-70b";
    }));
}
