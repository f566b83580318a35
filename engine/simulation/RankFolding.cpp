#include "simulation/RankFolding.h"

#include "core/Error.h"
#include "simulation/Symmetry.h"
#include "trace/NodeIdentity.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace astrolabe {

namespace {

/// Why the run cannot fold whatever the traces hold; empty when it may.
std::string runObstacle(const SimulationSpec& spec, size_t traces) {
    if (std::string why = runSymmetryObstacle(spec); !why.empty())
        return why;
    if (spec.platform.graph)
        return "a graph platform has no coordinate symmetry";
    if (usesAlgorithm(spec.system, {AlgorithmKind::DoubleBinaryTree, AlgorithmKind::HalvingDoubling,
                                    AlgorithmKind::OneHalvingDoubling, AlgorithmKind::OneRing,
                                    AlgorithmKind::OneDirect, AlgorithmKind::InSwitch}))
        return "the algorithms include one that is not symmetric under coordinate shifts";
    if (traces < 2)
        return "a single NPU";
    return {};
}

/// Remote memory other than per-NPU expansion is shared: its queues see every NPU's accesses.
bool sharesRemoteMemory(const SimulationSpec& spec, const std::vector<WorkloadTrace>& traces) {
    if (spec.memory.type == RemoteMemoryType::PerNpuMemoryExpansion)
        return false;
    for (const WorkloadTrace& t : traces)
        for (const WorkloadNode& n : t.nodes)
            if (n.type == NodeType::MemLoad || n.type == NodeType::MemStore)
                return true;
    return false;
}

/// A cheap fingerprint of a trace's work, blind to peers and groups: NPUs that may share a class
/// share it.
uint64_t shapeOf(const WorkloadTrace& t) {
    uint64_t h = 0xcbf29ce484222325ULL;
    auto mix = [&h](uint64_t v) { h = (h ^ v) * 0x100000001b3ULL; };
    mix(t.nodes.size());
    for (const WorkloadNode& n : t.nodes) {
        mix(n.id);
        mix(static_cast<uint64_t>(n.type) << 8 | static_cast<uint64_t>(n.commType));
        mix(n.durationMicros);
        mix(n.commSize ^ n.tensorSize << 1 ^ n.numOps << 2);
        mix(n.dataDeps.size() << 16 | n.ctrlDeps.size());
    }
    return h;
}

/// The same work (trace/NodeIdentity.h) with the same id and dependencies, and both or neither
/// over all NPUs; peers and sub-groups are compared through the symmetry by the caller.
bool sameWorkAndIds(const WorkloadNode& a, const WorkloadNode& b, bool tensors) {
    return a.id == b.id && a.dataDeps == b.dataDeps && a.ctrlDeps == b.ctrlDeps &&
           a.pgName.empty() == b.pgName.empty() && sameWork(a, b, tensors);
}

/// True when `image` is `ring` rotated (the same cyclic order, any starting point).
bool isRotation(const std::vector<int>& image, const std::vector<int>& ring) {
    if (image.size() != ring.size())
        return false;
    if (image.empty())
        return true;
    const auto start = std::find(ring.begin(), ring.end(), image.front());
    if (start == ring.end())
        return false;
    const size_t k = static_cast<size_t>(start - ring.begin());
    for (size_t i = 0; i < image.size(); ++i)
        if (image[i] != ring[(i + k) % ring.size()])
            return false;
    return true;
}

} // namespace

RankFolding::RankFolding(const SimulationSpec& spec, const std::vector<WorkloadTrace>& traces,
                         const Topology& topology)
    : m_topology(topology) {
    m_obstacle = runObstacle(spec, traces.size());
    if (m_obstacle.empty() && sharesRemoteMemory(spec, traces))
        m_obstacle = "remote memory is shared between NPUs";
    if (m_obstacle.empty())
        m_obstacle = find(spec, traces);
    if (!m_obstacle.empty()) {
        m_digits.clear();
        m_orbitSize = 1;
    }
    if (m_obstacle.empty())
        for (int l = 0; l < topology.linkCount(); ++l) {
            const LinkInfo& info = topology.link(l);
            m_linkByEnds[static_cast<uint64_t>(info.src) << 32 | static_cast<uint32_t>(info.dst)]
                .push_back(l);
        }
    if (m_obstacle.empty() && spec.options.backend == NetworkBackend::CongestionAware)
        m_obstacle = findLinkOrbits();
    if (!m_obstacle.empty()) {
        m_digits.clear();
        m_orbitSize = 1;
        m_linkByEnds.clear();
    }
    m_rep.resize(traces.size());
    for (size_t n = 0; n < traces.size(); ++n) {
        int rep = static_cast<int>(n);
        for (const Digit& g : m_digits)
            rep = withDigit(rep, g, 0);
        m_rep[n] = rep;
        if (rep == static_cast<int>(n))
            m_representatives.push_back(rep);
    }
}

