// PyTorch's execution trace linked with its Kineto trace (trace/pytorch/TraceLinker.h): small
// hand-written pairs for each rule and refusal, and the public sample of tests/data (HTA's
// simple-add benchmark: 38 ET nodes, 36 of them operators and annotations in the profiler
// trace, 4 kernels; every operator nests in "[param|cuda]", which lasted 19,814,157 us).
#include "trace/pytorch/TraceLinker.h"

#include "TestPaths.h"
#include "core/Error.h"
#include "trace/pytorch/ExecutionTrace.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::pytorch;

namespace {

// An ET node in the 1.0.2-chakra layout: parent in ctrl_deps, rf_id among the attrs.
std::string etNode(int id, const std::string& name, int parent, int rf) {
    return R"({"id": )" + std::to_string(id) + R"(, "name": ")" + name + R"(", "ctrl_deps": )" +
           std::to_string(parent) +
           R"(, "inputs": {"values": []}, "outputs": {"values": []}, "attrs": [{"name": "rf_id",
              "type": "uint64", "value": )" +
           std::to_string(rf) + R"(}, {"name": "tid", "type": "uint64", "value": 1}]})";
}

std::string et(const std::vector<std::string>& nodes) {
    std::string out = R"({"schema": "1.0.2-chakra.0.0.4", "pid": 7, "nodes": [)";
    for (size_t i = 0; i < nodes.size(); ++i)
        out += (i ? ",\n" : "") + nodes[i];
    return out + "]}";
}

std::string op(const std::string& name, double ts, double dur, int rf) {
    return R"({"ph": "X", "cat": "cpu_op", "name": ")" + name + R"(", "pid": 7, "tid": 7, "ts": )" +
           std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) +
           R"(, "args": {"External id": )" + std::to_string(rf + 1000) +
           R"(, "Record function id": )" + std::to_string(rf) + "}}";
}

std::string launch(double ts, int correlation) {
    return R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 7,
               "ts": )" +
           std::to_string(ts) + R"(, "dur": 1, "args": {"correlation": )" +
           std::to_string(correlation) + "}}";
}

std::string kernel(const std::string& name, double ts, double dur, int correlation,
                   int stream = 7) {
    return R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": )" +
           std::to_string(stream) + R"(, "ts": )" + std::to_string(ts) + R"(, "dur": )" +
           std::to_string(dur) + R"(, "args": {"correlation": )" + std::to_string(correlation) +
           "}}";
}

std::string profile(const std::vector<std::string>& events) {
    std::string out = R"({"traceEvents": [)";
    for (size_t i = 0; i < events.size(); ++i)
        out += (i ? ",\n" : "") + events[i];
    return out + "]}";
}

LinkedTrace link(const std::string& etText, const std::string& kinetoText) {
    return linkTraces(parseExecutionTrace(etText, "et.json"),
                      kineto::parseKinetoTrace(kinetoText, "k.json"));
}

std::string refusal(const std::string& etText, const std::string& kinetoText) {
    try {
        link(etText, kinetoText);
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

#define EXPECT_REFUSED(etText, kinetoText, fragment)                                               \
    do {                                                                                           \
        const std::string error_ = refusal(etText, kinetoText);                                    \
        EXPECT_NE(error_.find(fragment), std::string::npos)                                        \
            << "expected \"" << (fragment) << "\" in:\n"                                           \
            << error_;                                                                             \
    } while (0)

// aten::linear (0..100 us) holds aten::addmm (20..50 us), which launches a GEMM (110..140 us
// on stream 7); then c10d::allreduce_ (120..130 us) holds record_param_comms (121..129 us),
// which launches an all-reduce of 1,024 floats (150..190 us on stream 20).
const std::string kEt =
    et({etNode(1, "[pytorch|profiler|execution_trace|thread]", 0, 0),
        etNode(2, "aten::linear", 1, 10), etNode(3, "aten::addmm", 2, 11),
        etNode(4, "c10d::allreduce_", 1, 12), etNode(5, "record_param_comms", 4, 13)});
const std::string kKineto = profile(
    {op("aten::linear", 0, 100, 10), op("aten::addmm", 20, 30, 11), launch(30, 501),
     kernel("sm90_gemm", 110, 30, 501), op("c10d::allreduce_", 120, 10, 12),
     R"({"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 7, "tid": 7, "ts": 121,
         "dur": 8, "args": {"Record function id": 13, "Collective name": "allreduce",
         "In msg nelems": 1024, "Out msg nelems": 1024, "dtype": "Float", "Group size": 2,
         "Process Group Name": "0"}})",
     launch(125, 502), kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 150, 40, 502, 20)});

} // namespace

