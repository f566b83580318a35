// Bad and partial nccl-tests files: each must end in an astrolabe::Error naming the file and the
// line (where there is one), what was expected and what was found.
#include "calibrate/NcclTests.h"
#include "core/Error.h"

#include <gtest/gtest.h>

using namespace astrolabe;

namespace {

const std::string kHeader = "#  Rank  0 Group  0 Pid 1 on node1 device  0 [0x0f] GPU\n"
                            "#  Rank  1 Group  0 Pid 2 on node1 device  1 [0x15] GPU\n"
                            "#       size         count      type   redop    root     time   "
                            "algbw   busbw #wrong     time   algbw   busbw #wrong\n";
const std::string kRow = "        1024           256     float     sum      -1    10.00    0.10"
                         "    0.10      0    10.00    0.10    0.10      0\n";

/// The message of the error parsing `text` throws; fails the test when it does not throw.
std::string errorOf(const std::string& text, const std::string& file = "bad.txt",
                    std::optional<NcclCollective> c = NcclCollective::AllReduce) {
    try {
        parseNcclTests(text, file, c);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Input) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no error for:\n" << text;
    return {};
}

} // namespace

TEST(NcclTestsBadInput, RowCutShortNamesItsLineAndTheHeaderLine) {
    const std::string message =
        errorOf(kHeader + kRow + "        2048           512     float     sum      -1    11.0\n");
    EXPECT_NE(message.find("bad.txt:5:"), std::string::npos) << message;
    EXPECT_NE(message.find("expected 13 fields, as in the column header on line 3, found 6"),
              std::string::npos)
        << message;
}

TEST(NcclTestsBadInput, TimeThatIsNotANumber) {
    std::string row = kRow;
    row.replace(row.find("10.00"), 5, "1o.00");
    const std::string message = errorOf(kHeader + row);
    EXPECT_NE(message.find("bad.txt:4: time (out-of-place, us): expected a number >= 0, found "
                           "\"1o.00\""),
              std::string::npos)
        << message;
}

TEST(NcclTestsBadInput, NegativeOrInfiniteBandwidth) {
    std::string row = kRow;
    row.replace(row.find("0.10"), 4, "-0.1");
    EXPECT_NE(errorOf(kHeader + row).find("algbw (out-of-place): expected a number >= 0"),
              std::string::npos);
    row = kRow;
    row.replace(row.rfind("10.00"), 5, "inf");
    EXPECT_NE(errorOf(kHeader + row).find("time (in-place, us)"), std::string::npos);
}

TEST(NcclTestsBadInput, SizeTooLargeForBytes) {
    std::string row = kRow;
    row.replace(row.find("1024"), 4, "99999999999999999999999");
    EXPECT_NE(errorOf(kHeader + row).find("size: expected a whole number of bytes"),
              std::string::npos);
}

TEST(NcclTestsBadInput, NoTableAtAll) {
    EXPECT_NE(errorOf("NCCL WARN something failed\n").find("no column header line"),
              std::string::npos);
    EXPECT_NE(errorOf("").find("bad.txt: no column header line"), std::string::npos);
}

TEST(NcclTestsBadInput, HeaderWithoutRowsNamesTheHeaderLine) {
    EXPECT_NE(errorOf(kHeader + "# Out of bounds values : 0 OK\n")
                  .find("bad.txt:3: the column header is followed by no table rows"),
              std::string::npos);
}

TEST(NcclTestsBadInput, NoRankLines) {
    const std::string text = kHeader.substr(kHeader.find("#       size")) + kRow;
    EXPECT_NE(errorOf(text).find("the GPU count is unknown"), std::string::npos);
}

TEST(NcclTestsBadInput, SecondTableAndRowsAfterTheEnd) {
    EXPECT_NE(errorOf(kHeader + kRow + "# Avg bus bandwidth : 0.1\n" + kHeader + kRow)
                  .find("bad.txt:8: a second results table"),
              std::string::npos);
    EXPECT_NE(errorOf(kHeader + kRow + "# Out of bounds values : 0 OK\n" + kRow)
                  .find("bad.txt:6: a table row after the table ended on line 4"),
              std::string::npos);
}

TEST(NcclTestsBadInput, UnknownProgram) {
    const std::string message = errorOf(kHeader + kRow, "results.txt", std::nullopt);
    EXPECT_NE(message.find("cannot tell which test program wrote this file"), std::string::npos);
    EXPECT_NE(message.find("--collective"), std::string::npos);
}

TEST(NcclTestsBadInput, BusFactorContradictsTheCollective) {
    // 2 ranks: all_reduce's factor is 1, all_gather's 0.5; this row shows 1.
    const std::string row = "    16777216       4194304     float     sum      -1    100.0  167.77"
                            "  167.77      0    100.0  167.77  167.77      0\n";
    const std::string message = errorOf(kHeader + row, "ag.txt", NcclCollective::AllGather);
    EXPECT_NE(message.find("ag.txt:4: busbw / algbw is 1.0"), std::string::npos) << message;
    EXPECT_NE(message.find("all_gather over 2 ranks has a bus factor of 0.5"), std::string::npos);
}

TEST(NcclTestsBadInput, ProgramNamedInTheFileDisagreesWithTheOption) {
    EXPECT_NE(errorOf("# Collective test starting: all_gather_perf\n" + kHeader + kRow)
                  .find("says it is all_gather_perf output, not all_reduce"),
              std::string::npos);
}

