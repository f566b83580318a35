// generate-llm and model-info: figures printed, generation in memory and to files, usage errors.
#include "TestPaths.h"
#include "cli/CliRunner.h"
#include "cli/Commands.h"
#include "support/Bounded.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <sstream>
#include <stdexcept>

using astrolabe::cli::runCli;

namespace {

using clitest::cli;
using clitest::Result;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST(GenerateLlmCli, ModelInfoPrintsTheFigures) {
    const Result r = cli({"model-info", "--preset", "gpt3-175b"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "parameters            174.6 B")) << r.out;
    EXPECT_TRUE(contains(r.out, "ours / Megatron = 1.000")) << r.out;
    EXPECT_TRUE(contains(r.out, "pipeline bubble       6.8 %")) << r.out; // 7 / (96 + 7)
    EXPECT_TRUE(contains(r.out, "optimizer states")) << r.out;
}

TEST(GenerateLlmCli, OverridesApply) {
    const Result r =
        cli({"model-info", "--preset=gpt3-175b", "--micro-batches=8", "--sp", "--recompute=false"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "8 micro-batches per pipeline")) << r.out;
    EXPECT_TRUE(contains(r.out, "pipeline bubble       46.7 %")) << r.out; // 7 / (8 + 7)
    EXPECT_TRUE(contains(r.out, "72 B s l h^2")) << r.out;
    EXPECT_TRUE(contains(r.out, ", sp,")) << r.out;
    const Result dims = cli({"model-info", "--platform-dims=8,16,8"});
    EXPECT_EQ(dims.code, 0) << dims.err;
    EXPECT_TRUE(contains(dims.out, "tp 8: dim 0; dp 16: dim 1; pp 8: dim 2")) << dims.out;
    EXPECT_EQ(cli({"model-info", "--platform-dims=8,x"}).code, 2);
}

TEST(GenerateLlmCli, GeneratesAndWritesTracesThatLoad) {
    const std::vector<std::string> small{
        "generate-llm", "--preset", "llama2-70b",      "--layers", "4", "--tp", "2", "--pp", "2",
        "--dp",         "2",        "--micro-batches", "4"};
    Result r = cli(small);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "generated             8 traces")) << r.out;
    std::vector<std::string> withOut = small;
    // The folder of the prefix does not exist yet: --out makes it.
    const std::string folder = ::testing::TempDir() + "/astrolabe-generate-llm-test";
    std::filesystem::remove_all(folder);
    const std::string prefix = folder + "/nested/t";
    withOut.push_back("--out=" + prefix);
    r = cli(withOut);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, ".comm_groups.json")) << r.out;
    // "generate llm" is the same command, and what it wrote is a valid 8-NPU workload.
    std::vector<std::string> spelled = withOut;
    spelled[0] = "llm";
    spelled.insert(spelled.begin(), "generate");
    EXPECT_EQ(cli(spelled).code, 0);
    EXPECT_EQ(cli({"trace", "check", prefix, "--npus", "8"}).code, 0);
    std::filesystem::remove_all(folder);
}

// --npus fits the split to a platform as the GUI's model builder does: GPT-3's t8 p8 d16 does
// not divide 8; GPT-2 124M's d8 becomes d64; with the global batch fixed at 512, 7 NPUs (dp 7)
// cannot divide it and the error says why.
TEST(GenerateLlmCli, NpusFitsTheParallelism) {
    Result r = cli({"model-info", "--preset", "gpt2-124m", "--npus", "64"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "tp 1 x pp 1 x dp 64")) << r.out;
    r = cli({"model-info", "--preset", "gpt2-124m", "--tp", "2", "--npus", "8"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "tp 2 x pp 1 x dp 4")) << r.out;
    r = cli({"model-info", "--preset", "gpt2-124m", "--npus", "7", "--global-batch", "512"});
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.err, "global batch 512")) << r.err;
    // Without --global-batch the preset's micro-batches per pipeline stay and the batch follows
    // dp (GPT-3's 1,536 sequences become 768 on 512 NPUs): the figures say how it was made.
    r = cli({"model-info", "--preset", "gpt3-175b", "--npus", "512"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "(global batch 768 = 96 micro-batches x 1 x dp 8)")) << r.out;
    r = cli({"model-info", "--preset", "gpt3-175b", "--npus", "512", "--global-batch", "1536"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "(global batch 1536 = 192 micro-batches x 1 x dp 8)")) << r.out;
}

