// Node identity (trace/NodeIdentity.h): every field has a role, and the roles are honest. A field
// of role Work or Tensors, changed alone, makes two nodes different work; a field of role Unread,
// changed on every node of a workload, changes nothing in the run. With the compile-time checks
// that every member of WorkloadNode and NodeDetail is listed once, a field the executor reads
// cannot be added without either entering identity or failing here.
#include "trace/NodeIdentity.h"

#include "engine/golden/GoldenSpec.h"
#include "engine/golden/RunComparison.h"
#include "simulation/Symmetry.h"

#include <gtest/gtest.h>
#include <type_traits>

using namespace golden;

namespace {

/// Changes a field's value, whatever its type.
template <typename T> void perturb(T& value) {
    if constexpr (std::is_same_v<T, bool>)
        value = !value;
    else if constexpr (std::is_enum_v<T>)
        value = static_cast<T>(static_cast<std::underlying_type_t<T>>(value) + 1);
    else if constexpr (std::is_arithmetic_v<T>)
        value += 1;
    else if constexpr (std::is_same_v<T, std::string>)
        value += "x";
    else if constexpr (std::is_same_v<T, NodeText>)
        value = value.str() + "x";
    else if constexpr (std::is_same_v<T, std::vector<bool>>)
        value.push_back(true);
    else
        value.push_back({});
}

/// A node with every attribute set, so that each change is a real change.
WorkloadNode fullNode() {
    WorkloadNode n = coll(7, CollectiveType::AllGather, kMiB, {3});
    n.ctrlDeps = {2};
    n.pgName = "1";
    n.commPriority = 2;
    n.hasNumOps = n.hasTensorSize = true;
    n.numOps = 1000;
    n.tensorSize = 100;
    n.durationMicros = 5;
    NodeDetail& d = n.detail.edit();
    d.startTimeMicros = 11;
    d.involvedDim = {true, false};
    d.inputs = {{"a", 64}};
    d.outputs = {{"b", 64}};
    return n;
}

/// The entry that stands for the out-of-line attributes (listed one by one after it).
template <typename Field>
constexpr bool isDetailEntry = std::is_same_v<Field, NodeField<WorkloadNode, NodeDetailRef>>;

/// Calls check(name, role, changed) for every listed field but the detail entry, with a copy of
/// fullNode() in which that field alone differs.
template <typename Check> void forEachChangedField(Check check) {
    allNodeFields([&](const auto& field) {
        if constexpr (!isDetailEntry<std::remove_cvref_t<decltype(field)>>) {
            WorkloadNode changed = fullNode();
            perturb(fieldOf(field, changed));
            check(field.name, field.role, changed);
        }
        return true;
    });
}

/// Every node type the executor runs, on 4 NPUs, with start times recorded.
std::vector<WorkloadTrace> mixedWorkload() {
    std::vector<WorkloadTrace> traces(4);
    for (int n = 0; n < 4; ++n) {
        auto& nodes = traces[static_cast<size_t>(n)].nodes;
        nodes.push_back(comp(1, 3));
        nodes.push_back(coll(2, CollectiveType::AllReduce, kMiB, {1}));
        auto [send, recv] = sendRecv(3, n, (n + 1) % 4, 9, 4096);
        recv.commSrc = static_cast<uint32_t>((n + 3) % 4);
        recv.id = 4;
        send.dataDeps = {2};
        recv.dataDeps = {2};
        nodes.push_back(send);
        nodes.push_back(recv);
        nodes.push_back(comp(5, 2, {4}));
        for (WorkloadNode& node : nodes)
            node.detail.edit().startTimeMicros = 100 * node.id;
    }
    return traces;
}

} // namespace

TEST(NodeIdentity, EveryWorkFieldAloneMakesDifferentWork) {
    const WorkloadNode base = fullNode();
    int work = 0, tensors = 0, related = 0;
    forEachChangedField([&](const char* name, NodeFieldRole role, const WorkloadNode& changed) {
        if (role == NodeFieldRole::Work) {
            ++work;
            EXPECT_FALSE(sameWork(base, changed, false)) << name;
            EXPECT_FALSE(sameWork(base, changed, true)) << name;
        } else if (role == NodeFieldRole::Tensors) {
            ++tensors;
            EXPECT_TRUE(sameWork(base, changed, false)) << name << ": untracked tensors";
            EXPECT_FALSE(sameWork(base, changed, true)) << name;
        } else {
            // Ids, dependencies, peers and groups: each rule relates them through its symmetry.
            ++related;
            EXPECT_TRUE(sameWork(base, changed, true)) << name;
        }
    });
    EXPECT_EQ(work, 21);
    EXPECT_EQ(tensors, 2);
    EXPECT_EQ(related, 8);
}

TEST(NodeIdentity, FieldsOfRoleUnreadChangeNothingInARun) {
    SimulationSpec s = spec({dim(BlockKind::Ring, 4)});
    s.options.exploitSymmetry = false;
    const std::vector<WorkloadTrace> traces = mixedWorkload();
    const auto reference = runTraces(s, traces);
    int unread = 0;
    allNodeFields([&](const auto& field) {
        if (field.role != NodeFieldRole::Unread)
            return true;
        if constexpr (!isDetailEntry<std::remove_cvref_t<decltype(field)>>) {
            ++unread;
            std::vector<WorkloadTrace> changed = traces;
            for (WorkloadTrace& t : changed)
                for (WorkloadNode& node : t.nodes)
                    perturb(fieldOf(field, node));
            EXPECT_EQ(runDifference(*runTraces(s, changed), *reference), "")
                << field.name << " is read by the run: give it the role Work";
        }
        return true;
    });
    EXPECT_GE(unread, 1);
}

TEST(NodeIdentity, SymmetryRefusesATraceThatDiffersInOneWorkField) {
    SimulationSpec s = spec({dim(BlockKind::Ring, 4)});
    std::vector<WorkloadTrace> traces(4);
    for (WorkloadTrace& t : traces)
        t.nodes = {comp(1, 3), coll(2, CollectiveType::AllReduce, kMiB, {1})};
    ASSERT_EQ(symmetryObstacle(s, traces), "");
    traces[2].nodes[1].name = "renamed";
    EXPECT_EQ(symmetryObstacle(s, traces), "NPU 2 runs a different trace");
    traces[2].nodes[1].name = traces[0].nodes[1].name;
    traces[2].nodes[1].commPriority = 1;
    EXPECT_EQ(symmetryObstacle(s, traces), "NPU 2 runs a different trace");
}
