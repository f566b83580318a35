// PyTorch profiler (Kineto) traces: small hand-written ones for every rule and every refusal,
// and DeepSeek's public DeepSeek-V3 training profile (tests/data, GPU side). Its figures were
// summed from the file by a separate script: 983 GPU activities, 244,069 us in all; 931 compute
// kernels (131,011 us), 16 DeepEP dispatch / combine (80,452 us), 16 DeepEP notify (32,578 us),
// 20 copies and sets (28 us); first start to last end 129,012 us.
#include "trace/kineto/KinetoImport.h"

#include "ChakraTestUtil.h"
#include "TestPaths.h"
#include "core/Error.h"
#include "trace/kineto/ExpertComm.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>

using namespace astrolabe;
using namespace astrolabe::kineto;

namespace {

std::string kernel(const std::string& name, double ts, double dur, int stream = 7) {
    return R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": )" +
           std::to_string(stream) + R"(, "ts": )" + std::to_string(ts) + R"(, "dur": )" +
           std::to_string(dur) + "}";
}

std::string events(const std::vector<std::string>& list) {
    std::string out = R"({"traceEvents": [)";
    for (size_t i = 0; i < list.size(); ++i)
        out += (i ? ", " : "") + list[i];
    return out + R"(], "distributedInfo": {"rank": 3, "world_size": 8}})";
}

std::string refusal(const std::string& text) {
    try {
        importKineto(parseKinetoTrace(text, "p.json"));
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

#define EXPECT_REFUSED(text, fragment)                                                             \
    do {                                                                                           \
        const std::string error_ = refusal(text);                                                  \
        EXPECT_NE(error_.find(fragment), std::string::npos)                                        \
            << "expected \"" << (fragment) << "\" in:\n"                                           \
            << error_;                                                                             \
    } while (0)

} // namespace

// A key given twice (the parser would keep the last: a second traceEvents replaces the first,
// a second dur the first) is refused with its line.
TEST(KinetoImport, AKeyGivenTwiceIsRefused) {
    EXPECT_REFUSED(R"({"traceEvents": [], "traceEvents": []})",
                   "p.json:1:21: traceEvents: the key \"traceEvents\" is given twice");
    EXPECT_REFUSED(events({R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7,
                              "ts": 1, "dur": 5, "dur": 9})"}),
                   "the key \"dur\" is given twice in one object, both on line 2");
}

TEST(KinetoImport, KernelsBecomeNodesInStartOrderWithStreamDependencies) {
    const KinetoTrace trace = parseKinetoTrace(
        events({kernel("gemm", 100, 30),
                kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 110, 50, 20),
                kernel("softmax", 131, 5), R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm",
                    "pid": 9, "tid": 9, "ts": 90, "dur": 50})"}),
        "p.json");
    EXPECT_EQ(trace.rank, 3);
    EXPECT_EQ(trace.worldSize, 8);
    ASSERT_EQ(trace.activities.size(), 3u) << "the host operator is not a GPU activity";
    const KinetoImport imported = importKineto(trace);
    ASSERT_EQ(imported.traces.size(), 1u);
    const auto& nodes = imported.traces[0].nodes;
    ASSERT_EQ(nodes.size(), 3u);
    EXPECT_EQ(nodes[0].name, "gemm");
    EXPECT_EQ(nodes[0].type, NodeType::Comp);
    EXPECT_FALSE(nodes[0].isCpuOp);
    EXPECT_EQ(nodes[0].durationMicros, 30u);
    EXPECT_EQ(nodes[1].type, NodeType::CommColl);
    EXPECT_EQ(nodes[1].commType, CollectiveType::AllReduce);
    EXPECT_TRUE(nodes[1].ctrlDeps.empty()) << "first on its stream";
    EXPECT_EQ(nodes[2].ctrlDeps, std::vector<uint64_t>{0}) << "after gemm on stream 7";
    EXPECT_EQ(imported.measuredSpanUs, 60.0) << "100 to 160";
    EXPECT_EQ(imported.comm.sizeUnknown, 1u);
}

// A dtype the reader has no element size for leaves the kernel unsized, and the import counts
// it under its name (the report names it, with the known ones), apart from kernels with no size.
TEST(KinetoImport, AnUnknownDtypeIsCountedByName) {
    const auto sized = [](const char* dtype) {
        return R"({"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
                   "pid": 0, "tid": 7, "ts": 0, "dur": 1, "args": {"In msg nelems": 256,
                   "dtype": ")" +
               std::string(dtype) + R"("}})";
    };
    const KinetoImport imported = importKineto(parseKinetoTrace(
        events({sized("Float"), sized("Quaternion"), sized("Quaternion"), sized("BFloat16")}),
        "p.json"));
    EXPECT_EQ(imported.traces[0].nodes[0].commSize, 1024u) << "256 x 4 bytes";
    EXPECT_EQ(imported.traces[0].nodes[3].commSize, 512u) << "256 x 2 bytes";
    EXPECT_EQ(imported.comm.sizeUnknown, 2u);
    EXPECT_EQ(imported.comm.unknownDtypes, (std::map<std::string, size_t>{{"Quaternion", 2}}));
    EXPECT_EQ(dtypeBytes("Float8_e4m3fn"), 1u);
    EXPECT_EQ(knownDtypes().size(), 22u);
}

