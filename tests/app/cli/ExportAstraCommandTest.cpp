// export-astra: a project written as ASTRA-sim inputs runs, through ASTRA-sim's own flags, to the
// project's end time; what ASTRA-sim cannot run or ignores is named, by key.
#include "TestPaths.h"
#include "cli/CliRunner.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using clitest::cli;
using clitest::Result;

namespace {

const std::string kSource = ASTROLABE_SOURCE_DIR;

fs::path scratch(const std::string& name) {
    const fs::path dir = clitest::scratchDir("export-astra") / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

double endTimeNs(const fs::path& json) {
    std::ifstream in(json);
    return nlohmann::json::parse(in).at("endTimeNs").get<double>();
}

/// The flags export-astra printed ("--key=value" lines after "astrolabe-cli astra").
std::vector<std::string> printedFlags(const std::string& out) {
    std::vector<std::string> flags;
    size_t at = 0;
    while ((at = out.find("--", at)) != std::string::npos) {
        const size_t end = out.find_first_of(" \n", at);
        flags.push_back(out.substr(at, end - at));
        at = end;
    }
    return flags;
}

} // namespace

TEST(ExportAstra, ExportedInputsRunToTheProjectsEndTime) {
    for (const char* project : {"quickstart", "torus-2d", "hgx-h100"}) {
        SCOPED_TRACE(project);
        const fs::path dir = scratch(project);
        const std::string yaml = kSource + "/projects/" + project + "/project.yaml";
        const Result exported = cli({"export-astra", yaml, "--out", (dir / "astra").string()});
        ASSERT_EQ(exported.code, 0) << exported.err;
        EXPECT_EQ(exported.err, "") << "these projects use nothing ASTRA-sim lacks";
        for (const char* file : {"network.yml", "system.json", "remote_memory.json"})
            EXPECT_TRUE(fs::exists(dir / "astra" / file)) << file;

        ASSERT_EQ(cli({"run", yaml, "--no-store", "--json", (dir / "run.json").string()}).code, 0);
        std::vector<std::string> args{"astra"};
        for (const std::string& flag : printedFlags(exported.out))
            args.push_back(flag);
        args.push_back("--logging-folder=" + (dir / "log").string());
        args.push_back("--json=" + (dir / "astra.json").string());
        const Result astra = cli(args);
        ASSERT_EQ(astra.code, 0) << astra.err << exported.out;
        EXPECT_EQ(endTimeNs(dir / "astra.json"), endTimeNs(dir / "run.json"));
    }
}

TEST(ExportAstra, NamesWhatAstraSimCannotRunOrIgnores) {
    const fs::path dir = scratch("in-switch");
    const Result r = cli({"export-astra", kSource + "/projects/in-switch/project.yaml", "--out",
                          (dir / "astra").string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("warning: system: the inSwitch algorithm is Astrolabe's"),
              std::string::npos)
        << r.err;

    // An Astrolabe-only setting away from its default, found through the settings schema.
    const fs::path project = dir / "themis.yaml";
    {
        std::ifstream in(kSource + "/projects/quickstart/project.yaml");
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        text.replace(text.find("system:\n"), 8, "system:\n  inter-dimension-scheduling: themis\n");
        std::ofstream(project) << text;
    }
    const Result themis = cli({"export-astra", project.string(), "--out", (dir / "t").string()});
    ASSERT_EQ(themis.code, 0) << themis.err;
    EXPECT_NE(themis.err.find("warning: system.inter-dimension-scheduling: themis is honoured by "
                              "Astrolabe, but ASTRA-sim 2.x ignores"),
              std::string::npos)
        << themis.err;
}

TEST(ExportAstra, AGraphPlatformIsRefusedWithTheKeyAndAnAlternative) {
    const fs::path dir = scratch("graph");
    const Result r = cli({"export-astra", kSource + "/projects/graph-dgx1/project.yaml", "--out",
                          (dir / "astra").string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("platform.graph"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("graph export"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "astra" / "network.yml"));
    EXPECT_EQ(cli({"export-astra", kSource + "/projects/quickstart/project.yaml"}).code, 2);
}

// --out naming a file (or a folder whose "workload" is a file) is an error naming it, before
// anything is written.
TEST(ExportAstra, AnOutThatIsAFileIsRefusedBeforeAnythingIsWritten) {
    const fs::path dir = scratch("out-is-file");
    std::ofstream(dir / "exf") << "x\n";
    const std::string project = kSource + "/projects/quickstart/project.yaml";
    const Result file = cli({"export-astra", project, "--out=" + (dir / "exf").string()});
    EXPECT_EQ(file.code, 1) << file.err;
    EXPECT_NE(file.err.find("exf: cannot make the folder for the ASTRA-sim inputs: a file of "
                            "that name is there"),
              std::string::npos)
        << file.err;
    EXPECT_EQ(file.err.find("internal error"), std::string::npos) << file.err;
    fs::create_directories(dir / "exw");
    std::ofstream(dir / "exw" / "workload") << "x\n";
    const Result inner = cli({"export-astra", project, "--out=" + (dir / "exw").string()});
    EXPECT_EQ(inner.code, 1) << inner.err;
    EXPECT_NE(inner.err.find("workload: cannot make the folder"), std::string::npos) << inner.err;
    EXPECT_FALSE(fs::exists(dir / "exw" / "network.yml")) << "half-written";
}

// A project read from the folder it is exported into, under a name the export writes
// (network.yml), is refused, not replaced by the network YAML.
TEST(ExportAstra, AnExportOverItsOwnProjectIsRefused) {
    const fs::path dir = scratch("over-project");
    fs::create_directories(dir / "ea");
    const fs::path project = dir / "ea" / "network.yml";
    fs::copy_file(kSource + "/projects/quickstart/project.yaml", project);
    const Result r = cli({"export-astra", project.string(), "--out=" + (dir / "ea").string()});
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("cannot write the ASTRA-sim network YAML there: it is the project"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir / "ea" / "system.json")) << "half-written";
    std::ifstream in(project);
    std::string first;
    std::getline(in, first);
    EXPECT_EQ(first.rfind("# Quick start", 0), 0u) << first;
}