TEST(GenerateLlmCli, BadInputIsReported) {
    Result r = cli({"model-info", "--preset", "gpt-3"});
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.err, "gpt3-175b")) << r.err;
    r = cli({"model-info", "--tp", "eight"});
    EXPECT_EQ(r.code, 2);
    r = cli({"model-info", "--tp", "7"});
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.err, "model.heads")) << r.err;
    r = cli({"generate-llm", "--schedule", "zigzag"});
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.err, "interleaved")) << r.err;
    // A rate out of the table's range, infinite or not a number, and an interleaving whose
    // chunks do not divide the layers.
    for (const char* value : {"inf", "nan", "1e300"}) {
        r = cli({"model-info", "--preset=gpt2-124m", std::string("--peak-tflops=") + value});
        EXPECT_NE(r.code, 0) << value;
        EXPECT_TRUE(contains(r.err, "--peak-tflops: expected a number from 0.1 to 1000000"))
            << r.err;
    }
    r = cli({"model-info", "--preset=gpt2-124m", "--schedule=interleaved", "--pp=2",
             "--virtual-stages=5"});
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.err, "splits the 12 layers into pp x virtual stages = 10")) << r.err;
    // With the embedding and the loss counted as layers (Megatron's account_for_* options) 126
    // layers split into 64 chunks of 2: NeMo's Llama 3.1 405B, t8 p8 v8.
    r = cli({"model-info", "--preset=llama3-405b", "--schedule=interleaved", "--tp=8", "--pp=8",
             "--virtual-stages=8", "--dp=2", "--global-batch=128", "--micro-batch=1"});
    EXPECT_EQ(r.code, 0) << r.err;
}

// Offload (ZeRO-Infinity): the figures list the offloaded states per tier; the traces written
// carry MEM_LOAD / MEM_STORE nodes that check as a valid workload; a tier that does not exist
// is a usage error naming the flag and the valid tiers.
TEST(GenerateLlmCli, OffloadFlags) {
    Result r = cli({"model-info", "--preset", "llama3.2-1b", "--offload-parameters", "nvme",
                    "--offload-optimizer=pool"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "offload               parameters nvme, gradients none, "
                                "optimizer pool, prefetch 1"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "offloaded per NPU")) << r.out;
    EXPECT_TRUE(contains(r.out, "to nvme")) << r.out;
    EXPECT_TRUE(contains(r.out, "offload traffic")) << r.out;
    EXPECT_FALSE(contains(cli({"model-info", "--preset", "llama3.2-1b"}).out, "offload"));

    // The optimizer step on the CPU: shown in the header; without offloaded optimizer states an
    // error naming offload.step.
    r = cli({"model-info", "--preset", "gpt2-350m", "--offload-optimizer=nvme",
             "--offload-step=cpu", "--offload-cpu-bandwidth=40"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "prefetch 1, step on the cpu at 40 GB/s")) << r.out;
    r = cli({"model-info", "--preset", "gpt2-350m", "--offload-step=cpu"});
    EXPECT_NE(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.err, "offload.step")) << r.err;

    const std::string prefix = (clitest::scratchDir("generate-llm-offload") / "gen").string();
    r = cli({"generate-llm", "--preset", "llama2-70b", "--layers", "4", "--tp", "2", "--pp", "2",
             "--dp", "2", "--micro-batches", "4", "--offload-parameters=nvme",
             "--offload-gradients=pool", "--offload-optimizer=nvme", "--offload-prefetch=2",
             "--out=" + prefix});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(cli({"trace", "check", prefix, "--npus", "8"}).code, 0);

    r = cli({"generate-llm", "--preset", "gpt2-124m", "--offload-parameters=disk"});
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_TRUE(contains(r.err, "--offload-parameters")) << r.err;
    EXPECT_TRUE(contains(r.err, "none, nvme or pool")) << r.err;
    EXPECT_TRUE(contains(r.err, "\"disk\"")) << r.err;
}

// --tensors: the header says so and the traces (with their tensor lists) check as a workload.
TEST(GenerateLlmCli, TensorsFlag) {
    const std::string prefix = (clitest::scratchDir("generate-llm-tensors") / "gen").string();
    const Result r = cli({"generate-llm", "--preset", "gpt2-350m", "--tensors", "--out=" + prefix});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "tensor lists          on")) << r.out;
    EXPECT_EQ(cli({"trace", "check", prefix, "--npus", "8"}).code, 0);
    EXPECT_FALSE(contains(cli({"model-info", "--preset", "gpt2-350m"}).out, "tensor lists"));
}