TEST(TraceLinker, OperatorsBecomeHostNodesOfTheirOwnTimeAndKernelsFollowTheirLauncher) {
    const LinkedTrace linked = link(kEt, kKineto);
    EXPECT_EQ(linked.etOperators, 5u);
    EXPECT_EQ(linked.hostOps, 4u);
    EXPECT_EQ(linked.unmatched, 1u) << "the observer's thread node has no profiler event";
    EXPECT_FALSE(linked.byExternalId);
    const auto& n = linked.trace.nodes;
    ASSERT_EQ(n.size(), 6u);
    // Start order: linear 0, addmm 20, gemm 110, allreduce_ 120, record_param_comms 121,
    // nccl kernel 150.
    EXPECT_EQ(n[0].name, "aten::linear");
    EXPECT_TRUE(n[0].isCpuOp);
    EXPECT_EQ(n[0].durationMicros, 70u) << "100 us less the 30 us of aten::addmm inside it";
    EXPECT_EQ(n[1].durationMicros, 30u);
    EXPECT_EQ(n[1].ctrlDeps, std::vector<uint64_t>{0}) << "after the previous host operator";
    EXPECT_EQ(n[2].name, "sm90_gemm");
    EXPECT_FALSE(n[2].isCpuOp);
    EXPECT_EQ(n[2].durationMicros, 30u);
    EXPECT_EQ(n[2].dataDeps, std::vector<uint64_t>{1}) << "launched inside aten::addmm";
    EXPECT_EQ(n[3].durationMicros, 2u) << "10 us less the 8 us of record_param_comms";
    EXPECT_EQ(n[4].durationMicros, 8u);
    EXPECT_EQ(n[5].type, NodeType::CommColl);
    EXPECT_EQ(n[5].commType, CollectiveType::AllReduce);
    EXPECT_EQ(n[5].commSize, 4096u) << "1,024 floats";
    EXPECT_EQ(n[5].dataDeps, std::vector<uint64_t>{4});
    EXPECT_EQ(linked.launchedByOp, 2u);
    EXPECT_DOUBLE_EQ(linked.hostTimeUs, 110.0) << "70 + 30 + 2 + 8: each microsecond once";
    EXPECT_DOUBLE_EQ(linked.nestedTimeUs, 38.0);
    EXPECT_EQ(linked.comm.sizeFromHost, 1u);
}

TEST(TraceLinker, AKernelShownBeforeItsLauncherStillFollowsIt) {
    // Host and device clocks may disagree: a kernel stamped 10 us before the operator that
    // launched it still gets a larger id than its launcher, and the next kernel of its stream a
    // larger one still.
    const LinkedTrace linked =
        link(et({etNode(2, "aten::mm", 1, 10)}),
             profile({op("aten::mm", 100, 20, 10), launch(105, 7), kernel("gemm", 90, 5, 7),
                      launch(110, 8), kernel("relu", 96, 2, 8)}));
    const auto& n = linked.trace.nodes;
    ASSERT_EQ(n.size(), 3u);
    EXPECT_EQ(n[0].name, "aten::mm");
    EXPECT_EQ(n[1].name, "gemm");
    EXPECT_EQ(n[1].dataDeps, std::vector<uint64_t>{0});
    EXPECT_EQ(n[2].name, "relu");
    EXPECT_EQ(n[2].ctrlDeps, std::vector<uint64_t>{1});
}