int RankFolding::digitOf(int x, const Digit& g) const {
    return m_topology.coordinate(x, g.dimension) / g.stride % g.radix;
}

int RankFolding::withDigit(int x, const Digit& g, int value) const {
    return x + (value - digitOf(x, g)) * g.stride * m_topology.stride(g.dimension);
}

int RankFolding::shift(int x, int by, int sign) const {
    for (const Digit& g : m_digits) {
        const int k = digitOf(by, g);
        if (k != 0)
            x = withDigit(x, g, (digitOf(x, g) + sign * k + g.radix) % g.radix);
    }
    return x;
}

int RankFolding::apply(int k, int x) const {
    for (const Digit& g : m_digits) {
        const int step = k % g.radix;
        k /= g.radix;
        if (step != 0)
            x = withDigit(x, g, (digitOf(x, g) + step) % g.radix);
    }
    return x;
}

std::string RankFolding::find(const SimulationSpec& spec,
                              const std::vector<WorkloadTrace>& traces) {
    const int npus = static_cast<int>(traces.size());
    std::vector<uint64_t> shape(traces.size());
    for (size_t n = 0; n < traces.size(); ++n)
        shape[n] = shapeOf(traces[n]);

    // Candidate digits, the largest radix (the most folding) first.
    std::vector<Digit> candidates;
    for (int d = 0; d < m_topology.dimensionCount(); ++d) {
        const int size = m_topology.size(d);
        const bool ring = m_topology.dimension(d).kind == BlockKind::Ring;
        for (int stride = 1; stride < size; ++stride) {
            if (size % stride != 0)
                continue;
            for (int radix = 2; stride * radix <= size; ++radix)
                if (size % (stride * radix) == 0 && (!ring || stride * radix == size))
                    candidates.push_back({d, stride, radix});
        }
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Digit& a, const Digit& b) { return a.radix > b.radix; });

    const auto& groups = spec.commGroups;
    const bool tensors = spec.system.trackLocalMemory;
    auto membersOf = [&](const std::string& pgName) -> const std::vector<int>* {
        const int id = communicatorGroupId(pgName);
        const auto it = groups.find(id);
        if (id <= 0 || it == groups.end() || it->second.size() == traces.size())
            return nullptr; // all NPUs (or unknown: the full run reports it)
        return &it->second;
    };
    // Is trace(g n) the image of trace(n) under g, for every n?
    auto equivariant = [&](const Digit& g) {
        m_digits = {g};
        std::map<std::pair<std::string, std::string>, bool> groupImages;
        std::vector<int> image;
        for (int n = 0; n < npus; ++n) {
            const int gn = apply(1, n);
            const WorkloadTrace& a = traces[static_cast<size_t>(n)];
            const WorkloadTrace& b = traces[static_cast<size_t>(gn)];
            if (shape[static_cast<size_t>(n)] != shape[static_cast<size_t>(gn)] ||
                a.nodes.size() != b.nodes.size())
                return false;
            for (size_t i = 0; i < a.nodes.size(); ++i) {
                const WorkloadNode& x = a.nodes[i];
                const WorkloadNode& y = b.nodes[i];
                if (!sameWorkAndIds(x, y, tensors))
                    return false;
                if (x.hasCommSrc && x.commSrc < traces.size() &&
                    static_cast<uint32_t>(apply(1, static_cast<int>(x.commSrc))) != y.commSrc)
                    return false;
                if (x.hasCommDst && x.commDst < traces.size() &&
                    static_cast<uint32_t>(apply(1, static_cast<int>(x.commDst))) != y.commDst)
                    return false;
                if (x.type != NodeType::CommColl || x.pgName == y.pgName)
                    continue;
                const auto key = std::make_pair(x.pgName, y.pgName);
                auto it = groupImages.find(key);
                if (it == groupImages.end()) {
                    const std::vector<int>* gx = membersOf(x.pgName);
                    const std::vector<int>* gy = membersOf(y.pgName);
                    bool ok = (gx == nullptr) == (gy == nullptr);
                    if (ok && gx) {
                        image.clear();
                        for (int m : *gx)
                            image.push_back(apply(1, m));
                        ok = isRotation(image, *gy);
                    }
                    it = groupImages.emplace(key, ok).first;
                }
                if (!it->second)
                    return false;
            }
        }
        return true;
    };

    // The communicator groups collectives run in, and whether any runs over all NPUs.
    std::vector<const std::vector<int>*> subGroups;
    bool wholeMachine = false;
    {
        std::map<std::string, bool> seen;
        for (const WorkloadTrace& t : traces)
            for (const WorkloadNode& node : t.nodes)
                if (node.type == NodeType::CommColl && seen.emplace(node.pgName, true).second) {
                    const std::vector<int>* members = membersOf(node.pgName);
                    if (members)
                        subGroups.push_back(members);
                    else
                        wholeMachine = true;
                }
    }
    // A message to a member m that is not simulated reaches rep(m) in the same group (its tag
    // names the group), so m's symmetry must map the group's ring onto itself. Collectives over
    // all NPUs run per-dimension phases, whose moves along a dimension only rotations commute
    // with.
    auto keepsGroups = [&](const Digit& g) {
        if (wholeMachine && g.stride * g.radix != m_topology.size(g.dimension))
            return false;
        m_digits = {g};
        std::vector<int> image;
        for (const std::vector<int>* group : subGroups) {
            // Only the groups of the representatives (digit 0) matter; the others are images.
            if (std::none_of(group->begin(), group->end(),
                             [&](int m) { return digitOf(m, g) == 0; }))
                continue;
            for (int m : *group) {
                if (digitOf(m, g) == 0)
                    continue;
                image.clear();
                for (int x : *group)
                    image.push_back(shift(x, m, +1));
                if (!isRotation(image, *group))
                    return false;
            }
        }
        return true;
    };

    std::vector<Digit> chosen;
    for (const Digit& c : candidates) {
        bool fits = true;
        for (const Digit& o : chosen)
            if (o.dimension == c.dimension &&
                !(o.stride % (c.stride * c.radix) == 0 || c.stride % (o.stride * o.radix) == 0))
                fits = false;
        if (fits && keepsGroups(c) && equivariant(c))
            chosen.push_back(c);
    }
    m_digits = chosen;
    m_orbitSize = 1;
    for (const Digit& g : m_digits)
        m_orbitSize *= g.radix;
    if (m_digits.empty())
        return "no two NPUs run the same work in corresponding roles";
    return {};
}

