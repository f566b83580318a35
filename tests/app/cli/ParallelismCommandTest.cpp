// `astrolabe-cli optimize parallelism`: the planner on the Selene validation platform, its
// ranking, simulations and Megatron / NeMo arguments, and requests nobody can satisfy refused
// with the constraint named.
#include "CliRunner.h"
#include "TestPaths.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using clitest::cli;

namespace {

const std::string kSelene =
    std::string(ASTROLABE_SOURCE_DIR) + "/projects/validation/selene-a100.yaml";

} // namespace

TEST(ParallelismCommand, RanksSimulatesAndPrintsMegatronArguments) {
    // A 2-layer GPT-2 on Selene's 32 GPUs: the two best estimates simulated.
    const auto r = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--set",
                        "layers=2", "--global-batch", "64", "--top", "2", "--gpu", "a100-80gb"});
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* part : {"legal configurations", "Spearman rank correlation", "Chosen",
                             "--tensor-model-parallel-size", "--micro-batch-size",
                             "model.tensor_model_parallel_size="})
        EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
}

TEST(ParallelismCommand, JsonReportsBothRankings) {
    const auto r = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--set",
                        "layers=2", "--global-batch", "64", "--top", "3", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["simulated"].size(), 3u);
    double last = 0;
    for (const auto& row : j["simulated"]) {
        EXPECT_GE(row["estimate_seconds"].get<double>(), last); // in the estimate's order
        last = row["estimate_seconds"];
        EXPECT_GT(row["simulated_seconds"].get<double>(), 0);
    }
    EXPECT_EQ(j["enumerated"].get<uint64_t>(), j["ranked"].get<uint64_t>() +
                                                   j["rejected_for_memory"].get<uint64_t>() +
                                                   j["twins"].get<uint64_t>());
}

TEST(ParallelismCommand, PlacementAndBaseline) {
    // Megatron's rank order only, and Megatron's own split beside the planner's choice.
    const auto r = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--set",
                        "layers=2", "--global-batch", "64", "--top", "2", "--placement", "tp,dp,pp",
                        "--baseline", "tp=4,pp=1,dp=8,micro-batch=1", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    for (const auto& row : j["simulated"])
        EXPECT_EQ(row["placement"], "tp,dp,pp");
    EXPECT_EQ(j["baseline"]["label"].get<std::string>().rfind("t4 p1 d8 b1 ", 0), 0u)
        << j["baseline"]["label"];
    EXPECT_GT(j["baseline"]["simulated_seconds"].get<double>(), 0);
    const auto bad =
        cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--placement", "tp,pp"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("--placement: expected one of"), std::string::npos) << bad.err;
    const auto wrong = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m",
                            "--baseline", "tp=4,pp=1,dp=4"});
    EXPECT_EQ(wrong.code, 2);
    EXPECT_NE(wrong.err.find("--baseline: tp x pp x dp = 16, expected the 32 GPUs"),
              std::string::npos)
        << wrong.err;
    // A placement inside the pairs keeps its commas, and is the one estimated; one that is no
    // rank order is refused (it was replaced by tp,dp,pp without a word), and a complaint about
    // the pairs names --baseline, not --set.
    const auto ordered = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--set",
                              "layers=2", "--global-batch", "64", "--top", "0", "--baseline",
                              "tp=4,pp=1,dp=8,micro-batch=1,placement=dp,tp,pp", "--json"});
    ASSERT_EQ(ordered.code, 0) << ordered.err;
    const std::string label =
        nlohmann::json::parse(ordered.out)["baseline"]["label"].get<std::string>();
    EXPECT_NE(label.find("[dp,tp,pp]"), std::string::npos) << label;
    const auto dashed = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--top",
                             "0", "--baseline", "tp=4,pp=1,dp=8,placement=dp-tp-pp"});
    EXPECT_EQ(dashed.code, 2);
    EXPECT_NE(dashed.err.find("--baseline: parallel.placement: expected one of tp,dp,pp"),
              std::string::npos)
        << dashed.err;
    EXPECT_NE(dashed.err.find("found \"dp-tp-pp\""), std::string::npos) << dashed.err;
    const auto loose = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--top",
                            "0", "--baseline", "4,pp=1"});
    EXPECT_EQ(loose.code, 2);
    EXPECT_NE(loose.err.find("--baseline: expected KEY=VALUE pairs"), std::string::npos)
        << loose.err;
}