TEST(TraceLinker, OlderTracesLinkByExternalId) {
    // Schema 1.0.1 keeps parent, rf_id and tid as keys; its profiler trace has no "Record
    // function id", and the operators' External ids are the rf_ids.
    const std::string oldEt = R"({"schema": "1.0.1", "nodes": [
        {"name": "aten::add", "id": 5, "rf_id": 3, "parent": 4, "tid": 1}]})";
    const std::string oldKineto = profile(
        {R"({"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 10,
            "dur": 20, "args": {"External id": 3}})",
         R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
            "ts": 12, "dur": 3, "args": {"External id": 3, "correlation": 9}})",
         kernel("add_kernel", 40, 2, 9)});
    const LinkedTrace linked = link(oldEt, oldKineto);
    EXPECT_TRUE(linked.byExternalId);
    ASSERT_EQ(linked.trace.nodes.size(), 2u);
    EXPECT_EQ(linked.trace.nodes[1].dataDeps, std::vector<uint64_t>{0});
}

TEST(TraceLinker, RecordFunctionIdZeroNamesNothing) {
    // A profiler run without the execution-trace observer writes "Record function id": 0 on
    // every operator (as in HTA's event_sync test trace); the observer gives rf_id 0 to its
    // own root nodes. Neither links, and neither is a reused id.
    const std::string zeros = profile(
        {op("aten::matmul", 0, 10, 0), op("aten::mm", 1, 8, 0), op("aten::linear", 20, 5, 10)});
    const LinkedTrace linked =
        link(et({etNode(1, "[pytorch|profiler|execution_trace|process]", 1, 0),
                 etNode(2, "[pytorch|profiler|execution_trace|thread]", 1, 0),
                 etNode(3, "aten::linear", 2, 10)}),
             zeros);
    EXPECT_EQ(linked.hostOps, 1u);
    EXPECT_EQ(linked.unmatched, 2u);
}

TEST(TraceLinker, BadInputsAreRefusedNamingTheEventOrNode) {
    EXPECT_REFUSED(kEt.substr(0, kEt.size() / 2), kKineto, "et.json: not JSON at byte offset ");
    EXPECT_REFUSED(et({etNode(2, "aten::linear", 1, 10), etNode(2, "aten::addmm", 1, 11)}), kKineto,
                   "et.json: nodes[1] (\"aten::addmm\"): node id 2 is used twice: here and at "
                   "nodes[0]");
    EXPECT_REFUSED(et({etNode(2, "aten::linear", 1, 10), etNode(3, "aten::mm", 1, 10)}), kKineto,
                   "et.json: nodes[1] (node 3 \"aten::mm\"): rf_id 10 is used twice");
    EXPECT_REFUSED(kEt, profile({op("aten::linear", 0, 100, 10), op("aten::relu", 200, 5, 10)}),
                   "k.json: traceEvents[1] (\"aten::relu\"): record function id 10 is used "
                   "twice: here and at traceEvents[0] (an operator's id names one operator; "
                   "node 2 of et.json has it)");
    EXPECT_REFUSED(kEt, profile({op("aten::linear", 0, 100, 10), kernel("orphan", 110, 3, 77)}),
                   "k.json: traceEvents[1] (\"orphan\"): no runtime call launched this GPU "
                   "activity (correlation 77 is not in the trace)");
    // Ids restart with every run: an execution trace of another run links by id all the same,
    // and only the names disagree (the bundled 1.0.2 trace against the simple-add profile
    // linked 36 operators, 35 of them under another name).
    EXPECT_REFUSED(et({etNode(2, "aten::linear", 1, 10), etNode(3, "aten::relu", 1, 11)}),
                   profile({op("aten::empty", 0, 100, 10), op("aten::relu", 200, 5, 11)}),
                   "et.json: nodes: the two traces are not of one run: of 2 operators linked by "
                   "record function id, 1 has another name in k.json (node 2 \"aten::linear\" "
                   "is traceEvents[0] \"aten::empty\")");
    EXPECT_REFUSED(R"({"schema": "1.0.1"})", kKineto, "et.json: nodes: no \"nodes\" array");
    EXPECT_REFUSED(et({R"({"id": 4})"}), kKineto, "et.json: nodes[0]: node 4 has no \"name\"");
    EXPECT_REFUSED(et({R"({"id": -4, "name": "x"})"}), kKineto,
                   "et.json: nodes[0] (\"x\"): \"id\" must be a whole number of at least 0");
}

