#include "plan/NetworkCosts.h"

#include "core/Error.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::plan {
namespace {

/// The algorithm a communicator group's ring runs (collective/PhasePlan.cpp): ring when the
/// list names one per dimension, else the one entry's base algorithm.
AlgorithmKind groupAlgorithm(const std::vector<AlgorithmSpec>& list) {
    if (list.size() != 1)
        return AlgorithmKind::Ring;
    switch (list.front().kind) {
    case AlgorithmKind::OneRing:
        return AlgorithmKind::Ring;
    case AlgorithmKind::OneDirect:
        return AlgorithmKind::Direct;
    case AlgorithmKind::OneHalvingDoubling:
        return AlgorithmKind::HalvingDoubling;
    default:
        return list.front().kind;
    }
}

} // namespace

NetworkCosts::NetworkCosts(const PlatformSpec& platform, const SystemConfig& system) {
    if (platform.graph)
        throw Error(ErrorKind::Unsupported,
                    "the parallelism planner's network closed forms need a dimensional platform "
                    "(Ring, FullyConnected and Switch blocks), found a graph platform",
                    {platform.sourceFile, 0, 0, "platform.graph"});
    long below = 1;
    for (const DimensionSpec& d : platform.dimensions) {
        Dimension dim;
        dim.kind = d.kind;
        dim.size = std::max(1, d.size);
        dim.below = below;
        dim.bytesPerSecond = d.bandwidthBytesPerSecond > 0 ? d.bandwidthBytesPerSecond : 1;
        dim.latencySeconds = d.latencyNs * 1e-9;
        m_dims.push_back(dim);
        below *= dim.size;
    }
    m_npus = static_cast<int>(below);
    const CollectiveKind kinds[] = {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter,
                                    CollectiveKind::AllGather, CollectiveKind::AllToAll};
    m_algorithm.assign(8, AlgorithmKind::Ring);
    const CollectiveType types[] = {CollectiveType::AllReduce, CollectiveType::ReduceScatter,
                                    CollectiveType::AllGather, CollectiveType::AllToAll};
    for (size_t i = 0; i < 4; ++i)
        m_algorithm[size_t(types[i])] = groupAlgorithm(system.algorithms(kinds[i]));
    m_endpointSeconds = double(system.endpointDelayNs) * 1e-9;
    m_localMemoryBytesPerSecond = system.localMemBandwidthGBps * 1e9;
}

int NetworkCosts::dimensionOfStride(long stride) const {
    // The simulator sends a message on the lowest dimension where the two NPUs' coordinates
    // differ (Topology::lowestDifferingDimension): for NPUs `stride` apart, the first whose
    // coordinate the stride moves (3 x 8 + 4 on 8 x 4 NPUs moves the inner one too).
    for (size_t d = 0; d < m_dims.size(); ++d)
        if ((stride / m_dims[d].below) % m_dims[d].size != 0)
            return static_cast<int>(d);
    return static_cast<int>(m_dims.size()) - 1;
}

int NetworkCosts::highestDimensionOf(long distance) const {
    int highest = 0;
    for (size_t d = 0; d < m_dims.size(); ++d)
        if (distance >= m_dims[d].below)
            highest = static_cast<int>(d);
    return highest;
}

namespace {

long hopsOf(BlockKind kind, long stride, long below, long size) {
    if (kind == BlockKind::Switch)
        return 2;
    if (kind != BlockKind::Ring)
        return 1;
    const long step = std::max(1L, stride / below) % size;
    return std::max(1L, std::min(step, size - step));
}

} // namespace

long NetworkCosts::strideClass(long stride) const {
    if (m_dims.empty())
        return 0;
    const int dim = dimensionOfStride(stride);
    const Dimension& d = m_dims[size_t(dim)];
    return long(dim) * (1L << 32) + hopsOf(d.kind, stride, d.below, d.size);
}

double NetworkCosts::messageSeconds(double bytes, long stride) const {
    if (m_dims.empty())
        return 0;
    const Dimension& d = m_dims[size_t(dimensionOfStride(stride))];
    const double hops = double(hopsOf(d.kind, stride, d.below, d.size));
    return hops * d.latencySeconds + bytes / d.bytesPerSecond + m_endpointSeconds;
}

