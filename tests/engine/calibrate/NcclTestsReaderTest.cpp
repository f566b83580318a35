// The nccl-tests reader on the bundled public outputs (tests/data/nccl-tests, PROVENANCE.md) and
// on the layouts other versions print. Expected values are read off the files by eye: the
// first and last rows, the rank and host counts of the "Using devices" block.
#include "TestPaths.h"
#include "calibrate/NcclTests.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace astrolabe;

namespace {

std::string data(const std::string& name) {
    return ASTROLABE_TEST_DATA_DIR + "/nccl-tests/" + name;
}

} // namespace

TEST(NcclTestsReader, SingleNodeA100FromTheFileName) {
    const NcclRun run = readNcclTests(data("a100-oci-1node-all_reduce.txt"));
    EXPECT_EQ(run.collective, NcclCollective::AllReduce);
    EXPECT_EQ(run.ranks, 8);
    EXPECT_EQ(run.nodes, 1);
    ASSERT_EQ(run.rows.size(), 28u); // 64 B to 8 GiB, doubling
    EXPECT_EQ(run.rows.front().sizeBytes, 64u);
    EXPECT_EQ(run.rows.front().count, 16u);
    EXPECT_EQ(run.rows.front().type, "float");
    EXPECT_DOUBLE_EQ(run.rows.front().outOfPlaceUs, 32.01);
    EXPECT_DOUBLE_EQ(run.rows.front().inPlaceUs, 31.82);
    EXPECT_EQ(run.rows.back().sizeBytes, 8589934592u);
    EXPECT_DOUBLE_EQ(run.rows.back().outOfPlaceBusGBps, 235.14);
    EXPECT_DOUBLE_EQ(run.rows.back().inPlaceUs, 63911);
    EXPECT_EQ(run.rows.front().line, 16);
    EXPECT_EQ(run.device, "NVIDIA A100-SXM4-40GB");
}

TEST(NcclTestsReader, MultiNodeH100WithHeaderHashesLost) {
    // The first rank line and the nThread line lost their '#' on the way through markdown.
    const NcclRun run = readNcclTests(data("h100-a3mega-2node-all_reduce.txt"));
    EXPECT_EQ(run.ranks, 16);
    EXPECT_EQ(run.nodes, 2);
    ASSERT_EQ(run.rows.size(), 31u); // 8 B to 8 GiB
    EXPECT_DOUBLE_EQ(run.rows[0].outOfPlaceUs, 135.8);
    EXPECT_DOUBLE_EQ(run.rows[30].outOfPlaceUs, 47535);
}

TEST(NcclTestsReader, RcclTestsWithoutGroupColumnAndVersionLines) {
    const NcclRun run = readNcclTests(data("mi300x-aac-2node-all_reduce.txt"));
    EXPECT_EQ(run.ranks, 16);
    EXPECT_EQ(run.nodes, 2);
    EXPECT_EQ(run.version, "RCCL version : 2.22.3-HEAD:7d8d67c");
    EXPECT_EQ(run.device, "AMD Instinct MI300X"); // after "[0000:05:00.0]", without a group
    ASSERT_EQ(run.rows.size(), 32u);              // 8 B to 16 GiB
    EXPECT_EQ(run.rows.back().sizeBytes, 17179869184u);
    const NcclRun one = readNcclTests(data("mi300x-aac-1node-all_reduce.txt"));
    EXPECT_EQ(one.ranks, 8);
    EXPECT_EQ(one.nodes, 1);
}

TEST(NcclTestsReader, OldTableWithoutRootColumnAndMpirunTags) {
    // nccl-tests before 2.10 had no root column; mpirun --tag-output prefixes every line.
    const std::string text =
        "[1,0]<stdout>:# nThread 1 nGpus 1 minBytes 8 maxBytes 64 step: 2(factor)\n"
        "[1,0]<stdout>:#   Rank  0 Pid 190712 on    blg9401 device  0 [0x1a] Tesla V100\n"
        "[1,0]<stdout>:#   Rank  1 Pid 190713 on    blg9401 device  1 [0x1c] Tesla V100\n"
        "[1,0]<stdout>:#       size         count    type   redop     time   algbw   busbw  "
        "error     time   algbw   busbw  error\n"
        "[1,0]<stdout>:           8             2   float     sum    11.50    0.00    0.00  "
        "0e+00    11.20    0.00    0.00  0e+00\n"
        "[1,0]<stdout>:          64            16   float     sum    12.00    0.01    0.01  "
        "0e+00    11.90    0.01    0.01  0e+00\n"
        "[1,0]<stdout>:# Avg bus bandwidth    : 0.004\n";
    const NcclRun run = parseNcclTests(text, "old.log", NcclCollective::AllReduce);
    EXPECT_EQ(run.ranks, 2);
    ASSERT_EQ(run.rows.size(), 2u);
    EXPECT_DOUBLE_EQ(run.rows[1].outOfPlaceUs, 12.0);
    EXPECT_DOUBLE_EQ(run.rows[1].inPlaceUs, 11.9);
}

