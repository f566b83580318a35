// The rules of a lenient load (docs/real-traces.md), each on a small hand-written trace: what it
// changes, what it counts, and that the result passes the strict checks.
#include "trace/TraceRepair.h"

#include "trace/ErrorCollector.h"
#include "trace/WorkloadValidator.h"

#include <gtest/gtest.h>

using namespace astrolabe;

namespace {

WorkloadNode node(uint64_t id, NodeType type, std::vector<uint64_t> data = {},
                  std::vector<uint64_t> ctrl = {}) {
    WorkloadNode n;
    n.id = id;
    n.type = type;
    n.name = "n" + std::to_string(id);
    n.dataDeps = std::move(data);
    n.ctrlDeps = std::move(ctrl);
    n.durationMicros = 1;
    return n;
}

WorkloadTrace trace(std::vector<WorkloadNode> nodes) {
    WorkloadTrace t;
    t.file = "w.0.et";
    t.nodes = std::move(nodes);
    return t;
}

std::string strictErrors(const WorkloadTrace& t) {
    LoadOptions options;
    ErrorCollector errors;
    validateTrace(t, 0, 8, options, errors);
    try {
        errors.throwIfAny();
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

} // namespace

TEST(TraceRepair, DependenciesOnAbsentNodesCountAsMet) {
    // The converter leaves out the root (3) and a process node (3198); 1,300 nodes of the
    // Chakra test trace hang off node 3.
    WorkloadTrace t = trace({node(10, NodeType::Comp, {}, {3}), node(11, NodeType::Comp, {10}, {3}),
                             node(12, NodeType::Comp, {3198, 11})});
    EXPECT_NE(strictErrors(t).find("node 10 \"n10\": depends on node 3, which is not in this file"),
              std::string::npos);
    repairTrace(t);
    EXPECT_EQ(t.assumptions.count(Assumption::AbsentParent), 3u);
    EXPECT_EQ(t.assumptions.absentNodes, 2u) << "3 and 3198";
    EXPECT_EQ(t.assumptions.firstNode[0], 10u);
    EXPECT_TRUE(t.nodes[0].ctrlDeps.empty());
    EXPECT_EQ(t.nodes[1].dataDeps, std::vector<uint64_t>{10});
    EXPECT_EQ(t.nodes[2].dataDeps, std::vector<uint64_t>{11});
    EXPECT_EQ(strictErrors(t), "");
}

TEST(TraceRepair, SelfDependencyIsDropped) {
    WorkloadTrace t = trace({node(1, NodeType::Comp), node(2, NodeType::Comp, {1}, {2})});
    repairTrace(t);
    EXPECT_EQ(t.assumptions.count(Assumption::SelfDependency), 1u);
    EXPECT_TRUE(t.nodes[1].ctrlDeps.empty());
    EXPECT_EQ(t.nodes[1].dataDeps, std::vector<uint64_t>{1});
    EXPECT_EQ(strictErrors(t), "");
}

TEST(TraceRepair, CyclesLoseTheirDependenciesOnLaterNodes) {
    // As in the Chakra test trace: the CPU op 3317 lists its own kernel 3318 as a control
    // parent, and the kernel reads the op's output. Plus a loop of three: 20 <- 22 <- 21 <- 20.
    // Within each loop exactly the edges to a larger id go (3317 <- 3318; 20 <- 22, 21 <- 22
    // is not an edge); edges into and out of the loops stay.
    WorkloadTrace t = trace({node(1, NodeType::Comp), node(3317, NodeType::Comp, {1}, {3318}),
                             node(3318, NodeType::Comp, {3317}), node(20, NodeType::Comp, {1, 22}),
                             node(21, NodeType::Comp, {20}), node(22, NodeType::Comp, {21}),
                             node(30, NodeType::Comp, {22, 3318})});
    EXPECT_NE(strictErrors(t).find("dependency cycle"), std::string::npos);
    repairTrace(t);
    EXPECT_EQ(t.assumptions.count(Assumption::CycleBroken), 2u);
    EXPECT_EQ(t.nodes[1].ctrlDeps, std::vector<uint64_t>{});
    EXPECT_EQ(t.nodes[1].dataDeps, std::vector<uint64_t>{1});
    EXPECT_EQ(t.nodes[2].dataDeps, std::vector<uint64_t>{3317});
    EXPECT_EQ(t.nodes[3].dataDeps, std::vector<uint64_t>{1});
    EXPECT_EQ(t.nodes[5].dataDeps, std::vector<uint64_t>{21});
    EXPECT_EQ(t.nodes[6].dataDeps, (std::vector<uint64_t>{22, 3318}));
    EXPECT_EQ(strictErrors(t), "");
}

TEST(TraceRepair, AnAcyclicTraceKeepsItsBackwardEdges) {
    // A dependency on a larger id that closes no cycle is legitimate and stays.
    WorkloadTrace t = trace({node(5, NodeType::Comp, {9}), node(9, NodeType::Comp)});
    repairTrace(t);
    EXPECT_TRUE(t.assumptions.empty());
    EXPECT_EQ(t.nodes[0].dataDeps, std::vector<uint64_t>{9});
}

TEST(TraceRepair, HostSideCollectiveCallsRunAsHostOperators) {
    // c10d::allreduce_ as the converter writes it: a COMM_COLL with is_cpu_op and no comm_type.
    WorkloadNode call = node(1, NodeType::CommColl);
    call.name = "c10d::allreduce_(0)";
    call.isCpuOp = true;
    call.durationMicros = 151;
    WorkloadTrace t = trace({call});
    EXPECT_NE(strictErrors(t).find("COMM_COLL_NODE has is_cpu_op = true"), std::string::npos);
    repairTrace(t);
    EXPECT_EQ(t.assumptions.count(Assumption::HostCollective), 1u);
    EXPECT_EQ(t.nodes[0].type, NodeType::Comp);
    EXPECT_TRUE(t.nodes[0].isCpuOp);
    EXPECT_EQ(t.nodes[0].durationMicros, 151u);
    EXPECT_EQ(strictErrors(t), "");
}

TEST(TraceRepair, CollectiveTypeFromTheNcclOrC10dName) {
    WorkloadNode kernel = node(1, NodeType::CommColl);
    kernel.name = "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevComm*, unsigned long)";
    kernel.commSize = 4096;
    kernel.hasCommSize = true;
    WorkloadNode barrier = node(2, NodeType::CommColl, {1});
    barrier.name = "c10d::barrier";
    WorkloadNode unknown = node(3, NodeType::CommColl, {2});
    unknown.name = "my_collective";
    unknown.commSize = 8;
    unknown.hasCommSize = true;
    WorkloadTrace t = trace({kernel, barrier, unknown});
    repairTrace(t);
    EXPECT_EQ(t.nodes[0].commType, CollectiveType::ReduceScatter);
    EXPECT_EQ(t.nodes[1].commType, CollectiveType::AllReduce) << "a barrier is an all-reduce";
    EXPECT_EQ(t.nodes[1].commSize, 1u);
    EXPECT_EQ(t.assumptions.count(Assumption::CollectiveFromName), 2u);
    EXPECT_EQ(t.assumptions.count(Assumption::BarrierAsAllReduce), 1u);
    EXPECT_FALSE(t.nodes[2].hasCommType) << "no rule guesses an unknown name";
    EXPECT_NE(strictErrors(t).find("node 3 \"my_collective\": COMM_COLL_NODE lacks required "
                                   "attribute comm_type"),
              std::string::npos);
}

TEST(TraceRepair, NamesOfCollectivesAsPyTorchAndNcclWriteThem) {
    using CT = CollectiveType;
    const std::pair<const char*, CT> cases[] = {
        {"c10d::allreduce_", CT::AllReduce},
        {"nccl:all_reduce", CT::AllReduce},
        {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
         CT::AllReduce},
        {"c10d::_allgather_base_", CT::AllGather},
        {"nccl:_all_gather_base", CT::AllGather},
        {"ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", CT::AllGather},
        {"c10d::_reduce_scatter_base_", CT::ReduceScatter},
        {"c10d::alltoall_base_", CT::AllToAll},
        {"nccl:all_to_all", CT::AllToAll},
        {"ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
         CT::Broadcast},
        {"c10d::barrier", CT::Barrier},
        {"c10d::reduce_", CT::Reduce},
        {"c10d::gather_", CT::Gather},
        {"c10d::scatter_", CT::Scatter},
    };
    for (const auto& [name, type] : cases) {
        SCOPED_TRACE(name);
        ASSERT_TRUE(collectiveTypeFromName(name).has_value());
        EXPECT_EQ(*collectiveTypeFromName(name), type);
        EXPECT_FALSE(isPointToPointName(name));
    }
    for (const char* compute : {"aten::scatter_add", "aten::all", "void at::reduce_kernel<512>",
                                "c10d::send", "ncclDevKernel_SendRecv(ncclDevComm*)"})
        EXPECT_FALSE(collectiveTypeFromName(compute).has_value()) << compute;
    EXPECT_TRUE(isPointToPointName("c10d::send"));
    EXPECT_TRUE(isPointToPointName("c10d::recv_"));
    EXPECT_TRUE(isPointToPointName("ncclDevKernel_SendRecv(ncclDevComm*)"));
    EXPECT_FALSE(isPointToPointName("aten::send_to_device"));
}

TEST(TraceRepair, AssumptionLinesCountByKindOverTraces) {
    WorkloadTrace a = trace({node(1, NodeType::Comp, {}, {3}), node(2, NodeType::Comp, {1, 4})});
    WorkloadTrace b = a;
    b.file = "w.1.et";
    repairTrace(a);
    repairTrace(b);
    const auto lines = assumptionLines({a, b});
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0], "absent-parent: 4 dependencies on nodes absent from the file, counted as "
                        "met (4 absent ids, counted per trace; first at node 1 of w.0.et; in 2 "
                        "traces)");
    EXPECT_TRUE(assumptionLines({trace({node(1, NodeType::Comp)})}).empty());
}