double NetworkCosts::collectiveSeconds(CollectiveType type, int members, double commBytes,
                                       long stride) const {
    if (members <= 1 || commBytes <= 0)
        return 0;
    const double n = members;
    const size_t index = size_t(type) < m_algorithm.size() ? size_t(type) : 0;
    const AlgorithmKind algorithm = m_algorithm[index];
    const bool direct = algorithm == AlgorithmKind::Direct;
    const bool halving = algorithm == AlgorithmKind::HalvingDoubling;
    // Steps and bytes per step of one phase over the ring.
    double steps = n - 1, perStep = commBytes / n, reduceSteps = 0;
    switch (type) {
    case CollectiveType::AllReduce:
        steps = 2 * (n - 1);
        reduceSteps = n - 1;
        break;
    case CollectiveType::ReduceScatter:
        reduceSteps = n - 1;
        break;
    case CollectiveType::AllGather:
        perStep = commBytes;
        break;
    case CollectiveType::AllToAll:
        steps = n * (n - 1) / 2; // the ring relays every pair's block
        break;
    default:
        break;
    }
    if (members == m_npus && !direct && !halving && type != CollectiveType::AllToAll)
        return machineSeconds(type, type == CollectiveType::AllGather ? commBytes * n : commBytes);
    // A reduction reads two operands and writes the result.
    const double reduce = m_localMemoryBytesPerSecond > 0
                              ? 3 * reduceSteps * perStep / m_localMemoryBytesPerSecond
                              : 0;
    if (direct) {
        const double phases = type == CollectiveType::AllReduce ? 2 : 1;
        return phases * messageSeconds(perStep, stride) + reduce;
    }
    if (halving) {
        const double phases = type == CollectiveType::AllReduce ? 2 : 1;
        const double latencies = phases * std::ceil(std::log2(n));
        return latencies * messageSeconds(0, stride) +
               steps * perStep * (messageSeconds(1, stride) - messageSeconds(0, stride)) + reduce;
    }
    return steps * messageSeconds(perStep, stride) + reduce;
}

double NetworkCosts::machineSeconds(CollectiveType type, double bytes) const {
    double seconds = 0;
    for (const Phase& phase : machinePhases(type, bytes))
        seconds += phase.seconds;
    return seconds;
}

std::vector<NetworkCosts::Phase> NetworkCosts::machinePhases(CollectiveType type,
                                                             double bytes) const {
    // One phase per dimension, each a ring over that dimension with the data left after the
    // phases below it: dimension i carries D_i = S / (n_0 ... n_{i-1}) in n_i - 1 steps of
    // D_i / n_i (reduce-scatter from the innermost out, all-gather from the outermost in, so the
    // fastest dimensions carry the most data; all-reduce both).
    std::vector<Phase> up, down; // reduce-scatter order (innermost first); the gathering passes
    double data = bytes;
    for (size_t i = 0; i < m_dims.size(); ++i) {
        const Dimension& d = m_dims[i];
        if (d.size <= 1)
            continue;
        const double n = d.size, perStep = data / n;
        const double moving = (n - 1) * messageSeconds(perStep, d.below);
        const double reducing = type != CollectiveType::AllGather && m_localMemoryBytesPerSecond > 0
                                    ? 3 * (n - 1) * perStep / m_localMemoryBytesPerSecond
                                    : 0;
        up.push_back({static_cast<int>(i), moving + reducing});
        down.insert(down.begin(), Phase{static_cast<int>(i), moving});
        data = perStep;
    }
    if (type == CollectiveType::ReduceScatter)
        return up;
    if (type == CollectiveType::AllGather)
        return down;
    up.insert(up.end(), down.begin(), down.end());
    return up;
}

bool NetworkCosts::isMachineRing(CollectiveType type, int members) const {
    const size_t index = size_t(type) < m_algorithm.size() ? size_t(type) : 0;
    const AlgorithmKind algorithm = m_algorithm[index];
    return members == m_npus && algorithm != AlgorithmKind::Direct &&
           algorithm != AlgorithmKind::HalvingDoubling && type != CollectiveType::AllToAll;
}

std::vector<NetworkCosts::Phase> NetworkCosts::collectivePhases(CollectiveType type, int members,
                                                                double commBytes,
                                                                long stride) const {
    if (members <= 1 || commBytes <= 0)
        return {};
    if (isMachineRing(type, members))
        return machinePhases(type,
                             type == CollectiveType::AllGather ? commBytes * members : commBytes);
    return {{0, collectiveSeconds(type, members, commBytes, stride)}};
}

} // namespace astrolabe::plan
