// Chakra's JSON text format ({"workload_graph": [...]}): read into the same nodes as the binary
// form, and every bad input refused with the element and node named.
#include "ChakraBadInput.h"
#include "engine/golden/GoldenSpec.h"
#include "simulation/Simulation.h"

using namespace astrolabe;
using namespace astrolabe::test;

namespace {

std::string graph(const std::string& nodes, const std::string& extra = {}) {
    return "{\"workload_graph\": [" + nodes + "]" + extra + "}";
}

class WorkloadGraphJson : public ChakraBadInput {
protected:
    WorkloadTrace read(const std::string& text) {
        writeText(m_tmp.path("g.json"), text);
        return readWorkloadTrace(m_tmp.path("g.json"));
    }
};

} // namespace

TEST_F(WorkloadGraphJson, ReadsEveryKeyOfTheFormat) {
    const WorkloadTrace t = read(graph(
        R"({"Id": 5, "Name": "aten::mm", "NodeType": 4, "is_cpu_op": false, "runtime": 12,
            "num_ops": 1000, "tensor_size": 64, "data_deps": [], "ctrlDeps": []},
           {"Id": 6, "Name": "ncclKernel_AllReduce", "NodeType": 7, "is_cpu_op": false,
            "runtime": 30, "comm_type": 0, "comm_size": 4096, "comm_priority": 1,
            "involved_dim": [true, false], "pg_name": "1", "data_deps": [5], "ctrlDeps": [5]},
           {"Id": 7, "NodeType": 5, "comm_src": 0, "comm_dst": 1, "comm_tag": 9,
            "comm_size": 8, "data_deps": [6]})",
        R"(, "workload_name": "w", "ngpus": 2, "soc": "s")"));
    ASSERT_EQ(t.nodes.size(), 3u);
    EXPECT_EQ(t.schemaVersion, "chakra-json");
    const WorkloadNode& mm = t.nodes[0];
    EXPECT_EQ(mm.id, 5u);
    EXPECT_EQ(mm.name, "aten::mm");
    EXPECT_EQ(mm.type, NodeType::Comp);
    EXPECT_EQ(mm.durationMicros, 12u);
    EXPECT_TRUE(mm.hasNumOps && mm.numOps == 1000);
    EXPECT_TRUE(mm.hasTensorSize && mm.tensorSize == 64);
    const WorkloadNode& ar = t.nodes[1];
    EXPECT_EQ(ar.type, NodeType::CommColl);
    EXPECT_TRUE(ar.hasCommType && ar.commType == CollectiveType::AllReduce);
    EXPECT_EQ(ar.commSize, 4096u);
    EXPECT_EQ(ar.commPriority, 1u);
    EXPECT_EQ(ar.detail->involvedDim, (std::vector<bool>{true, false}));
    EXPECT_EQ(ar.pgName, "1");
    EXPECT_EQ(ar.dataDeps, std::vector<uint64_t>{5});
    EXPECT_EQ(ar.ctrlDeps, std::vector<uint64_t>{5});
    const WorkloadNode& send = t.nodes[2];
    EXPECT_TRUE(send.hasCommSrc && send.hasCommDst && send.hasCommTag);
    EXPECT_EQ(send.commDst, 1u);
    EXPECT_EQ(send.commTag, 9u);
}

TEST_F(WorkloadGraphJson, TruncatedJsonIsRefusedWithTheOffset) {
    const std::string text = graph(R"({"Id": 1, "NodeType": 4})");
    EXPECT_ERROR(loadBytes(text.substr(0, text.size() - 3)),
                 "w.0.et: byte offset 0: JSON value is not closed before the end of the file");
}

TEST_F(WorkloadGraphJson, UnknownKeysAreRefusedWithTheNearestKey) {
    EXPECT_ERROR(loadBytes(graph(R"({"Id": 1, "NodeType": 4, "runtim": 3})")),
                 "w.0.et: workload_graph[0] (node 1).runtim: unknown key \"runtim\" (did you mean "
                 "\"runtime\"?)");
    EXPECT_ERROR(loadBytes(graph(R"({"Id": 1, "NodeType": 4})", R"(, "ngpu": 2)")),
                 "w.0.et: ngpu: unknown key \"ngpu\" (did you mean \"ngpus\"?)");
}