TEST(NcclTestsBadInput, CsvProblemsNameLineAndColumn) {
    EXPECT_NE(errorOf("# ranks: 8\nsize,tme\n1,2\n", "a.csv")
                  .find("a.csv:2: unknown column \"tme\" (hint: did you mean \"time\"?)"),
              std::string::npos);
    EXPECT_NE(errorOf("# ranks: 8\nsize,time\n1,2\n3\n", "a.csv")
                  .find("a.csv:4: expected 2 fields, as in the header on line 2, found 1"),
              std::string::npos);
    EXPECT_NE(errorOf("size,time\n1,2\n", "a.csv").find("the GPU count is missing"),
              std::string::npos);
    EXPECT_NE(errorOf("# ranks: 0\nsize,time\n1,2\n", "a.csv")
                  .find("a.csv:1: ranks: expected a whole number from 1 to 1048576, found \"0\""),
              std::string::npos);
    EXPECT_NE(errorOf("# ranks: 8\nsize,time\n1,fast\n", "a.csv")
                  .find("a.csv:3: time: expected a number >= 0, found \"fast\""),
              std::string::npos);
    EXPECT_NE(errorOf("collective,ranks,size,time\nall_reduce,8,1,2\nall_gather,8,2,3\n", "a.csv",
                      std::nullopt)
                  .find("a.csv:3: collective: all_gather differs from line 2"),
              std::string::npos);
}

// Tables that contradict themselves are refused before any fit: a time column that does not
// give the printed algbw (here scaled by 1e6), a row whose results the test found wrong, a
// negative size, and a gap in the rank lines.
TEST(NcclTestsBadInput, RowsThatContradictThemselvesAreRefused) {
    std::string row = kRow;
    row.replace(row.find("10.00"), 5, "10000000.00");
    const std::string scaled = errorOf(kHeader + row);
    EXPECT_NE(scaled.find("bad.txt:4: algbw is 0.1 GB/s, but size / time is"), std::string::npos)
        << scaled;
    EXPECT_NE(scaled.find("the time and bandwidth columns disagree"), std::string::npos);

    row = kRow;
    row.replace(row.find("      0 "), 8, "      5 ");
    const std::string wrong = errorOf(kHeader + row);
    EXPECT_NE(wrong.find("bad.txt:4: the test found 5 wrong results at this size"),
              std::string::npos)
        << wrong;

    const std::string negative = errorOf(kHeader + kRow +
                                         "          -8            -2     float     sum      -1"
                                         "    10.00    0.00    0.00      0    10.00    0.00    0.00"
                                         "      0\n");
    EXPECT_NE(negative.find("bad.txt:5: size: expected a whole number of bytes, found \"-8\""),
              std::string::npos)
        << negative;

    const std::string gap = errorOf("#  Rank  0 Group  0 Pid 1 on node1 device  0 [0x0f] GPU\n"
                                    "#  Rank  3 Group  0 Pid 2 on node1 device  1 [0x15] GPU\n" +
                                    kHeader.substr(kHeader.find("#       size")) + kRow);
    EXPECT_NE(gap.find("bad.txt:1: the rank lines go up to rank 3 but ranks 1, 2 have no line"),
              std::string::npos)
        << gap;
}

// A run's shape that no machine has: one GPU (nothing crosses a link; the fit used to fail with
// "no fit with latency and bandwidth >= 0 exists"), more nodes than ranks, and a time of 1e308
// us (the message used to print all 309 digits of it).
TEST(NcclTestsBadInput, ARunNoMachineMakesIsRefused) {
    const std::string one = errorOf("#  Rank  0 Group  0 Pid 1 on node1 device  0 [0x0f] GPU\n" +
                                    kHeader.substr(kHeader.find("#       size")) + kRow);
    EXPECT_NE(one.find("bad.txt:1: a run over 1 GPU: it moves no data between GPUs"),
              std::string::npos)
        << one;
    EXPECT_NE(errorOf("# ranks: 1\nsize,time\n1,2\n", "a.csv").find("a.csv:1: a run over 1 GPU"),
              std::string::npos);
    const std::string nodes = errorOf("# ranks: 8\n# nodes: 16\nsize,time\n1,2\n", "a.csv");
    EXPECT_NE(nodes.find("a.csv:2: nodes: 16 is more than the 8 ranks (line 1): every node holds "
                         "at least one rank"),
              std::string::npos)
        << nodes;
    std::string row = kRow;
    row.replace(row.find("10.00"), 5, "1e308");
    const std::string huge = errorOf(kHeader + row);
    EXPECT_NE(huge.find("bad.txt:4: a time of 1e+308 us is longer than a day"), std::string::npos)
        << huge;
    EXPECT_LT(huge.size(), 300u) << huge;
}

TEST(NcclTestsBadInput, AByteOrderMarkIsNotAColumnName) {
    const NcclRun run = parseNcclTests("\xEF\xBB\xBF# collective: all_reduce\n# ranks: 2\n"
                                       "size,time,algbw\n1024,10.0,0.10\n2048,11.0,0.19\n",
                                       "bom.csv", std::nullopt);
    EXPECT_EQ(run.rows.size(), 2u);
    EXPECT_EQ(run.ranks, 2);
}