TEST(KinetoImport, GpuToGpuFlowsBecomeDependencies) {
    const KinetoTrace trace = parseKinetoTrace(
        events({kernel("a", 0, 10, 7), kernel("b", 20, 10, 9),
                R"({"ph": "s", "cat": "sync", "id": 5, "pid": 0, "tid": 7, "ts": 5})",
                R"({"ph": "f", "cat": "sync", "id": 5, "pid": 0, "tid": 9, "ts": 20, "bp": "e"})",
                R"({"ph": "s", "cat": "ac2g", "id": 6, "pid": 9, "tid": 9, "ts": 1})",
                R"({"ph": "f", "cat": "ac2g", "id": 6, "pid": 0, "tid": 7, "ts": 0, "bp": "e"})",
                R"({"ph": "f", "cat": "ac2g", "id": 7, "pid": 0, "tid": 7, "ts": 0, "bp": "e"})"}),
        "p.json");
    EXPECT_EQ(trace.flows.size(), 1u);
    EXPECT_EQ(trace.hostFlows, 1u) << "flow 6 starts on the host";
    EXPECT_EQ(trace.unpairedFlows, 1u) << "flow 7 has no start";
    const KinetoImport imported = importKineto(trace);
    EXPECT_EQ(imported.traces[0].nodes[1].dataDeps, std::vector<uint64_t>{0});
    EXPECT_EQ(imported.flowDeps, 1u);
}

TEST(KinetoImport, KernelsAreClassifiedByName) {
    const auto kind = [](const char* cat, const char* name) {
        return classifyKernel(cat, name).kind;
    };
    EXPECT_EQ(kind("kernel", "void dpsk::ep::internode::dispatch<false, 8, true, 8>(int4*)"),
              KernelClass::ExpertAllToAll);
    EXPECT_EQ(kind("kernel", "void deep_ep::intranode::combine<8>(float*)"),
              KernelClass::ExpertAllToAll);
    EXPECT_EQ(kind("kernel", "void dpsk::ep::internode::cached_notify<false>(int)"),
              KernelClass::ExpertControl);
    EXPECT_EQ(kind("kernel", "void dpsk::ep::cuda::get_dispatch_layout<256, 32, 8>(long)"),
              KernelClass::Compute)
        << "a layout computation moves no data between ranks";
    EXPECT_EQ(kind("kernel", "ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)"),
              KernelClass::PointToPoint);
    EXPECT_EQ(kind("kernel", "ncclKernel_AllGather_RING_LL_Sum_int8_t"), KernelClass::Collective);
    EXPECT_EQ(kind("gpu_memcpy", "Memcpy DtoD (Device -> Device)"), KernelClass::Copy);
    EXPECT_EQ(kind("kernel", "void cutlass::device_kernel<x>(y)"), KernelClass::Compute);
    EXPECT_EQ(kernelBaseName("void cutlass::device_kernel<x<y>>(z)"),
              "void cutlass::device_kernel");
    EXPECT_EQ(kernelBaseName("void (anonymous namespace)::elementwise_kernel_with_index<int>(x)"),
              "void (anonymous namespace)::elementwise_kernel_with_index");
    EXPECT_EQ(kernelBaseName("Memset (Device)"), "Memset");
    EXPECT_EQ(kernelBaseName("rotary_kernel"), "rotary_kernel");
}

