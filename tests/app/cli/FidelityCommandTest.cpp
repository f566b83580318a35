// `astrolabe-cli fidelity`: one project through the three network models.
#include "CliRunner.h"
#include "store/ProjectDatabase.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

TEST(FidelityCommand, RunsTheThreeModelsAndShowsWhereTheyDiffer) {
    const fs::path dir = clitest::scratchDir("fidelity");
    const fs::path project = dir / "ring.yaml";
    std::ofstream(project) << "name: ring 4\nplatform:\n  dimensions:\n"
                              "    - {type: Ring, size: 4, bandwidth: 50 GB/s, latency: 500 ns}\n"
                              "system: {chunks: 2, algorithms: {all-reduce: [ring]}, "
                              "local-memory-bandwidth: 50 GB/s}\nworkload:\n"
                              "  microbenchmark: {collective: all-reduce, size: 4 MiB}\n";
    const clitest::Result r = clitest::cli({"fidelity", project.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* piece :
         {"congestion-unaware", "congestion-aware", "packet (ns-3)", "per collective",
          "#1 ALL_REDUCE 4 MiB", "busiest links", "[packet] ns-3", "stored as runs"})
        EXPECT_NE(r.out.find(piece), std::string::npos) << piece << "\n" << r.out;

    // The three runs are in the project's database, where the GUI's runs list reads them and
    // "Compare selected" puts them side by side: one per model, in the models' order, the
    // backend being the only thing that differs.
    const astrolabe::ProjectDatabase database((dir / "astrolabe.db").string());
    const std::vector<astrolabe::RunRecord> runs = database.listRuns(); // newest first
    ASSERT_EQ(runs.size(), 3u);
    const auto backendOf = [](const std::string& configJson) {
        std::string found;
        const std::function<void(const nlohmann::json&)> visit = [&](const nlohmann::json& j) {
            if (!j.is_object())
                return;
            for (const auto& [key, value] : j.items()) {
                if (key == "backend" && value.is_string())
                    found = value.get<std::string>();
                visit(value);
            }
        };
        visit(nlohmann::json::parse(configJson));
        return found;
    };
    EXPECT_EQ(backendOf(database.run(runs[2].id).configJson), "analytical-congestion-unaware");
    EXPECT_EQ(backendOf(database.run(runs[1].id).configJson), "analytical-congestion-aware");
    EXPECT_EQ(backendOf(database.run(runs[0].id).configJson), "ns3");
    EXPECT_EQ(runs[2].simulatedTime, runs[1].simulatedTime); // one chunk at a time on a ring
    EXPECT_NE(runs[0].simulatedTime, runs[1].simulatedTime); // TCP is not the analytical model
    fs::remove_all(dir);
}

TEST(FidelityCommand, AMissingProjectIsAUsageError) {
    const clitest::Result r = clitest::cli({"fidelity", "no-such-project.yaml"});
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("no-such-project.yaml"), std::string::npos) << r.err;
}