// The planner took the model preset's GPU (an H100) on the Selene project, whose
// platform.accelerator is the A100 80 GB: 337 TFLOP/s on an "A100" of 312 peak.
TEST(ParallelismCommand, TheProjectsAcceleratorIsTheGpuUnlessOneIsGiven) {
    auto gpuOf = [](std::vector<std::string> extra) {
        std::vector<std::string> args{"optimize", "parallelism", kSelene, "--model", "gpt2-124m",
                                      "--set",    "layers=2",    "--top", "0",       "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = cli(args);
        EXPECT_EQ(r.code, 0) << r.err;
        return nlohmann::json::parse(r.out)["gpu"];
    };
    const nlohmann::json project = gpuOf({});
    EXPECT_EQ(project["name"], "a100-80gb");
    EXPECT_DOUBLE_EQ(project["peak_tflops"].get<double>(), 312.0);
    const nlohmann::json given = gpuOf({"--gpu", "h100"});
    EXPECT_EQ(given["name"], "h100");
    EXPECT_GT(given["peak_tflops"].get<double>(), 900.0);
    const auto text = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--set",
                           "layers=2", "--top", "0"});
    EXPECT_NE(text.out.find("GPU: a100-80gb (the project's platform.accelerator): 312.0 TFLOP/s"),
              std::string::npos)
        << text.out;
}

TEST(ParallelismCommand, UnsatisfiableRequestsNameTheConstraint) {
    // 12 GPUs on a platform of 8-GPU nodes.
    auto r = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--gpus", "12"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("GPUs not divisible"), std::string::npos) << r.err;
    // One node of them: divisible, but the outer dimension would be one NPU wide.
    r = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--gpus", "8"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("would leave the outermost dimension 1 NPU wide"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("plan for at least 16 GPUs"), std::string::npos) << r.err;
    // A global batch of 3 on 32 GPUs: dp is at least 4 (tp <= 4 for 12 heads, pp <= 2 layers).
    r = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--set", "layers=2",
             "--global-batch", "3", "--top", "0"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("global batch 3 is not a multiple"), std::string::npos) << r.err;
    // GPT-3 175B on 32 A100s of 80 GiB: 16 bytes of states per parameter over 32 GPUs is
    // 87.5 GB per GPU whatever the split.
    r = cli({"optimize", "parallelism", kSelene, "--model", "gpt3-175b", "--gpu", "a100-80gb",
             "--top", "0"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("fits no configuration of 32 GPUs"), std::string::npos) << r.err;
    // A model no split can repair is refused as a model, not as "least memory -1 B".
    r = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--set", "hidden=999",
             "--top", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("999 is not a multiple of 12"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("-1 B"), std::string::npos) << r.err;
    // An empty model file would have planned the default preset, GPT-3 175B.
    const auto dir = clitest::scratchDir("parallelism-model");
    const std::string empty = (dir / "empty-model.txt").string();
    std::ofstream(empty) << "# nothing yet\n\n";
    r = cli({"optimize", "parallelism", kSelene, "--model", empty, "--top", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("the file sets nothing"), std::string::npos) << r.err;
    // What the planner would have overruled or guessed is refused, before the plan: a setting
    // given twice (the last won), a split of the planner's own (silently dropped), a file without
    // its preset (GPT-3 175B was planned), a bad --show (checked after the whole plan).
    const std::string twice = (dir / "twice.txt").string();
    std::ofstream(twice) << "preset: gpt2-124m\nlayers: 4\n# more\nlayers: 400\n";
    r = cli({"optimize", "parallelism", kSelene, "--model", twice, "--top", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("twice.txt:4: \"layers\" is set again (first on line 2)"),
              std::string::npos)
        << r.err;
    // The generator's complaint about a setting the file gave names the file's line; a value
    // --set gave over it is named as --set's.
    const std::string fraction = (dir / "fraction.txt").string();
    std::ofstream(fraction) << "preset: gpt2-124m\n\nhidden: 768.5\n";
    r = cli({"optimize", "parallelism", kSelene, "--model", fraction, "--top", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("fraction.txt:3: hidden: expected an integer, found \"768.5\""),
              std::string::npos)
        << r.err;
    r = cli({"optimize", "parallelism", kSelene, "--model", fraction, "--set", "hidden=7.5",
             "--top", "0"});
    EXPECT_NE(r.err.find("--set: hidden: expected an integer, found \"7.5\""), std::string::npos)
        << r.err;
    const std::string split = (dir / "split.txt").string();
    std::ofstream(split) << "preset: gpt2-124m\ntp: 4\n";
    r = cli({"optimize", "parallelism", kSelene, "--model", split, "--top", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("\"tp\" is what the planner chooses"), std::string::npos) << r.err;
    const std::string noPreset = (dir / "no-preset.txt").string();
    std::ofstream(noPreset) << "layers: 4\n";
    r = cli({"optimize", "parallelism", kSelene, "--model", noPreset, "--top", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("expected a line \"preset: NAME\""), std::string::npos) << r.err;
    r = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--set",
             "layers=2,layers=3", "--top", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--set: \"layers\" is given twice"), std::string::npos) << r.err;
    r = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--show", "-5"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "") << "refused before the plan";
    r = cli({"optimize", "parallelism", kSelene});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--model"), std::string::npos) << r.err;
    r = cli({"optimize", "parallelism", kSelene, "--model", "gpt2-124m", "--total-bandwidth", "9"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("belongs to 'optimize bandwidth'"), std::string::npos) << r.err;
}
