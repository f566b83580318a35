#include "collective/PhasePlan.h"

#include "collective/DimensionScheduler.h"
#include "core/Error.h"

#include <algorithm>

namespace astrolabe {

uint64_t phaseOutputBytes(CollectiveKind kind, int n, uint64_t input) {
    switch (kind) {
    case CollectiveKind::ReduceScatter:
        return input / static_cast<uint64_t>(n);
    case CollectiveKind::AllGather:
        return input * static_cast<uint64_t>(n);
    case CollectiveKind::AllReduce:
    case CollectiveKind::AllToAll:
        return input;
    }
    return input;
}

namespace {

bool isPowerOfTwo(int n) {
    return n > 0 && (n & (n - 1)) == 0;
}

bool isWholeMachine(AlgorithmKind k) {
    return k == AlgorithmKind::OneRing || k == AlgorithmKind::OneDirect ||
           k == AlgorithmKind::OneHalvingDoubling;
}

/// The per-dimension algorithm a "one*" entry runs on its whole-machine ring.
AlgorithmSpec baseAlgorithm(AlgorithmSpec a) {
    switch (a.kind) {
    case AlgorithmKind::OneRing:
        a.kind = AlgorithmKind::Ring;
        break;
    case AlgorithmKind::OneDirect:
        a.kind = AlgorithmKind::Direct;
        break;
    case AlgorithmKind::OneHalvingDoubling:
        a.kind = AlgorithmKind::HalvingDoubling;
        break;
    default:
        break;
    }
    return a;
}

struct Step {
    CollectiveKind kind;
    int logical; ///< index into the logical dimension list
};

void checkRunnable(const AlgorithmSpec& a, CollectiveKind kind, int n, const PhaseSpec& phase,
                   const Topology& topology, const std::string& sourceFile) {
    if (a.kind == AlgorithmKind::InSwitch) {
        if (phase.dimension < 0)
            throw Error(ErrorKind::Unsupported,
                        "inSwitch needs a Switch dimension, but this collective runs over a "
                        "communicator group whose members are not all on one line of a Switch "
                        "dimension, so it runs as a logical ring of its members",
                        {},
                        "give the platform's dimensions one algorithm each, inSwitch at the "
                        "Switch dimension that joins the group's members");
        // On a graph any logical dimension may combine in a switch: Topology::switchDevice()
        // picks the line's switch, or says that there is none.
        if (!topology.isGraph() && topology.dimension(phase.dimension).kind != BlockKind::Switch) {
            std::string message = "inSwitch needs a Switch dimension, but dimension ";
            message += std::to_string(phase.dimension);
            message += " is a ";
            message += blockKindName(topology.dimension(phase.dimension).kind);
            throw Error(
                ErrorKind::Validation, std::move(message),
                {sourceFile, 0, 0, std::string(collectiveKindName(kind)) + "-implementation"},
                "use inSwitch only at the positions of Switch dimensions");
        }
        if (kind == CollectiveKind::AllToAll)
            throw Error(ErrorKind::Unsupported,
                        "inSwitch cannot run an all-to-all: a switch has nothing to combine in "
                        "one (every NPU sends different data to every other)",
                        {}, "use direct or ring in all-to-all-implementation");
        return;
    }
    if (a.kind == AlgorithmKind::HalvingDoubling) {
        if (kind == CollectiveKind::AllToAll)
            throw Error(ErrorKind::Unsupported,
                        "halvingDoubling cannot run an all-to-all (ASTRA-sim exits with "
                        "\"unknown communication type for HalvingDoubling\")",
                        {}, "use ring or direct in all-to-all-implementation");
        if (!isPowerOfTwo(n))
            throw Error(ErrorKind::Unsupported,
                        "halvingDoubling needs a power-of-two number of NPUs per dimension, "
                        "found " +
                            std::to_string(n),
                        {}, "use ring or direct for this dimension");
    }
    if (a.kind == AlgorithmKind::DoubleBinaryTree && !isPowerOfTwo(n))
        throw Error(ErrorKind::Unsupported,
                    "doubleBinaryTree needs a power-of-two number of NPUs per dimension, found " +
                        std::to_string(n),
                    {}, "use ring or direct for this dimension");
}

/// A communicator group whose members all sit on one line of a Switch dimension d (they
/// differ in d's coordinate only) whose algorithm is inSwitch: that line's switch combines for
/// the group, as SHARP-style switches do for sub-groups. -1 otherwise (the group's own ring).
int inSwitchDimensionOf(const std::vector<int>& members, const Topology& topology,
                        const std::vector<AlgorithmSpec>& list) {
    if (members.size() < 2)
        return -1;
    const int d = topology.lowestDifferingDimension(members[0], members[1]);
    if (d < 0 || static_cast<size_t>(d) >= list.size() ||
        list[static_cast<size_t>(d)].kind != AlgorithmKind::InSwitch ||
        (!topology.isGraph() && topology.dimension(d).kind != BlockKind::Switch))
        return -1;
    for (int m : members)
        for (int e = 0; e < topology.dimensionCount(); ++e)
            if (e != d && topology.coordinate(m, e) != topology.coordinate(members[0], e))
                return -1;
    return d;
}

} // namespace

std::vector<PhaseSpec> planPhases(const PlanInput& in, const Topology& topology,
                                  const SystemConfig& system, int queuesPerDim,
                                  QueueCursor& cursor) {
    const std::vector<AlgorithmSpec>& list = system.algorithms(in.kind);
    if (list.empty())
        throw Error(
            ErrorKind::Validation,
            std::string("the workload uses an ") + collectiveKindName(in.kind) +
                " but the system configuration has no " + collectiveKindName(in.kind) +
                "-implementation",
            {system.sourceFile, 0, 0, std::string(collectiveKindName(in.kind)) + "-implementation"},
            "add e.g. \"" + std::string(collectiveKindName(in.kind)) +
                "-implementation\": [\"ring\"]");
    const int Q = std::max(1, queuesPerDim);
    if (cursor.roundRobin.size() < static_cast<size_t>(topology.dimensionCount()))
        cursor.roundRobin.assign(static_cast<size_t>(topology.dimensionCount()), 0);

    // Logical dimensions: rings (or trees) over network dimensions, or one whole-machine or
    // communicator-group ring.
    std::vector<LogicalRing> rings;
    std::vector<AlgorithmSpec> algorithms;
    std::vector<int> dims;
    std::vector<bool> active;
    if (in.groupMembers) {
        const std::vector<int>& members = *in.groupMembers;
        const int switchDim = inSwitchDimensionOf(members, topology, list);
        AlgorithmSpec a =
            list.size() > 1 ? AlgorithmSpec{AlgorithmKind::Ring, 0} : baseAlgorithm(list.front());
        if (switchDim >= 0)
            a = AlgorithmSpec{AlgorithmKind::InSwitch, 0};
        const auto it = std::find(members.begin(), members.end(), in.npu);
        LogicalRing ring;
        ring.size = static_cast<int>(members.size());
        ring.myIndex = static_cast<int>(it - members.begin());
        ring.members = &members;
        ring.local = switchDim < 0;
        rings.push_back(ring);
        algorithms.push_back(a);
        dims.push_back(switchDim);
        active.push_back(ring.size > 1);
    } else {
        if (list.size() > static_cast<size_t>(topology.dimensionCount()))
            throw Error(ErrorKind::Validation,
                        std::string(collectiveKindName(in.kind)) + "-implementation lists " +
                            std::to_string(list.size()) + " algorithms but the platform has " +
                            std::to_string(topology.dimensionCount()) + " dimensions",
                        {system.sourceFile, 0, 0,
                         std::string(collectiveKindName(in.kind)) + "-implementation"},
                        "give at most one algorithm per network dimension");
        for (size_t d = 0; d < list.size(); ++d) {
            const bool involved =
                !in.involvedDims || d >= in.involvedDims->size() || (*in.involvedDims)[d];
            if (isWholeMachine(list[d].kind)) {
                LogicalRing ring;
                ring.size = topology.npuCount();
                ring.myIndex = in.npu;
                rings.push_back(ring);
                algorithms.push_back(baseAlgorithm(list[d]));
                dims.push_back(static_cast<int>(d));
                active.push_back(ring.size > 1);
                break;
            }
            const int dim = static_cast<int>(d);
            LogicalRing ring;
            ring.size = topology.size(dim);
            ring.myIndex = topology.coordinate(in.npu, dim);
            ring.stride = topology.stride(dim);
            ring.base = in.npu - ring.myIndex * ring.stride;
            rings.push_back(ring);
            algorithms.push_back(list[d]);
            dims.push_back(dim);
            active.push_back(involved && ring.size > 1);
        }
    }

    std::vector<int> order;
    for (size_t i = 0; i < rings.size(); ++i)
        if (active[i])
            order.push_back(static_cast<int>(i));
    if (in.scheduler)
        order = in.scheduler->orderFor(in.kind, in.chunkBytes, order);
    else if (in.kind == CollectiveKind::AllGather)
        std::reverse(order.begin(), order.end());
    std::vector<Step> steps;
    switch (in.kind) {
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::AllToAll:
    case CollectiveKind::AllGather:
        for (int i : order)
            steps.push_back({in.kind, i});
        break;
    case CollectiveKind::AllReduce:
        if (in.scheduler && in.scheduler->splitsAllReduce() && order.size() > 1) {
            // Themis: reduce-scatter over the chosen order, all-gather back in reverse.
            for (int i : order)
                steps.push_back({CollectiveKind::ReduceScatter, i});
            for (auto it = order.rbegin(); it != order.rend(); ++it)
                steps.push_back({CollectiveKind::AllGather, *it});
        } else if (system.collectiveOptimization == CollectiveOptimization::LocalBWAware &&
                   order.size() > 1) {
            for (size_t k = 0; k + 1 < order.size(); ++k)
                steps.push_back({CollectiveKind::ReduceScatter, order[k]});
            steps.push_back({CollectiveKind::AllReduce, order.back()});
            for (size_t k = order.size() - 1; k-- > 0;)
                steps.push_back({CollectiveKind::AllGather, order[k]});
        } else {
            for (int i : order)
                steps.push_back({CollectiveKind::AllReduce, i});
        }
        break;
    }

    const bool localBW = in.kind == CollectiveKind::AllReduce &&
                         system.collectiveOptimization == CollectiveOptimization::LocalBWAware;
    std::vector<PhaseSpec> phases;
    uint64_t bytes = in.chunkBytes;
    for (const Step& step : steps) {
        PhaseSpec p;
        p.kind = step.kind;
        p.algorithm = algorithms[static_cast<size_t>(step.logical)];
        p.ring = rings[static_cast<size_t>(step.logical)];
        p.dimension = dims[static_cast<size_t>(step.logical)];
        p.inputBytes = bytes;
        checkRunnable(p.algorithm, p.kind, p.ring.size, p, topology, system.sourceFile);
        if (p.algorithm.kind == AlgorithmKind::InSwitch) {
            try {
                p.switchDevice = topology.switchDevice(in.npu, p.dimension);
            } catch (const Error& e) { // a graph without a switch for this line: say where
                throw Error(e.kind(), e.message(),
                            {system.sourceFile, 0, 0,
                             std::string(collectiveKindName(p.kind)) + "-implementation"},
                            e.hint());
            }
        }
        const int queueDim = std::max(0, p.dimension);
        uint32_t& rr = cursor.roundRobin[static_cast<size_t>(queueDim)];
        int q = 0;
        if (localBW) {
            const int half = Q / 2;
            if (p.kind == CollectiveKind::AllGather) {
                q = half + static_cast<int>(rr++ % static_cast<uint32_t>(Q - half));
                p.clockwise = false;
            } else {
                q = half == 0 ? 0 : static_cast<int>(rr++ % static_cast<uint32_t>(half));
                p.clockwise = true;
            }
        } else {
            q = static_cast<int>(rr++ % static_cast<uint32_t>(Q));
            p.clockwise = !(Q > 1 && q >= Q / 2);
        }
        p.queue = queueDim * Q + q;
        bytes = phaseOutputBytes(p.kind, p.ring.size, bytes);
        phases.push_back(p);
    }
    return phases;
}

} // namespace astrolabe
