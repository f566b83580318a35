// `astrolabe-cli fidelity`: one project through the three network models.
#include "CliRunner.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

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
    fs::remove_all(dir);
}

TEST(FidelityCommand, AMissingProjectIsAUsageError) {
    const clitest::Result r = clitest::cli({"fidelity", "no-such-project.yaml"});
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("no-such-project.yaml"), std::string::npos) << r.err;
}