TEST(KinetoImport, BadTracesAreRefusedNamingTheEvent) {
    const std::string good = events({kernel("a", 0, 10)});
    EXPECT_REFUSED(good.substr(0, good.size() - 20), "p.json: not JSON at byte offset ");
    EXPECT_REFUSED(events({kernel("a", 0, 10), R"({"ph": "Q", "name": "odd", "ts": 1})"}),
                   "p.json: traceEvents[1] (\"odd\"): unknown event phase \"Q\"");
    EXPECT_REFUSED(events({kernel("a", 0, -5)}),
                   "p.json: traceEvents[0] (\"a\"): negative duration -5");
    // Past a day a slice is a broken clock, and past 1e16 us a timestamp does not fit the
    // simulator's picoseconds.
    EXPECT_REFUSED(events({kernel("a", 0, 1e300)}),
                   "p.json: traceEvents[0] (\"a\"): a duration of 1e+300 us is longer than a day");
    EXPECT_REFUSED(events({kernel("a", 1e17, 1)}),
                   "p.json: traceEvents[0] (\"a\"): the timestamp 1e+17 us is past the year 2286");
    // A size given as anything but a count is no missing size (that would time it as 0 B).
    EXPECT_REFUSED(events({R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7,
                              "ts": 0, "dur": 1, "args": {"In msg nelems": -5}})"}),
                   "p.json: traceEvents[0] (\"k\"): args.\"In msg nelems\" must be a whole "
                   "number of 0 or more, found \"-5\"");
    EXPECT_REFUSED(events({R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7,
                              "ts": 0, "dur": 1, "args": {"Out msg nelems": 1e30}})"}),
                   "args.\"Out msg nelems\" must be a whole number of 0 or more, found \"1e+30\"");
    EXPECT_REFUSED(events({R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7,
                              "ts": "soon", "dur": 1})"}),
                   "traceEvents[0] (\"k\"): \"ts\" must be a number (microseconds), found string");
    EXPECT_REFUSED(events({kernel("a", 0, 1), R"({"name": "x", "ts": 1})"}),
                   "traceEvents[1] (\"x\"): no event phase");
    EXPECT_REFUSED(events({kernel("a", 0, 10),
                           R"({"ph": "s", "cat": "c", "id": 4, "pid": 0, "tid": 7, "ts": 1})",
                           R"({"ph": "s", "cat": "c", "id": 4, "pid": 0, "tid": 7, "ts": 2})"}),
                   "traceEvents[2]: flow id c:4 starts twice: here and at traceEvents[1] (flow "
                   "ids may not be reused)");
    // A flow from the second kernel of a stream back to the first: stream order says the
    // opposite, so neither could start.
    EXPECT_REFUSED(events({kernel("first", 0, 10), kernel("second", 20, 10),
                           R"({"ph": "s", "cat": "c", "id": 1, "pid": 0, "tid": 7, "ts": 25})",
                           R"({"ph": "f", "cat": "c", "id": 1, "pid": 0, "tid": 7, "ts": 5,
                               "bp": "e"})"}),
                   "flow c:1 from \"second\" to \"first\" closes a cycle");
    EXPECT_REFUSED(events({R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1,
                              "tid": 1, "ts": 0, "dur": 1})"}),
                   "p.json: the profiler trace has no GPU activity");
    EXPECT_REFUSED(R"({"traceEvent": []})", "p.json: traceEvents: no \"traceEvents\" array");
    // A GPU activity's pid is its device; a process group has a rank.
    EXPECT_REFUSED(events({R"({"ph": "X", "cat": "kernel", "name": "k", "pid": -1, "tid": 7,
                              "ts": 0, "dur": 1})"}),
                   "traceEvents[0] (\"k\"): a GPU activity's \"pid\" is its device, a whole "
                   "number of 0 or more; found -1");
    EXPECT_REFUSED(events({kernel("a", 0, 1), R"({"ph": "X", "cat": "cpu_op", "name":
                              "record_param_comms", "pid": 1, "tid": 1, "ts": 0, "dur": 1,
                              "args": {"Group size": 0}})"}),
                   "traceEvents[1] (\"record_param_comms\"): args.\"Group size\" is 0; a "
                   "process group has at least one rank");
    // Found by the fuzzer: a number past the range of a double ended in a JSON library exception.
    EXPECT_REFUSED(R"({"traceEvents": [{"ph": "X", "ts": 7E700000}]})",
                   "p.json: not readable JSON: [json.exception.out_of_range.406] number overflow");
}

