#include "engine/golden/RandomWorkload.h"

#include "engine/golden/GoldenSpec.h"
#include "topology/Topology.h"

#include <algorithm>
#include <map>
#include <random>
#include <stdexcept>

namespace golden {

namespace {

using BK = BlockKind;
using CT = CollectiveType;

struct Rng {
    std::mt19937_64 engine;
    int between(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(engine); }
    bool chance(int percent) { return between(1, 100) <= percent; }
    template <typename T> T of(const std::vector<T>& items) {
        return items[static_cast<size_t>(between(0, static_cast<int>(items.size()) - 1))];
    }
};

enum class OpKind { Comp, Collective, GroupCollective, SendRecv };

/// One step of the template every NPU runs.
struct Op {
    OpKind kind = OpKind::Comp;
    uint64_t micros = 0;
    CT type = CT::AllReduce;
    uint64_t bytes = 0;
    int dimension = 0; ///< send/recv: along this dimension, `steps` ahead
    int steps = 1;
    std::vector<size_t> extraDeps; ///< earlier ops this one also waits for
};

/// The platform: 1 to 3 dimensions of 2 to 8, 4 or 3 NPUs (at most 27).
std::vector<DimensionSpec> randomPlatform(Rng& rng, std::string& description) {
    const int count = rng.between(1, 3);
    const int largest = count == 1 ? 8 : count == 2 ? 4 : 3;
    std::vector<DimensionSpec> dims;
    for (int d = 0; d < count; ++d) {
        const BK kind = rng.of(std::vector<BK>{BK::Ring, BK::FullyConnected, BK::Switch});
        const int size = rng.between(2, largest);
        dims.push_back(dim(kind, size, rng.of(std::vector<double>{25, 50, 200}),
                           rng.of(std::vector<double>{100, 500})));
        description += std::string(d ? " x " : "") + blockKindName(kind) + std::to_string(size);
    }
    return dims;
}

/// Communicator groups 1..L: the NPUs that share every coordinate but those of `spanned`, in
/// ascending order (each group a line or plane of the platform, mapped onto another by shifts).
CommGroups shiftedGroups(const Topology& topology, const std::vector<bool>& spanned,
                         std::vector<int>& groupOf) {
    const int npus = topology.npuCount();
    std::map<std::vector<int>, int> idOfKey;
    CommGroups groups;
    groupOf.assign(static_cast<size_t>(npus), 0);
    for (int n = 0; n < npus; ++n) {
        std::vector<int> key;
        for (int d = 0; d < topology.dimensionCount(); ++d)
            key.push_back(spanned[static_cast<size_t>(d)] ? -1 : topology.coordinate(n, d));
        const auto [it, added] = idOfKey.emplace(key, static_cast<int>(idOfKey.size()) + 1);
        groups[it->second].push_back(n);
        groupOf[static_cast<size_t>(n)] = it->second;
    }
    return groups;
}

std::vector<Op> randomTemplate(Rng& rng, const Topology& topology, std::string& description) {
    std::vector<Op> ops(static_cast<size_t>(rng.between(3, 8)));
    const std::vector<CT> types{CT::AllReduce, CT::AllGather, CT::ReduceScatter, CT::AllToAll};
    for (size_t i = 0; i < ops.size(); ++i) {
        Op& op = ops[i];
        op.kind = rng.of(std::vector<OpKind>{OpKind::Comp, OpKind::Collective,
                                             OpKind::GroupCollective, OpKind::SendRecv});
        if (i == 0)
            op.kind = OpKind::Comp; // every template has a compute node to lengthen
        op.micros = static_cast<uint64_t>(rng.between(1, 20));
        op.type = rng.of(types);
        op.bytes = 1024 * static_cast<uint64_t>(rng.between(1, 64));
        op.dimension = rng.between(0, topology.dimensionCount() - 1);
        op.steps = rng.between(1, topology.size(op.dimension) - 1);
        for (size_t j = 0; j + 1 < i; ++j)
            if (rng.chance(20))
                op.extraDeps.push_back(j);
        static const char* const letters = "CAGS";
        description += letters[static_cast<int>(op.kind)];
    }
    return ops;
}

WorkloadNode& nodeOf(RandomWorkload& w, int npu, uint64_t id) {
    for (WorkloadNode& node : w.traces[static_cast<size_t>(npu)].nodes)
        if (node.id == id)
            return node;
    throw std::logic_error("no node " + std::to_string(id));
}

/// Ops of `kind` in the template, by index.
std::vector<size_t> opsOf(const std::vector<Op>& ops, OpKind kind) {
    std::vector<size_t> out;
    for (size_t i = 0; i < ops.size(); ++i)
        if (ops[i].kind == kind)
            out.push_back(i);
    return out;
}

/// Two NPUs a and b exchange the destinations of one send: a sends to b's destination and b to
/// a's; their receivers expect them accordingly. False when no pair keeps every send off itself.
bool exchangePeers(Rng& rng, const std::vector<Op>& ops, const std::vector<uint64_t>& firstIdOf,
                   const Topology& topology, RandomWorkload& w) {
    const std::vector<size_t> pairs = opsOf(ops, OpKind::SendRecv);
    if (pairs.empty())
        return false;
    const size_t i = rng.of(pairs);
    auto to = [&](int n) { return topology.neighbour(n, ops[i].dimension, ops[i].steps); };
    for (int attempt = 0; attempt < 20; ++attempt) {
        const int a = rng.between(0, topology.npuCount() - 1);
        const int b = rng.between(0, topology.npuCount() - 1);
        if (a == b || to(a) == b || to(b) == a)
            continue;
        nodeOf(w, a, firstIdOf[i]).commDst = static_cast<uint32_t>(to(b));
        nodeOf(w, b, firstIdOf[i]).commDst = static_cast<uint32_t>(to(a));
        nodeOf(w, to(b), firstIdOf[i] + 1).commSrc = static_cast<uint32_t>(a);
        nodeOf(w, to(a), firstIdOf[i] + 1).commSrc = static_cast<uint32_t>(b);
        w.description += ": NPUs " + std::to_string(a) + " and " + std::to_string(b) +
                         " exchange the peers of op " + std::to_string(i);
        return true;
    }
    return false;
}

/// Two NPUs of different groups change places (their collectives name their new groups), or,
/// with a single group of three or more, two members swap places in its ring.
bool moveGroupMembers(Rng& rng, const std::vector<Op>& ops, const std::vector<uint64_t>& firstIdOf,
                      std::vector<int>& groupOf, RandomWorkload& w) {
    const std::vector<size_t> grouped = opsOf(ops, OpKind::GroupCollective);
    CommGroups& groups = w.spec.commGroups;
    if (grouped.empty())
        return false;
    const int g1 = rng.between(1, static_cast<int>(groups.size()));
    std::vector<int>& first = groups[g1];
    const auto p = static_cast<size_t>(rng.between(0, static_cast<int>(first.size()) - 1));
    if (groups.size() == 1) {
        if (first.size() < 3)
            return false;
        const size_t q = (p + 1 + static_cast<size_t>(rng.between(0, 1))) % first.size();
        std::swap(first[p], first[q]);
        w.description +=
            ": group 1 swaps its members " + std::to_string(p) + " and " + std::to_string(q);
        return true;
    }
    int g2 = rng.between(1, static_cast<int>(groups.size()) - 1);
    g2 += g2 >= g1 ? 1 : 0;
    std::vector<int>& second = groups[g2];
    const auto q = static_cast<size_t>(rng.between(0, static_cast<int>(second.size()) - 1));
    const int a = first[p], b = second[q];
    std::swap(first[p], second[q]);
    groupOf[static_cast<size_t>(a)] = g2;
    groupOf[static_cast<size_t>(b)] = g1;
    for (size_t i : grouped) {
        nodeOf(w, a, firstIdOf[i]).pgName = std::to_string(g2);
        nodeOf(w, b, firstIdOf[i]).pgName = std::to_string(g1);
    }
    w.description += ": NPUs " + std::to_string(a) + " and " + std::to_string(b) +
                     " exchange groups " + std::to_string(g1) + " and " + std::to_string(g2);
    return true;
}

/// One deliberate asymmetry, a quarter of workloads none; falls back to a longer compute node
/// where the template has no send or no grouped collective to disturb.
void applyAsymmetry(Rng& rng, const std::vector<Op>& ops, const std::vector<uint64_t>& firstIdOf,
                    const Topology& topology, std::vector<int>& groupOf, RandomWorkload& w) {
    w.asymmetry = static_cast<Asymmetry>(rng.between(0, 3));
    w.description += std::string(", asymmetry ") + asymmetryName(w.asymmetry);
    if (w.asymmetry == Asymmetry::Peer && exchangePeers(rng, ops, firstIdOf, topology, w))
        return;
    if (w.asymmetry == Asymmetry::Group && moveGroupMembers(rng, ops, firstIdOf, groupOf, w))
        return;
    if (w.asymmetry == Asymmetry::None)
        return;
    if (w.asymmetry != Asymmetry::NodeSize)
        w.description += " (none possible: node size)";
    w.asymmetry = Asymmetry::NodeSize;
    const size_t i = rng.of(opsOf(ops, OpKind::Comp));
    const int npu = rng.between(0, topology.npuCount() - 1);
    nodeOf(w, npu, firstIdOf[i]).durationMicros += static_cast<uint64_t>(rng.between(1, 3));
    w.description += ": NPU " + std::to_string(npu) + " runs op " + std::to_string(i) + " longer";
}

} // namespace

const char* asymmetryName(Asymmetry a) {
    switch (a) {
    case Asymmetry::None:
        return "none";
    case Asymmetry::NodeSize:
        return "node size";
    case Asymmetry::Peer:
        return "peer";
    case Asymmetry::Group:
        return "group";
    }
    return "?";
}

RandomWorkload randomWorkload(uint64_t seed, NetworkBackend backend) {
    Rng rng{std::mt19937_64(seed)};
    RandomWorkload w;
    w.description = "seed " + std::to_string(seed) + ", " + networkBackendName(backend) + ", ";
    const std::vector<DimensionSpec> dims = randomPlatform(rng, w.description);
    w.spec = spec(dims, rng.chance(50) ? "ring" : "direct", backend);
    w.spec.system.preferredDatasetSplits = rng.between(1, 2);
    w.spec.system.activeChunksPerDimension = rng.between(1, 2);
    w.spec.options.exploitSymmetry = true;
    const Topology topology(w.spec.platform);
    const int npus = topology.npuCount();

    std::vector<bool> spanned(dims.size());
    for (size_t d = 0; d < dims.size(); ++d)
        spanned[d] = rng.chance(50);
    spanned[static_cast<size_t>(rng.between(0, static_cast<int>(dims.size()) - 1))] = true;
    std::vector<int> groupOf;
    w.spec.commGroups = shiftedGroups(topology, spanned, groupOf);
    w.description += ", groups of " + std::to_string(w.spec.commGroups.begin()->second.size());

    w.description += ", template ";
    const std::vector<Op> ops = randomTemplate(rng, topology, w.description);
    // Node ids, the same on every NPU: a send/recv pair takes two, the receive last.
    std::vector<uint64_t> firstIdOf(ops.size()), lastIdOf(ops.size());
    for (size_t i = 0, id = 1; i < ops.size(); ++i) {
        firstIdOf[i] = id;
        id += ops[i].kind == OpKind::SendRecv ? 2 : 1;
        lastIdOf[i] = id - 1;
    }
    w.traces.resize(static_cast<size_t>(npus));
    for (int n = 0; n < npus; ++n) {
        std::vector<WorkloadNode>& nodes = w.traces[static_cast<size_t>(n)].nodes;
        for (size_t i = 0; i < ops.size(); ++i) {
            const Op& op = ops[i];
            const uint64_t id = firstIdOf[i];
            std::vector<uint64_t> deps;
            if (i > 0)
                deps.push_back(lastIdOf[i - 1]);
            for (size_t j : op.extraDeps)
                deps.push_back(lastIdOf[j]);
            switch (op.kind) {
            case OpKind::Comp:
                nodes.push_back(comp(id, op.micros, deps));
                break;
            case OpKind::Collective:
            case OpKind::GroupCollective:
                nodes.push_back(coll(id, op.type, op.bytes, deps));
                if (op.kind == OpKind::GroupCollective)
                    nodes.back().pgName = std::to_string(groupOf[static_cast<size_t>(n)]);
                break;
            case OpKind::SendRecv: {
                const int to = topology.neighbour(n, op.dimension, op.steps);
                const int from =
                    topology.neighbour(n, op.dimension, topology.size(op.dimension) - op.steps);
                const auto tag = static_cast<uint32_t>(i + 1);
                WorkloadNode send = sendRecv(id, n, to, tag, op.bytes).first;
                WorkloadNode recv = sendRecv(id + 1, from, n, tag, op.bytes).second;
                send.name = "send" + std::to_string(i);
                recv.name = "recv" + std::to_string(i);
                send.dataDeps = deps;
                recv.dataDeps = std::move(deps);
                nodes.push_back(std::move(send));
                nodes.push_back(std::move(recv));
                break;
            }
            }
        }
    }
    applyAsymmetry(rng, ops, firstIdOf, topology, groupOf, w);
    return w;
}

} // namespace golden
