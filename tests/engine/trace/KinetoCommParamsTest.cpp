// Communication sizes of a profiler trace from the host side (record_param_comms), on small
// hand-written traces. Sizes are In msg nelems x the dtype's element size, the ASTRA-sim
// convention for comm_size (an all-gather's size is one rank's input).
#include "TestPaths.h"
#include "core/Error.h"
#include "trace/kineto/CommParams.h"
#include "trace/kineto/KinetoImport.h"

#include <gtest/gtest.h>
#include <map>

using namespace astrolabe;
using namespace astrolabe::kineto;

namespace {

std::string trace(const std::vector<std::string>& list) {
    std::string out = R"({"traceEvents": [)";
    for (size_t i = 0; i < list.size(); ++i)
        out += (i ? ",\n" : "") + list[i];
    return out + "]}";
}

// record_param_comms on host thread 5 from ts to ts + dur.
std::string paramComms(double ts, double dur, const std::string& args) {
    return R"({"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 5, "ts": )" +
           std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + R"(, "args": {)" + args +
           "}}";
}

std::string launch(double ts, int correlation, int tid = 5) {
    return R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": )" +
           std::to_string(tid) + R"(, "ts": )" + std::to_string(ts) +
           R"(, "dur": 2, "args": {"correlation": )" + std::to_string(correlation) + "}}";
}

std::string ncclKernel(const std::string& name, double ts, int correlation,
                       const std::string& extra = "") {
    return R"({"ph": "X", "cat": "kernel", "name": ")" + name +
           R"(", "pid": 0, "tid": 20, "ts": )" + std::to_string(ts) +
           R"(, "dur": 40, "args": {"correlation": )" + std::to_string(correlation) + extra + "}}";
}

} // namespace

TEST(KinetoCommParams, DtypeSizes) {
    EXPECT_EQ(dtypeBytes("Float"), 4u);
    EXPECT_EQ(dtypeBytes("BFloat16"), 2u);
    EXPECT_EQ(dtypeBytes("Long"), 8u);
    EXPECT_EQ(dtypeBytes("Float8_e4m3fn"), 1u);
    EXPECT_EQ(dtypeBytes("Quaternion"), 0u) << "not a PyTorch dtype";
}

TEST(KinetoCommParams, SizesComeFromTheRecordParamCommsAroundTheLaunch) {
    // An all-gather of 1,000 bf16 per rank (2,000 bytes), launched inside its
    // record_param_comms; an all-reduce of 256 floats found by External id; an all-reduce with
    // nothing on the host side.
    const KinetoTrace t = parseKinetoTrace(
        trace({paramComms(100, 30, R"("Collective name": "_allgather_base", "In msg nelems": 1000,
                   "Out msg nelems": 8000, "dtype": "BFloat16", "Group size": 8,
                   "Process Group Name": "0", "External id": 70)"),
               launch(110, 501),
               ncclKernel("ncclDevKernel_AllGather_RING_LL(ncclDevComm*)", 200, 501),
               paramComms(300, 10, R"("Collective name": "allreduce", "In msg nelems": 256,
                   "Out msg nelems": 256, "dtype": "Float", "Process Group Name": "3",
                   "External id": 71)"),
               ncclKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 400, 502,
                          R"(, "External id": 71)"),
               ncclKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 500, 503)}),
        "c.json");
    const auto params = commParamsOf(t);
    ASSERT_EQ(params.size(), 3u);
    ASSERT_TRUE(params[0].has_value());
    EXPECT_EQ(params[0]->collective, CollectiveType::AllGather);
    EXPECT_EQ(params[0]->bytes, 2000u) << "1,000 x 2 bytes: one rank's input";
    EXPECT_EQ(params[0]->groupSize, 8);
    EXPECT_STREQ(params[0]->source, "record_param_comms around the launch");
    ASSERT_TRUE(params[1].has_value());
    EXPECT_EQ(params[1]->bytes, 1024u);
    EXPECT_STREQ(params[1]->source, "record_param_comms by External id");
    EXPECT_FALSE(params[2].has_value()) << "no launch call with correlation 503";

    const KinetoImport imported = importKineto(t);
    const auto& nodes = imported.traces[0].nodes;
    // The launch call (correlation 501) becomes a host node before its kernel.
    ASSERT_EQ(nodes.size(), 4u);
    EXPECT_TRUE(nodes[0].isCpuOp);
    EXPECT_EQ(nodes[1].dataDeps, std::vector<uint64_t>{0}) << "the kernel after its launch";
    EXPECT_EQ(nodes[1].commType, CollectiveType::AllGather);
    EXPECT_EQ(nodes[1].commSize, 2000u);
    EXPECT_EQ(nodes[2].commSize, 1024u);
    EXPECT_EQ(nodes[3].commSize, 0u);
    EXPECT_EQ(imported.comm.sizeFromHost, 2u);
    EXPECT_EQ(imported.comm.sizeUnknown, 1u);
    EXPECT_EQ(imported.comm.otherGroup, 1u) << "process group \"3\"";
}