TEST(KinetoImport, DeepSeekTrainingProfile) {
    const std::string path = ASTROLABE_TEST_DATA_DIR + "/deepseek-v3-train-gpu0.json";
    const KinetoTrace trace = readKinetoTrace(path);
    EXPECT_EQ(trace.rank, 0);
    EXPECT_EQ(trace.worldSize, 64);
    const KinetoImport imported = importKineto(trace);
    ASSERT_EQ(imported.traces.size(), 1u);
    // 983 GPU activities and the 983 launch calls that launched them (the host's timeline).
    EXPECT_EQ(imported.traces[0].nodes.size(), 1966u);
    EXPECT_EQ(imported.launchNodes, 983u);
    EXPECT_DOUBLE_EQ(imported.totalTimeUs, 244069);
    EXPECT_DOUBLE_EQ(imported.measuredSpanUs, 129012);
    std::map<KernelClass, std::pair<size_t, double>> byClass;
    for (const KernelRow& row : imported.kernels) {
        byClass[row.kind].first += row.count;
        byClass[row.kind].second += row.timeUs;
    }
    EXPECT_EQ(byClass[KernelClass::Compute], (std::pair<size_t, double>{931, 131011}));
    EXPECT_EQ(byClass[KernelClass::ExpertAllToAll], (std::pair<size_t, double>{16, 80452}));
    EXPECT_EQ(byClass[KernelClass::ExpertControl], (std::pair<size_t, double>{16, 32578}));
    EXPECT_EQ(byClass[KernelClass::Copy], (std::pair<size_t, double>{20, 28}));
    EXPECT_EQ(imported.comm.sizeUnknown, 32u);
}

// --moe-shape (kineto/ExpertComm.h): DeepSeek-V3's shape, computed by hand. Dispatch: 4,096
// tokens x 8 experts x (7,168 FP8 bytes + 56 FP32 scales) = 242,221,056 B; combine: 4,096 x 8 x
// 7,168 x 2 = 469,762,048 B; notify: 256 experts x 4 = 1,024 B.
TEST(KinetoImport, ExpertCommunicationIsSizedFromTheModelShape) {
    const ExpertSizes sizes = expertSizes({4096, 7168, 8, 256}, "--moe-shape");
    EXPECT_EQ(sizes.dispatch, 242'221'056u);
    EXPECT_EQ(sizes.combine, 469'762'048u);
    EXPECT_EQ(sizes.notify, 1'024u);
    try {
        expertSizes({4096, 0, 8, 256}, "--moe-shape");
        ADD_FAILURE() << "a hidden size of 0 is refused";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("--moe-shape: the MoE shape's hidden is 0"),
                  std::string::npos)
            << e.what();
    }

    try {
        expertSizes({4096, 7168, 300, 256}, "--moe-shape");
        ADD_FAILURE() << "a top-k past the expert count is refused (top-k picks distinct experts)";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("top-k (300) is more than its experts (256)"),
                  std::string::npos)
            << e.what();
    }

    const std::string path = ASTROLABE_TEST_DATA_DIR + "/deepseek-v3-train-gpu0.json";
    WorkloadTrace t = importKineto(readKinetoTrace(path)).traces[0];
    EXPECT_EQ(dropLaunchTimeline(t), 983u);
    EXPECT_EQ(t.nodes.size(), 983u);
    for (const WorkloadNode& n : t.nodes) {
        EXPECT_FALSE(n.isCpuOp);
        for (uint64_t d : n.dataDeps)
            EXPECT_NE(t.nodes.end(), std::find_if(t.nodes.begin(), t.nodes.end(),
                                                  [d](const WorkloadNode& m) { return m.id == d; }))
                << "node " << n.id << " depends on a dropped node " << d;
    }
    const ExpertSizing sized = sizeExpertCommunication(t, sizes);
    EXPECT_EQ(sized.dispatch, 8u);
    EXPECT_EQ(sized.combine, 8u);
    EXPECT_EQ(sized.notify, 16u);
    uint64_t bytes = 0;
    for (const WorkloadNode& n : t.nodes)
        bytes += n.type == NodeType::CommColl ? n.commSize : 0;
    EXPECT_EQ(bytes, 8 * 242'221'056ull + 8 * 469'762'048ull + 16 * 1'024ull);
}
