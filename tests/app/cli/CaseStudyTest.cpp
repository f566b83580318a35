// The bundled case studies, run as a user runs them, against the papers' figures.
//
// ASTRA-sim 2.0 case study 3 (ISPASS 2023 slides, docs/case-studies.md): ZeRO-Infinity and
// HierMem (baseline) "near-identical", HierMem (opt) "4.6x better runtime". The acceptance is
// within 10% for the first pair and at least 3.5x for the second.
#include "CliRunner.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>
#include <vector>

using clitest::cli;
namespace fs = std::filesystem;

namespace {

/// Every row's fields (no quoted commas are needed: the quoted lists are skipped by name).
std::vector<std::vector<std::string>> readCsv(const fs::path& path) {
    std::ifstream in(path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> fields(1);
        bool quoted = false;
        for (const char c : line) {
            if (c == '"')
                quoted = !quoted;
            else if (c == ',' && !quoted)
                fields.emplace_back();
            else
                fields.back() += c;
        }
        rows.push_back(std::move(fields));
    }
    return rows;
}

} // namespace

TEST(CaseStudy, MemorySystemsAsInTheAstraSim2Slides) {
    const fs::path dir =
        fs::temp_directory_path() / ("astrolabe_case_study_3_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const char* file : {"platform.yaml", "case-study-3.yaml"})
        fs::copy_file(fs::path(ASTROLABE_SOURCE_DIR) / "projects/case-studies/memory" / file,
                      dir / file);
    const auto r = cli({"sweep", (dir / "case-study-3.yaml").string(), "--jobs", "2", "--csv",
                        (dir / "cs3.csv").string()});
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    const auto rows = readCsv(dir / "cs3.csv");
    ASSERT_EQ(rows.size(), 4u);
    size_t endColumn = 0, statusColumn = 0;
    for (size_t c = 0; c < rows[0].size(); ++c) {
        if (rows[0][c] == "end_time_ns")
            endColumn = c;
        if (rows[0][c] == "status")
            statusColumn = c;
    }
    ASSERT_GT(endColumn, 0u);
    std::vector<double> end;
    for (size_t i = 1; i < rows.size(); ++i) {
        ASSERT_EQ(rows[i][statusColumn], "ok") << i;
        end.push_back(std::stod(rows[i][endColumn]));
    }
    const double zeroInfinity = end[0], baseline = end[1], opt = end[2];
    EXPECT_LT(std::abs(baseline - zeroInfinity) / zeroInfinity, 0.10)
        << "ZeRO-Infinity " << zeroInfinity << " ns, HierMem baseline " << baseline << " ns";
    EXPECT_GE(zeroInfinity / opt, 3.5)
        << "ZeRO-Infinity " << zeroInfinity << " ns, HierMem opt " << opt << " ns";
    fs::remove_all(dir);
}