TEST(KinetoCommParams, KernelArgsAndTheHostsKindWin) {
    // Newer PyTorch writes the args on the kernel; the host's kind replaces the kernel's where
    // the kernel's name only says send / recv.
    const KinetoTrace t = parseKinetoTrace(
        trace({ncclKernel("ncclDevKernel_SendRecv(ncclDevComm*)", 10, 9,
                          R"(, "Collective name": "all_to_allv", "In msg nelems": 64,
                              "dtype": "Long")"),
               ncclKernel("ncclDevKernel_Broadcast_RING_LL", 100, 10,
                          R"(, "Collective name": "broadcast", "In msg nelems": 5,
                              "dtype": "Complex42")")}),
        "c.json");
    const KinetoImport imported = importKineto(t);
    const auto& nodes = imported.traces[0].nodes;
    EXPECT_EQ(nodes[0].commType, CollectiveType::AllToAll);
    EXPECT_EQ(nodes[0].commSize, 512u);
    EXPECT_EQ(nodes[1].commType, CollectiveType::Broadcast);
    EXPECT_EQ(nodes[1].commSize, 0u) << "an unknown dtype leaves the size unknown";
    EXPECT_EQ(imported.comm.sizeUnknown, 1u);
}

TEST(KinetoCommParams, AReusedCorrelationIsRefusedNamingBothEvents) {
    try {
        parseKinetoTrace(trace({launch(1, 7), launch(5, 7), ncclKernel("k", 10, 7)}), "c.json");
        FAIL() << "expected a refusal";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("c.json: traceEvents[1] (\"cudaLaunchKernel\"): "
                                             "correlation 7 is used twice: here and at "
                                             "traceEvents[0]"),
                  std::string::npos)
            << e.what();
    }
}

// A real trace (tests/data/pytorch-nccl-comms.json, from HTA's nccl_parser_config test data: a
// 2-rank run of PyTorch 2 with NCCL 2.17.1): its 21 NCCL kernels with their collective args
// removed, their launch calls and the 27 record_param_comms operators. Each kernel is sized
// from the record_param_comms around its launch; the sizes are what the kernels' own args said
// in the original trace (In msg nelems x the dtype's size): 15 all-reduces of
// 8,196,000, 9,724,160, 26,255,360, 26,550,272 and 31,502,336 bytes (3 each) and 6 broadcasts
// of 424 and 212,480 bytes (3 each).
TEST(KinetoCommParams, RealTraceSizesFromTheHostMatchTheKernelsOwnArgs) {
    const KinetoTrace t = readKinetoTrace(ASTROLABE_TEST_DATA_DIR + "/pytorch-nccl-comms.json");
    const auto params = commParamsOf(t);
    std::map<std::pair<CollectiveType, uint64_t>, int> sizes;
    for (size_t i = 0; i < params.size(); ++i) {
        ASSERT_TRUE(params[i].has_value()) << t.activities[i].name;
        EXPECT_STREQ(params[i]->source, "record_param_comms around the launch");
        ASSERT_TRUE(params[i]->collective.has_value());
        ++sizes[{*params[i]->collective, params[i]->bytes.value_or(0)}];
    }
    const std::map<std::pair<CollectiveType, uint64_t>, int> expected = {
        {{CollectiveType::AllReduce, 8'196'000}, 3},  {{CollectiveType::AllReduce, 9'724'160}, 3},
        {{CollectiveType::AllReduce, 26'255'360}, 3}, {{CollectiveType::AllReduce, 26'550'272}, 3},
        {{CollectiveType::AllReduce, 31'502'336}, 3}, {{CollectiveType::Broadcast, 424}, 3},
        {{CollectiveType::Broadcast, 212'480}, 3}};
    EXPECT_EQ(sizes, expected);
    const KinetoImport imported = importKineto(t);
    EXPECT_EQ(imported.comm.sizeFromHost, 21u);
    EXPECT_EQ(imported.comm.sizeUnknown, 0u);
    EXPECT_EQ(imported.comm.otherGroup, 0u) << "all in the default group \"0\"";
}