TEST_F(WorkloadGraphJson, NegativeAndFractionalNumbersAreRefused) {
    EXPECT_ERROR(loadBytes(graph(R"({"Id": 1, "NodeType": 4, "runtime": -5})")),
                 "w.0.et: workload_graph[0] (node 1).runtime: expected a whole number of at least "
                 "0, found a negative number (-5)");
    EXPECT_ERROR(loadBytes(graph(R"({"Id": 1.5, "NodeType": 4})")),
                 "w.0.et: workload_graph[0].Id: expected a whole number of at least 0, found a "
                 "floating-point number (1.5)");
    EXPECT_ERROR(loadBytes(graph(R"({"Id": 1, "NodeType": 4, "data_deps": [-1]})")),
                 "workload_graph[0] (node 1).data_deps: expected a whole number of at least 0, "
                 "found a negative number (-1)");
    // A rank or tag is 32 bits in Chakra: 2^64 - 1 was read back as NPU 4294967295.
    EXPECT_ERROR(loadBytes(graph(R"({"Id": 1, "NodeType": 5, "comm_size": 8,
                                     "comm_dst": 18446744073709551615})")),
                 "workload_graph[0] (node 1).comm_dst: expected a whole number below 2^32 (a "
                 "32-bit field in Chakra), found 18446744073709551615");
}

TEST_F(WorkloadGraphJson, MissingAndMistypedFieldsNameTheElement) {
    EXPECT_ERROR(loadBytes(graph(R"({"Id": 1, "NodeType": 4}, {"Id": 2})")),
                 "w.0.et: workload_graph[1] (node 2): the node has no \"NodeType\"");
    EXPECT_ERROR(loadBytes(graph(R"({"Id": 1, "NodeType": 4, "is_cpu_op": "yes"})")),
                 "workload_graph[0] (node 1).is_cpu_op: expected true or false, found string");
    EXPECT_ERROR(loadBytes(graph(R"(3)")),
                 "w.0.et: workload_graph[0]: expected a node object, found number");
    EXPECT_ERROR(loadBytes(R"({"workload_graph": {"Id": 1}})"),
                 "w.0.et: workload_graph: expected an array of node objects, found object");
    EXPECT_ERROR(loadBytes(graph(R"({"Id": 1, "NodeType": 12})")),
                 "w.0.et: node 1: unknown NodeType 12");
}

TEST_F(WorkloadGraphJson, ReusedIdsAndCyclesAreRefusedByTheSameValidation) {
    EXPECT_ERROR(loadBytes(graph(R"({"Id": 4, "Name": "a", "NodeType": 4},
                                    {"Id": 4, "Name": "b", "NodeType": 4})")),
                 "node 4 \"b\": duplicate node id 4 (first used by record #1)");
    EXPECT_ERROR(loadBytes(graph(R"({"Id": 0, "Name": "s", "NodeType": 4},
                                    {"Id": 1, "Name": "x", "NodeType": 4, "data_deps": [2]},
                                    {"Id": 2, "Name": "y", "NodeType": 4, "ctrlDeps": [1]})")),
                 "dependency cycle: ");
}

TEST_F(WorkloadGraphJson, AllProblemsOfOneFileAreListedTogether) {
    const std::string error = loadBytes(graph(R"({"Id": -1, "NodeType": 4},
                                                 {"Id": 2, "NodeType": 4, "runtime": 1.5})"));
    EXPECT_NE(error.find("workload_graph[0].Id"), std::string::npos) << error;
    EXPECT_NE(error.find("workload_graph[1] (node 2).runtime"), std::string::npos) << error;
}

// ASTRA-sim does not read ngpus, and neither does the run; one that disagrees with the platform
// was accepted without a word. The run says so beside its other assumptions.
TEST_F(WorkloadGraphJson, AnNgpusThatIsNotThePlatformsIsReported) {
    const std::string node = R"({"Id": 1, "Name": "mm", "NodeType": 4, "runtime": 5})";
    const WorkloadTrace t = read(graph(node, R"(, "ngpus": 16)"));
    EXPECT_EQ(t.recordedNpus, 16u);
    const SimulationSpec spec = golden::spec({golden::dim(BlockKind::Ring, 2, 50, 500)});
    auto assumed = [](const RunResult& r) {
        std::string lines;
        for (const std::string& line : r.reportLines)
            if (line.starts_with(kAssumedLinePrefix))
                lines += line + "\n";
        return lines;
    };
    const auto wrong = runSimulation(spec, {t, t});
    EXPECT_NE(assumed(*wrong).find("ngpus: " + t.file +
                                   " says it was recorded for 16 GPUs and the platform has 2 NPUs"),
              std::string::npos)
        << assumed(*wrong);
    const WorkloadTrace two = read(graph(node, R"(, "ngpus": 2)"));
    EXPECT_EQ(assumed(*runSimulation(spec, {two, two})).find("ngpus"), std::string::npos);
}