TEST(TraceLinker, PublicSamplePair) {
    const LinkedTrace linked = linkTraces(
        readExecutionTrace(ASTROLABE_TEST_DATA_DIR + "/pytorch-simple-add-et.json"),
        kineto::readKinetoTrace(ASTROLABE_TEST_DATA_DIR + "/pytorch-simple-add-kineto.json"));
    EXPECT_EQ(linked.etOperators, 38u);
    EXPECT_EQ(linked.hostOps, 36u) << "all but the observer's process and thread nodes";
    EXPECT_TRUE(linked.byExternalId) << "a 2023 trace: no Record function id";
    EXPECT_EQ(linked.kernels, 4u);
    EXPECT_EQ(linked.launchedByOp, 4u);
    EXPECT_DOUBLE_EQ(linked.hostTimeUs, 19'814'157) << "the duration of [param|cuda], which "
                                                       "holds every other operator";
    const auto& n = linked.trace.nodes;
    ASSERT_EQ(n.size(), 40u);
    std::vector<std::string> launchers;
    for (const WorkloadNode& node : n)
        if (!node.isCpuOp) {
            ASSERT_EQ(node.dataDeps.size(), 1u);
            launchers.push_back(n[node.dataDeps[0]].name);
        }
    EXPECT_EQ(launchers, (std::vector<std::string>{"aten::uniform_", "aten::uniform_", "aten::add",
                                                   "aten::add"}));
}

// The 1.0.2-chakra.0.0.4 layout as PyTorch writes it (tests/data/pytorch-et-1.0.2-chakra.json,
// Chakra's own test ET without inputs and outputs; its profiler trace is not public): 263
// nodes, the parent in ctrl_deps, rf_id and tid among the attrs; the observer's process and
// thread nodes share rf_id 0. Against a profiler trace that has none of its operators, nothing
// links and nothing is refused.
TEST(TraceLinker, ReadsTheChakraLayoutOfARealExecutionTrace) {
    const ExecutionTrace trace =
        readExecutionTrace(ASTROLABE_TEST_DATA_DIR + "/pytorch-et-1.0.2-chakra.json");
    EXPECT_EQ(trace.schema, "1.0.2-chakra.0.0.4");
    ASSERT_EQ(trace.nodes.size(), 263u);
    EXPECT_EQ(trace.nodes[0].id, 2u);
    EXPECT_EQ(trace.nodes[0].name, "[pytorch|profiler|execution_trace|thread]");
    EXPECT_EQ(trace.nodes[0].parent, 1);
    EXPECT_EQ(trace.nodes[0].rfId, 0);
    EXPECT_EQ(trace.nodes[0].thread, 1);
    const auto gather = std::find_if(trace.nodes.begin(), trace.nodes.end(),
                                     [](const EtOperator& n) { return n.id == 31; });
    ASSERT_NE(gather, trace.nodes.end());
    EXPECT_EQ(gather->name, "nccl:all_gather");
    EXPECT_EQ(gather->parent, 30) << "inside its record_param_comms";
    EXPECT_EQ(gather->rfId, 20);
    const LinkedTrace linked = linkTraces(
        trace, kineto::parseKinetoTrace(profile({kernel("k", 0, 1, 5), launch(0, 5)}), "k.json"));
    EXPECT_EQ(linked.hostOps, 0u);
    EXPECT_EQ(linked.unmatched, 263u);
    EXPECT_EQ(linked.outsideOps, 1u);
}