void RankFolding::expand(RunResult& result, std::vector<std::vector<std::string>> linesPerRep,
                         const CommGroups& groups) const {
    const int n = result.npuCount;
    std::vector<int> indexOfRep(static_cast<size_t>(n), -1);
    for (size_t i = 0; i < m_representatives.size(); ++i)
        indexOfRep[static_cast<size_t>(m_representatives[i])] = static_cast<int>(i);
    const std::vector<NpuSummary> reps = std::move(result.npus);
    result.npus.assign(static_cast<size_t>(n), {});
    for (int x = 0; x < n; ++x) {
        result.npus[static_cast<size_t>(x)] =
            reps.at(static_cast<size_t>(indexOfRep[static_cast<size_t>(representative(x))]));
        result.npus[static_cast<size_t>(x)].npu = x;
    }
    const size_t spans = result.collectives.size();
    replicateRecords(result, m_orbitSize, [this](int k, int npu) { return apply(k, npu); });
    // A copy's collective ran in the image of the representative's communicator group.
    std::map<std::vector<int>, int> idOfMembers;
    for (const auto& [id, members] : groups) {
        std::vector<int> sorted = members;
        std::sort(sorted.begin(), sorted.end());
        idOfMembers.emplace(std::move(sorted), id);
    }
    std::map<std::pair<int, int>, int> imageOf; // (k, group) -> group
    std::vector<int> image;
    for (size_t i = spans; i < result.collectives.size(); ++i) {
        CollectiveSpan& span = result.collectives[i];
        const auto it = groups.find(span.commGroup);
        if (span.commGroup <= 0 || it == groups.end())
            continue;
        const int k = static_cast<int>(i / spans);
        const auto [at, added] = imageOf.emplace(std::make_pair(k, span.commGroup), span.commGroup);
        if (added) {
            image.clear();
            for (int m : it->second)
                image.push_back(apply(k, m));
            std::sort(image.begin(), image.end());
            const auto found = idOfMembers.find(image);
            if (found != idOfMembers.end())
                at->second = found->second;
        }
        span.commGroup = at->second;
    }
    if (!result.memoryUsage.empty()) {
        result.memoryUsage.resize(static_cast<size_t>(n));
        for (int x = 0; x < n; ++x)
            if (!simulated(x))
                result.memoryUsage[static_cast<size_t>(x)] =
                    result.memoryUsage[static_cast<size_t>(representative(x))];
    }
    // Report lines as the NPUs finish (ties by NPU id), each rep's lines renamed.
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return result.npus[static_cast<size_t>(a)].finish <
               result.npus[static_cast<size_t>(b)].finish;
    });
    for (int x : order) {
        const int rep = representative(x);
        for (const std::string& line :
             linesPerRep.at(static_cast<size_t>(indexOfRep[static_cast<size_t>(rep)])))
            result.reportLines.push_back(renameNpuTag(line, rep, x));
    }
}

} // namespace astrolabe