TEST(NcclTestsReader, CollectiveFromTheOutputItselfAndSendRecvNA) {
    // sendrecv prints N/A in the in-place #wrong column; the program is named in the output.
    const std::string text = "# Collective test starting: sendrecv_perf\n"
                             "#  Rank  0 Group  0 Pid 1 on a device  0 [0x0f] GPU\n"
                             "#  Rank  1 Group  0 Pid 2 on b device  0 [0x0f] GPU\n"
                             "#       size         count      type   redop    root     time   "
                             "algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                             "   134217728      33554432     float     sum      -1   1211.2  "
                             "110.81  110.81      0   1211.8  110.76  110.76    N/A\n";
    const NcclRun run = parseNcclTests(text, "run.log");
    EXPECT_EQ(run.collective, NcclCollective::SendRecv);
    EXPECT_EQ(run.nodes, 2);
    EXPECT_DOUBLE_EQ(run.rows[0].inPlaceUs, 1211.8);
}

TEST(NcclTestsReader, CsvWithMetadataLinesAndOnlyOutOfPlace) {
    const std::string text = "# collective: reduce_scatter\n# ranks: 4\n# nodes: 1\n"
                             "Size,Time,busbw\n1048576,20.5,38.37\n2097152,33.0,47.66\n";
    const NcclRun run = parseNcclTests(text, "rs.csv");
    EXPECT_EQ(run.collective, NcclCollective::ReduceScatter);
    EXPECT_EQ(run.ranks, 4);
    ASSERT_EQ(run.rows.size(), 2u);
    EXPECT_DOUBLE_EQ(run.rows[1].outOfPlaceUs, 33.0);
    EXPECT_TRUE(std::isnan(run.rows[1].inPlaceUs));
    EXPECT_EQ(run.rows[1].line, 6);
}

TEST(NcclTestsReader, CsvWithCollectiveAndRanksColumns) {
    const std::string text = "collective,ranks,size,time,time_ip\n"
                             "all_gather,8,1024,10.0,9.5\nall_gather,8,2048,11.0,10.5\n";
    const NcclRun run = parseNcclTests(text, "ag.txt");
    EXPECT_EQ(run.collective, NcclCollective::AllGather);
    EXPECT_EQ(run.ranks, 8);
    EXPECT_DOUBLE_EQ(run.rows[0].inPlaceUs, 9.5);
}

TEST(NcclTestsReader, WrittenTextReadsBack) {
    NcclRun run;
    run.file = "sim.txt";
    run.collective = NcclCollective::AllGather;
    run.ranks = 4;
    run.rows.push_back({4096, 1024, "float", 12.345, 0.33, 0.25, 12.345, 0.33, 0.25, 0});
    run.rows.push_back({8192, 2048, "float", 20.125, 0.41, 0.31, 20.125, 0.41, 0.31, 0});
    const NcclRun back = parseNcclTests(ncclTestsText(run), "sim.txt");
    EXPECT_EQ(back.collective, NcclCollective::AllGather);
    EXPECT_EQ(back.ranks, 4);
    ASSERT_EQ(back.rows.size(), 2u);
    EXPECT_DOUBLE_EQ(back.rows[0].outOfPlaceUs, 12.345);
    EXPECT_DOUBLE_EQ(back.rows[1].inPlaceUs, 20.125);
}

TEST(NcclTestsReader, NamesInEveryCommonSpelling) {
    EXPECT_EQ(ncclCollectiveFromName("all_reduce_perf"), NcclCollective::AllReduce);
    EXPECT_EQ(ncclCollectiveFromName("AllGather"), NcclCollective::AllGather);
    EXPECT_EQ(ncclCollectiveFromName("reduce-scatter"), NcclCollective::ReduceScatter);
    EXPECT_EQ(ncclCollectiveFromName("alltoall_perf_mpi"), NcclCollective::AllToAll);
    EXPECT_EQ(ncclCollectiveFromName("sendrecv"), NcclCollective::SendRecv);
    EXPECT_FALSE(ncclCollectiveFromName("broadcast_perf"));
    // nccl-tests' bus factors (doc/PERFORMANCE.md) for 8 ranks.
    EXPECT_DOUBLE_EQ(ncclBusFactor(NcclCollective::AllReduce, 8), 1.75);
    EXPECT_DOUBLE_EQ(ncclBusFactor(NcclCollective::AllGather, 8), 0.875);
    EXPECT_DOUBLE_EQ(ncclBusFactor(NcclCollective::SendRecv, 8), 1.0);
}
