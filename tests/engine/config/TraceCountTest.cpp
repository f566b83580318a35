// Before a run, the GUI says when a trace set does not fit the platform: these are the counts
// and messages it shows under the trace field.
#include "spec/SpecValidation.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace astrolabe {
namespace {

namespace fs = std::filesystem;

class TraceCount : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = fs::path(::testing::TempDir()) /
                ("trace-count-" +
                 std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    void write(const std::string& name) { std::ofstream(m_dir / name) << "x"; }
    void writeTraces(int from, int to) {
        for (int i = from; i < to; ++i)
            write("llm." + std::to_string(i) + ".et");
    }
    SimulationSpec spec(int npus) const {
        SimulationSpec s;
        s.platform.dimensions = {DimensionSpec{BlockKind::Ring, npus, 50e9, 500}};
        s.workload.kind = WorkloadSource::Kind::ChakraTrace;
        s.workload.tracePrefix = (m_dir / "llm").string();
        return s;
    }

    fs::path m_dir;
};

TEST_F(TraceCount, CountsOnlyFilesOfThePrefixWithANumber) {
    writeTraces(0, 4);
    write("llm.9.et");     // a gap after 3
    write("llm.x.et");     // not a number
    write("llm.5.et.bak"); // not .et
    write("other.0.et");   // another prefix
    write("llm.json");
    const TraceSetCount count = countTraceFiles((m_dir / "llm").string());
    EXPECT_EQ(count.files, 5);
    EXPECT_EQ(count.contiguous, 4);
}

TEST_F(TraceCount, AnExactSetIsQuiet) {
    writeTraces(0, 8);
    EXPECT_FALSE(traceCountProblem(spec(8)).any());
}

TEST_F(TraceCount, FewerTracesThanNpusBlockTheRunAndSayForHowManyTheSetWasMade) {
    writeTraces(0, 8);
    const TraceCountProblem p = traceCountProblem(spec(16));
    EXPECT_TRUE(p.blocking);
    EXPECT_EQ(p.message, "8 traces for a platform of 16 NPUs: the set was made for 8 NPUs");
}

TEST_F(TraceCount, AGapNamesTheFirstMissingTrace) {
    writeTraces(0, 3);
    writeTraces(4, 8);
    const TraceCountProblem p = traceCountProblem(spec(8));
    EXPECT_TRUE(p.blocking);
    EXPECT_EQ(p.message, "7 traces for a platform of 8 NPUs: NPU 3's trace (llm.3.et) is missing");
}

TEST_F(TraceCount, MoreTracesThanNpusAreFlaggedWithoutBlocking) {
    writeTraces(0, 32);
    const TraceCountProblem p = traceCountProblem(spec(16));
    EXPECT_FALSE(p.blocking);
    EXPECT_EQ(p.message, "32 traces for a platform of 16 NPUs: only NPUs 0-15's are read; the set "
                         "was probably made for a larger platform");
}

TEST_F(TraceCount, NoTracesOrNoDirectory) {
    EXPECT_EQ(traceCountProblem(spec(4)).message,
              "no traces llm.<npu>.et found; the platform's 4 NPUs need one each");
    SimulationSpec nowhere = spec(4);
    nowhere.workload.tracePrefix = (m_dir / "missing-dir" / "llm").string();
    EXPECT_TRUE(traceCountProblem(nowhere).blocking);
}

TEST_F(TraceCount, MicrobenchmarksHaveNoTraces) {
    SimulationSpec micro = spec(4);
    micro.workload.kind = WorkloadSource::Kind::Microbenchmark;
    EXPECT_FALSE(traceCountProblem(micro).any());
}

} // namespace
} // namespace astrolabe
