#pragma once
// "The same work": when two NPUs' nodes run alike. Written once, for every rule that lets one
// NPU stand for another (simulation/Symmetry.h, simulation/RankFolding.h).
//
// Every field of WorkloadNode and NodeDetail is listed below with its part in identity. The
// lists are checked against the structs at compile time (the count of members an aggregate
// initialiser takes), so a field added to either struct stops the engine from compiling until it
// is given a role here. A field given the role Unread is perturbed on every node of a workload
// by tests/engine/trace/NodeIdentityTest.cpp, which fails when the run changes: the executor
// must not read it.

#include "trace/WorkloadNode.h"

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace astrolabe {

/// How a node field takes part in node identity.
enum class NodeFieldRole : uint8_t {
    Work,    ///< read by the executor or recorded in the result: equal in the same work
    Tensors, ///< read only when local memory is tracked: then equal in the same work
    Id,      ///< the node's id: orders ready nodes; each rule relates ids its own way
    Deps,    ///< dependencies by id: each rule relates them its own way
    Peer,    ///< an NPU number: the same work up to the symmetry mapping the NPUs
    Group,   ///< the communicator group: the same work up to the symmetry mapping groups
    Detail,  ///< the out-of-line attributes, listed field by field
    Setup,   ///< read before the run into what every NPU shares (the communicator groups)
    Unread,  ///< read by nothing that runs
};

template <typename Struct, typename Member> struct NodeField {
    Member Struct::*member;
    const char* name;
    NodeFieldRole role;
};

template <typename Struct, typename Member>
NodeField(Member Struct::*, const char*, NodeFieldRole) -> NodeField<Struct, Member>;

/// The role tables, in a scope of their own so that the roles' short names stay in it.
struct NodeIdentity {
    using enum NodeFieldRole;

    /// Every member of WorkloadNode, in declaration order.
    static constexpr std::tuple nodeFields{
        NodeField{&WorkloadNode::id, "id", Id},
        NodeField{&WorkloadNode::durationMicros, "durationMicros", Work},
        NodeField{&WorkloadNode::numOps, "numOps", Work},
        NodeField{&WorkloadNode::tensorSize, "tensorSize", Work},
        NodeField{&WorkloadNode::commSize, "commSize", Work},
        NodeField{&WorkloadNode::name, "name", Work}, // recorded in activities, named in errors
        NodeField{&WorkloadNode::pgName, "pgName", Group},
        NodeField{&WorkloadNode::dataDeps, "dataDeps", Deps},
        NodeField{&WorkloadNode::ctrlDeps, "ctrlDeps", Deps},
        NodeField{&WorkloadNode::detail, "detail", Detail},
        NodeField{&WorkloadNode::commPriority, "commPriority", Work},
        NodeField{&WorkloadNode::commSrc, "commSrc", Peer},
        NodeField{&WorkloadNode::commDst, "commDst", Peer},
        NodeField{&WorkloadNode::commTag, "commTag", Work},
        NodeField{&WorkloadNode::type, "type", Work},
        NodeField{&WorkloadNode::commType, "commType", Work},
        NodeField{&WorkloadNode::isCpuOp, "isCpuOp", Work},
        NodeField{&WorkloadNode::hasNumOps, "hasNumOps", Work},
        NodeField{&WorkloadNode::hasTensorSize, "hasTensorSize", Work},
        NodeField{&WorkloadNode::hasCommType, "hasCommType", Work},
        NodeField{&WorkloadNode::hasCommSize, "hasCommSize", Work},
        NodeField{&WorkloadNode::hasCommSrc, "hasCommSrc", Work},
        NodeField{&WorkloadNode::hasCommDst, "hasCommDst", Work},
        NodeField{&WorkloadNode::hasCommTag, "hasCommTag", Work},
    };

    /// Every member of NodeDetail, in declaration order.
    static constexpr std::tuple detailFields{
        NodeField{&NodeDetail::startTimeMicros, "startTimeMicros", Unread},
        NodeField{&NodeDetail::involvedDim, "involvedDim", Work},
        NodeField{&NodeDetail::msgChunkCount, "msgChunkCount", Work},
        NodeField{&NodeDetail::msgChunkIndex, "msgChunkIndex", Work},
        NodeField{&NodeDetail::totalChunkCount, "totalChunkCount", Work},
        NodeField{&NodeDetail::inputsValues, "inputsValues", Setup},
        NodeField{&NodeDetail::inputs, "inputs", Tensors},
        NodeField{&NodeDetail::outputs, "outputs", Tensors},
    };
};

namespace identity {

/// Converts to any member type, so that T{AnyMember{}...} counts T's members.
struct AnyMember {
    template <typename T> operator T() const;
};

template <typename T, size_t... I> constexpr bool bracesTake(std::index_sequence<I...>) {
    return requires {
        T{(void(I), AnyMember{})...};
    };
}

/// How many members the aggregate T has (none of them an aggregate itself).
template <typename T, size_t N = 0> constexpr size_t memberCount() {
    if constexpr (bracesTake<T>(std::make_index_sequence<N + 1>{}))
        return memberCount<T, N + 1>();
    else
        return N;
}

/// How many entries of `fields` name the same member as another entry (0: none twice).
template <typename Fields> constexpr size_t repeatedMembers(const Fields& fields) {
    return std::apply(
        [](const auto&... all) {
            size_t same = 0;
            auto count = [&](const auto& one) {
                auto match = [&](const auto& other) {
                    if constexpr (std::is_same_v<decltype(one.member), decltype(other.member)>)
                        same += one.member == other.member ? 1 : 0;
                };
                (match(all), ...);
            };
            (count(all), ...);
            return same - sizeof...(all);
        },
        fields);
}

} // namespace identity

static_assert(identity::repeatedMembers(NodeIdentity::nodeFields) == 0 &&
                  identity::repeatedMembers(NodeIdentity::detailFields) == 0,
              "a member is listed twice in NodeIdentity");
static_assert(std::tuple_size_v<decltype(NodeIdentity::nodeFields)> ==
                  identity::memberCount<WorkloadNode>(),
              "WorkloadNode gained or lost a member: give it a role in NodeIdentity::nodeFields");
static_assert(std::tuple_size_v<decltype(NodeIdentity::detailFields)> ==
                  identity::memberCount<NodeDetail>(),
              "NodeDetail gained or lost a member: give it a role in NodeIdentity::detailFields");

/// Calls visit(field) for every entry of NodeIdentity::nodeFields, then of detailFields, while
/// it returns true; returns false when a call did.
template <typename Visit> constexpr bool allNodeFields(Visit&& visit) {
    return std::apply([&](const auto&... f) { return (visit(f) && ...); },
                      NodeIdentity::nodeFields) &&
           std::apply([&](const auto&... f) { return (visit(f) && ...); },
                      NodeIdentity::detailFields);
}

/// The member a field entry names, in `node` (through its detail for NodeDetail fields).
template <typename Member, typename Node>
decltype(auto) fieldOf(const NodeField<WorkloadNode, Member>& field, Node& node) {
    return (node.*field.member);
}
template <typename Member>
const Member& fieldOf(const NodeField<NodeDetail, Member>& field, const WorkloadNode& node) {
    return (*node.detail).*field.member;
}
template <typename Member>
Member& fieldOf(const NodeField<NodeDetail, Member>& field, WorkloadNode& node) {
    return node.detail.edit().*field.member;
}

/// The same work, leaving ids, dependencies, peers and groups to the caller's rule: every field
/// of role Work is equal, and those of role Tensors too when local memory is tracked.
inline bool sameWork(const WorkloadNode& a, const WorkloadNode& b, bool trackedTensors) {
    return allNodeFields([&](const auto& field) {
        // The Detail entry holds no work of its own: its fields are listed one by one.
        if constexpr (requires { fieldOf(field, a) == fieldOf(field, b); })
            if (field.role == NodeFieldRole::Work ||
                (trackedTensors && field.role == NodeFieldRole::Tensors))
                return fieldOf(field, a) == fieldOf(field, b);
        return true;
    });
}

} // namespace astrolabe