// A hidden size that does not split over the heads (1000 over 7) and a shape past any model
// trained (GPT-2 with a hidden size of 10^6: 48 T parameters) used to be accepted and printed.
TEST(GenerateLlmCli, ShapesNoModelCanHaveAreRefused) {
    Result r = cli({"model-info", "--preset", "gpt2-124m", "--hidden", "1000", "--heads", "7"});
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.err, "model.hidden")) << r.err;
    EXPECT_TRUE(contains(r.err, "1000 is not a multiple of 7")) << r.err;
    r = cli({"model-info", "--preset", "gpt2-124m", "--hidden", "1000000"});
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.err, "expected at most 10.00 T parameters, found 48.12 T")) << r.err;
    EXPECT_FALSE(contains(r.out, "parameters")) << r.out;
}

// GPT-2 124M on 1,048,576 NPUs ran past 60 s with no output (4,096 NPUs take 0.34 s): an
// iteration past the generator's node limit is refused once rank 0 is built, in about a second.
TEST(GenerateLlmCli, AnIterationTooLargeToGenerateIsRefusedUpFront) {
    const astrolabe::test::BoundedOutcome outcome = astrolabe::test::runBounded(
        [] {
            const Result r = cli({"generate-llm", "--preset", "gpt2-124m", "--npus", "1048576"});
            if (r.code != 1 || !contains(r.err, "trace nodes") ||
                !contains(r.err, "more than the limit of"))
                throw std::runtime_error("exit " + std::to_string(r.code) + ": " + r.err);
        },
        30, size_t{2} << 30);
    EXPECT_TRUE(outcome.ok) << outcome.message << " (" << outcome.seconds << " s)";
}

// A rank that cannot be written (here a folder stands at its file name) fails the command, and
// the ranks written before it are removed: a later run must not read a part of an iteration
// as the whole. The folder in the way is left alone. A prefix that names a folder is refused
// before anything is generated (it would write the hidden files ".0.et", ...).
TEST(GenerateLlmCli, AFailedRankLeavesNoPartOfTheIterationBehind) {
    const std::filesystem::path dir = clitest::scratchDir("gen-partial");
    std::filesystem::create_directories(dir / "gl.1.et");
    const std::string prefix = (dir / "gl").string();
    const Result r = cli({"generate-llm", "--preset=gpt2-124m", "--dp=4", "--out=" + prefix});
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("gl.1.et"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "gl.0.et")) << "rank 0 was left behind";
    EXPECT_FALSE(std::filesystem::exists(dir / "gl.comm_groups.json"));
    EXPECT_TRUE(std::filesystem::is_directory(dir / "gl.1.et")) << "not ours to remove";

    const Result folder =
        cli({"generate-llm", "--preset=gpt2-124m", "--dp=4", "--out=" + dir.string() + "/"});
    EXPECT_EQ(folder.code, 2) << folder.err;
    EXPECT_NE(folder.err.find("names a folder"), std::string::npos) << folder.err;
    EXPECT_FALSE(std::filesystem::exists(dir / ".0.et"));
    std::filesystem::remove_all(dir);
}

// docs/generator.md's context-parallel example runs as printed there (model-info in place of
// generate-llm, which would write 288 traces): it fits with ZeRO 2 and not with ZeRO 1.
TEST(GenerateLlmCli, TheContextParallelExampleOfTheDocsFitsWithZero2) {
    std::ifstream doc(std::string(ASTROLABE_SOURCE_DIR) + "/docs/generator.md");
    const std::string text((std::istreambuf_iterator<char>(doc)), {});
    const size_t at = text.find("astrolabe-cli generate-llm --preset llama3-405b");
    ASSERT_NE(at, std::string::npos);
    std::string command = text.substr(at, text.find("```", at) - at);
    for (char& c : command)
        if (c == '\\' || c == '\n')
            c = ' ';
    std::vector<std::string> args{"model-info"};
    std::istringstream words(command.substr(command.find("--preset")));
    for (std::string word; words >> word;)
        if (word != "--out" && word.rfind("runs/", 0) != 0)
            args.push_back(word);
    Result r = cli(args);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "NPUs                  288")) << r.out;
    EXPECT_TRUE(contains(r.out, "75.07 GiB (stage 0) of 79.65 GiB HBM")) << r.out;
    EXPECT_FALSE(contains(r.out + r.err, "out of memory"));
    for (size_t i = 1; i < args.size(); ++i)
        if (args[i - 1] == "--zero")
            args[i] = "1";
    r = cli(args);
    EXPECT_TRUE(contains(r.out, "83.23 GiB (stage 0)")) << r.out;
    EXPECT_TRUE(contains(r.out + r.err, "out of memory")) << r.out << r.err;
}
