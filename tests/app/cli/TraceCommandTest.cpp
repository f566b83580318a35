// astrolabe-cli trace check / repair on the Chakra project's test trace
// (../shared/reference/real-traces; counts from a separate decoder, see
// tests/engine/trace/RealTraceTest.cpp).
#include "CliRunner.h"
#include "TestPaths.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

using namespace clitest;
namespace fs = std::filesystem;

namespace {

const fs::path kTrace =
    fs::path(ASTROLABE_SHARED_DIR) / "reference" / "real-traces" / "chakra.0.et";

fs::path duplicated(const std::string& name, int npus) {
    const fs::path dir = scratchDir(name);
    for (int r = 0; r < npus; ++r)
        fs::copy_file(kTrace, dir / ("w." + std::to_string(r) + ".et"),
                      fs::copy_options::overwrite_existing);
    return dir;
}

} // namespace

TEST(TraceCommand, CheckListsTheAssumptionsByKindWithCounts) {
    if (!fs::exists(kTrace))
        GTEST_SKIP() << "no " << kTrace;
    const fs::path dir = duplicated("trace-check", 2);
    const Result r = cli({"trace", "check", (dir / "w").string(), "--npus=2"});
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* line :
         {"2 traces, 7328 nodes, valid with the assumptions below",
          "  assumed absent-parent: 2554 dependencies on nodes absent from the file, counted as "
          "met (420 absent ids, counted per trace; first at node ",
          "  assumed self-dependency: 766 nodes listed as their own parent",
          "  assumed cycle-broken: 1108 dependencies on a later node (larger id) that closed a "
          "cycle, dropped",
          "  assumed host-collective: 28 CPU-side collective calls (is_cpu_op)",
          "recorded start_ts .. finish_ts of ", ": 216405745 .. 216433101 (difference 27356"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;

    const Result strict = cli({"trace", "check", (dir / "w").string(), "--npus=2", "--strict"});
    EXPECT_EQ(strict.code, 1);
    EXPECT_NE(strict.err.find("depends on node 3, which is not in this file"), std::string::npos)
        << strict.err;
    fs::remove_all(dir);
}

TEST(TraceCommand, CheckOnOneNpuReplaysTheCollectives) {
    if (!fs::exists(kTrace))
        GTEST_SKIP() << "no " << kTrace;
    const fs::path dir = duplicated("trace-check-1", 1);
    const Result r = cli({"trace", "check", (dir / "w").string(), "--npus=1"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("assumed single-npu-collective: 5 collectives on a 1-NPU platform"),
              std::string::npos)
        << r.out;
    fs::remove_all(dir);
}

TEST(TraceCommand, RepairWritesATraceTheStrictCheckAccepts) {
    if (!fs::exists(kTrace))
        GTEST_SKIP() << "no " << kTrace;
    const fs::path dir = scratchDir("trace-repair");
    const Result r = cli({"trace", "repair", kTrace.string(), (dir / "w.0.et").string()});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("3664 nodes, repaired by the rules below"), std::string::npos) << r.out;
    fs::copy_file(dir / "w.0.et", dir / "w.1.et", fs::copy_options::overwrite_existing);
    const Result strict = cli({"trace", "check", (dir / "w").string(), "--npus=2", "--strict"});
    EXPECT_EQ(strict.code, 0) << strict.err;
    EXPECT_NE(strict.out.find("2 traces, 7328 nodes, valid (loaded"), std::string::npos)
        << strict.out;
    fs::remove_all(dir);
}

TEST(TraceCommand, RepairNeedsItsOutputAndOtherActionsRefuseOne) {
    Result r = cli({"trace", "repair", "/nonexistent/in.et"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("trace repair: missing <OUT>"), std::string::npos) << r.err;
    r = cli({"trace", "dump", "/nonexistent/in.et", "extra"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("trace dump: unexpected argument \"extra\""), std::string::npos) << r.err;
}

// import pytorch on DeepSeek's training profile (tests/data; figures summed from the file by a
// separate script): every kernel name listed with its class, the traces written and accepted
// by the strict check.
TEST(TraceCommand, ImportPytorchListsEveryKernelAndWritesStrictTraces) {
    const fs::path dir = scratchDir("import") / "new-folder";
    const std::string profile = ASTROLABE_TEST_DATA_DIR + "/deepseek-v3-train-gpu0.json";
    const Result r =
        cli({"import", "pytorch", profile, "--out", (dir / "ds").string(), "--npus=2"});
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* line :
         {"983 GPU activities on 1 GPU (rank 0 of 64)", "measured span of GPU 0: 129012 us",
          "    expert-all-to-all: 16, 80452 us, 32.96%",
          "      8 x void dpsk::ep::internode::combine: 49448 us, 20.26%",
          "    expert-control: 16, 32578 us, 13.35%", "    copy: 20, 28 us, 0.01%",
          "    compute: 931, 131011 us, 53.68%",
          "      152 x void cutlass::device_kernel: 91537 us, 37.50%",
          "      8 x void (anonymous namespace)::elementwise_kernel_with_index: 18 us, 0.01%",
          "assumed: 32 communication kernels without a size",
          "115 dependencies on another stream's activity that ended before (as measured); 983 "
          "host nodes replay the launch timeline"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
    const Result strict = cli({"trace", "check", (dir / "ds").string(), "--npus=2", "--strict"});
    EXPECT_EQ(strict.code, 0) << strict.err;
    // 983 GPU activities and 983 launch nodes per trace.
    EXPECT_NE(strict.out.find("2 traces, 3932 nodes, valid (loaded"), std::string::npos)
        << strict.out;
    fs::remove_all(dir.parent_path());

    // --moe-shape: four whole numbers, each named when wrong.
    const Result three = cli({"import", "pytorch", profile, "--out", (dir / "ds").string(),
                              "--moe-shape", "4096,7168,8"});
    EXPECT_EQ(three.code, 2);
    EXPECT_NE(three.err.find("--moe-shape takes four numbers, tokens,hidden,top-k,experts (e.g. "
                             "4096,7168,8,256); found 3"),
              std::string::npos)
        << three.err;
    const Result zero = cli({"import", "pytorch", profile, "--out", (dir / "ds").string(),
                             "--moe-shape", "4096,0,8,256"});
    EXPECT_EQ(zero.code, 2);
    EXPECT_NE(zero.err.find("moe-shape"), std::string::npos) << zero.err;

    const Result bad = cli({"import", "chrome", profile, "--out", "x"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("import: unknown format \"chrome\"; expected pytorch"),
              std::string::npos)
        << bad.err;
}

// A communication kernel whose dtype has no known element size runs with size 0; the report
// names the dtype, a near spelling and the known ones, not just "without a size".
TEST(TraceCommand, ImportPytorchNamesADtypeItCannotSize) {
    const fs::path dir = scratchDir("import-dtype");
    const fs::path trace = dir / "t.json";
    {
        std::ofstream out(trace);
        out << R"({"traceEvents": [{"ph": "X", "cat": "kernel", "pid": 0, "tid": 7, "ts": 0,
            "dur": 5, "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
            "args": {"In msg nelems": 256, "dtype": "Flaot"}}]})";
    }
    const Result r = cli({"import", "pytorch", trace.string(), "--out", (dir / "t").string()});
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* line :
         {"assumed: 1 communication kernel without a size in the trace run with size 0",
          "    1 of them gives dtype \"Flaot\", whose element size is not known (did you mean "
          "\"Float\"?)",
          "    known dtypes: Bool, Byte, Char,"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
}

// import pytorch --et --kineto on the public simple-add pair (tests/data): 36 of its 38 nodes
// are in the profiler trace, its 4 kernels follow the operators that launched them, and the
// written trace passes the strict check. A lone execution trace is still refused, with the
// hint to give its profiler trace.
TEST(TraceCommand, ImportPytorchLinksAnExecutionTraceWithItsProfilerTrace) {
    const fs::path dir = scratchDir("import-linked");
    const std::string et = ASTROLABE_TEST_DATA_DIR + "/pytorch-simple-add-et.json";
    const std::string profile = ASTROLABE_TEST_DATA_DIR + "/pytorch-simple-add-kineto.json";
    const Result r = cli(
        {"import", "pytorch", "--et", et, "--kineto", profile, "--out", (dir / "add").string()});
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* line :
         {"(schema 1.0.1, 38 nodes) + ",
          "36 operators linked by External id (the trace has no Record function id), 2 nodes of "
          "the execution trace not in the profiler trace (left out)",
          "4 GPU activities: 4 after the operator that launched them, 0 launched outside",
          "host time 19814157 us, each operator's own time", "wrote "})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
    const Result strict = cli({"trace", "check", (dir / "add").string(), "--npus=1", "--strict"});
    EXPECT_EQ(strict.code, 0) << strict.err;
    EXPECT_NE(strict.out.find("1 trace, 40 nodes, valid"), std::string::npos) << strict.out;

    const Result alone = cli({"import", "pytorch", et, "--out", (dir / "x").string()});
    EXPECT_NE(alone.code, 0);
    EXPECT_NE(alone.err.find("reads only together with its profiler trace (hint: give its Kineto "
                             "trace too (astrolabe-cli import pytorch --et ET.json --kineto"),
              std::string::npos)
        << alone.err;
    const Result half = cli({"import", "pytorch", "--et", et, "--out", (dir / "x").string()});
    EXPECT_EQ(half.code, 2);
    EXPECT_NE(half.err.find("--et ET.json and --kineto TRACE.json go together"), std::string::npos)
        << half.err;
    fs::remove_all(dir);
}
