#include "collective/DimensionScheduler.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>

namespace astrolabe {

namespace {

std::vector<DimensionSpec> ringDimensions(const std::vector<int>& sizes,
                                          const std::vector<double>& bandwidths) {
    std::vector<DimensionSpec> dims;
    for (size_t d = 0; d < sizes.size(); ++d)
        dims.push_back({BlockKind::Ring, sizes[d], d < bandwidths.size() ? bandwidths[d] : 1.0, 0});
    return dims;
}

bool nearlyEqual(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

} // namespace

DimensionScheduler::DimensionScheduler(InterDimensionScheduling policy,
                                       std::vector<DimensionSpec> dimensions,
                                       const SystemConfig& system, std::shared_ptr<Plans> plans,
                                       bool storeAndForwardSwitches)
    : m_policy(policy)
    , m_dims(std::move(dimensions))
    , m_load(m_dims.size(), 0.0)
    , m_plans(plans ? std::move(plans) : std::make_shared<Plans>())
    , m_storeAndForward(storeAndForwardSwitches)
    , m_reduceNsPerByte(system.localMemBandwidthGBps > 0 ? 3.0 / system.localMemBandwidthGBps
                                                         : 0.0) {
    const double b0 = m_dims.empty() ? 0 : m_dims[0].bandwidthBytesPerSecond;
    for (const DimensionSpec& d : m_dims)
        m_relativeBandwidth.push_back(b0 <= 0 ? 1.0 : d.bandwidthBytesPerSecond / b0);
    for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter,
                                CollectiveKind::AllGather, CollectiveKind::AllToAll})
        for (const AlgorithmSpec& a : system.algorithms(kind))
            m_algorithms[static_cast<size_t>(kind)].push_back(a.kind);
}

DimensionScheduler::DimensionScheduler(InterDimensionScheduling policy, std::vector<int> sizes,
                                       std::vector<double> bandwidths)
    : DimensionScheduler(policy, ringDimensions(sizes, bandwidths), SystemConfig{}) {}

bool DimensionScheduler::splitsAllReduce() const {
    return m_policy == InterDimensionScheduling::Themis ||
           m_policy == InterDimensionScheduling::ThemisGreedy ||
           m_policy == InterDimensionScheduling::OfflineGreedy ||
           m_policy == InterDimensionScheduling::OfflineGreedyFlex;
}

void DimensionScheduler::beginCollective(int chunks) {
    m_totalChunks = std::max(1, chunks);
    std::fill(m_load.begin(), m_load.end(), 0.0);
    m_chunks.clear();
    m_chunkIndex = 0;
}

std::vector<int> DimensionScheduler::orderFor(CollectiveKind kind, uint64_t chunkBytes,
                                              std::vector<int> active) {
    const uint64_t chunk = m_chunkIndex++;
    std::vector<int> natural = active;
    if (kind == CollectiveKind::AllGather)
        std::reverse(natural.begin(), natural.end());
    switch (m_policy) {
    case InterDimensionScheduling::Ascending:
        return natural;
    case InterDimensionScheduling::RoundRobin:
        if (!natural.empty())
            std::rotate(natural.begin(),
                        natural.begin() + static_cast<long>(chunk % natural.size()), natural.end());
        return natural;
    case InterDimensionScheduling::Themis:
        return themisOrder(kind, chunkBytes, active, natural);
    case InterDimensionScheduling::ThemisGreedy: {
        const std::vector<int> order =
            kind == CollectiveKind::AllToAll ? natural : greedyOrder(kind, active);
        m_chunks.push_back(stepsOf(kind, static_cast<double>(chunkBytes), order));
        return order;
    }
    case InterDimensionScheduling::OfflineGreedy:
    case InterDimensionScheduling::OfflineGreedyFlex:
        break;
    }
    return offlineGreedyOrder(kind, chunkBytes, active, std::move(natural));
}

// ---- Themis: the cost model, the published greedy rule and the search ----------------------

double DimensionScheduler::phaseNs(CollectiveKind collective, CollectiveKind phase, int d,
                                   double inputBytes) const {
    const DimensionSpec& dim = m_dims[static_cast<size_t>(d)];
    const double n = dim.size;
    const double bytesPerNs = std::max(dim.bytesPerNs(), 1e-12);
    const bool viaSwitch = dim.kind == BlockKind::Switch;
    const double hopNs = dim.latencyNs * (viaSwitch ? 2 : 1);
    // The congestion-aware model stores a message in the switch before sending it on: a step
    // through a switch serialises the message twice (the congestion-unaware model streams it).
    const double perStepFactor = viaSwitch && m_storeAndForward ? 2 : 1;
    const bool gathers = phase == CollectiveKind::AllGather || phase == CollectiveKind::AllToAll;
    const double sent = gathers ? inputBytes * (n - 1) : inputBytes * (n - 1) / n;
    const std::vector<AlgorithmKind>& list = m_algorithms[static_cast<size_t>(collective)];
    const AlgorithmKind algorithm =
        static_cast<size_t>(d) < list.size() ? list[static_cast<size_t>(d)] : AlgorithmKind::Ring;
    // A reduce-scatter reduces every message it receives in local memory (the token engine's
    // R, 3 x bytes / local-memory bandwidth): its phases cost more than an all-gather's of the
    // same traffic, which decides which dimension should take a chunk first.
    const double reduceNs = phase == CollectiveKind::ReduceScatter ? m_reduceNsPerByte * sent : 0;
    switch (algorithm) {
    case AlgorithmKind::Direct:
    case AlgorithmKind::OneDirect:
        // All peers at once: over n - 1 links in parallel on a FullyConnected block, through
        // the one NPU link otherwise; its n - 1 reductions overlap as its messages do.
        return hopNs +
               (dim.kind == BlockKind::FullyConnected ? sent / (n - 1) : sent) / bytesPerNs +
               reduceNs / (n - 1);
    case AlgorithmKind::HalvingDoubling:
    case AlgorithmKind::OneHalvingDoubling:
        return std::ceil(std::log2(n)) * hopNs + perStepFactor * sent / bytesPerNs + reduceNs;
    case AlgorithmKind::InSwitch: // the switch reduces
        return 2 * dim.latencyNs + (gathers ? inputBytes * n : inputBytes) / bytesPerNs;
    case AlgorithmKind::Ring:
    case AlgorithmKind::OneRing:
    case AlgorithmKind::DoubleBinaryTree:
        break;
    }
    return (n - 1) * hopNs + perStepFactor * sent / bytesPerNs + reduceNs;
}

std::vector<std::pair<int, double>>
DimensionScheduler::stepsOf(CollectiveKind kind, double bytes,
                            const std::vector<int>& order) const {
    std::vector<std::pair<int, double>> steps;
    auto run = [&](CollectiveKind phase, int d) {
        steps.emplace_back(d, phaseNs(kind, phase, d, bytes));
        const double n = m_dims[static_cast<size_t>(d)].size;
        bytes = phase == CollectiveKind::ReduceScatter ? bytes / n : bytes * n;
    };
    switch (kind) {
    case CollectiveKind::AllReduce:
        for (int d : order)
            run(CollectiveKind::ReduceScatter, d);
        for (auto it = order.rbegin(); it != order.rend(); ++it)
            run(CollectiveKind::AllGather, *it);
        break;
    case CollectiveKind::ReduceScatter:
        for (int d : order)
            run(CollectiveKind::ReduceScatter, d);
        break;
    case CollectiveKind::AllGather:
    case CollectiveKind::AllToAll:
        for (int d : order)
            run(kind, d);
        break;
    }
    return steps;
}

DimensionScheduler::Estimate DimensionScheduler::replay(CollectiveKind kind, double bytes,
                                                        const std::vector<int>& order,
                                                        const std::vector<int>& rest) const {
    std::vector<std::vector<std::pair<int, double>>> chunks = m_chunks;
    chunks.push_back(stepsOf(kind, bytes, order));
    const auto later = stepsOf(kind, bytes, rest);
    while (static_cast<int>(chunks.size()) < m_totalChunks)
        chunks.push_back(later);
    // Arrivals (time, sequence, chunk): a dimension serves the earliest arrival next.
    struct Arrival {
        double time;
        uint64_t seq;
        size_t chunk;
        bool operator>(const Arrival& o) const {
            return time != o.time ? time > o.time : seq > o.seq;
        }
    };
    std::vector<std::priority_queue<Arrival, std::vector<Arrival>, std::greater<>>> waiting(
        m_dims.size());
    std::vector<double> freeAt(m_dims.size(), 0.0);
    std::vector<size_t> next(chunks.size(), 0);
    uint64_t seq = 0;
    for (size_t c = 0; c < chunks.size(); ++c)
        if (!chunks[c].empty())
            waiting[static_cast<size_t>(chunks[c][0].first)].push({0.0, seq++, c});
    Estimate e;
    // Serve, over and over, the dimension whose next phase can start earliest.
    for (;;) {
        size_t dim = m_dims.size();
        double start = 0;
        for (size_t d = 0; d < m_dims.size(); ++d) {
            if (waiting[d].empty())
                continue;
            const double s = std::max(freeAt[d], waiting[d].top().time);
            if (dim == m_dims.size() || s < start) {
                dim = d;
                start = s;
            }
        }
        if (dim == m_dims.size())
            break;
        const Arrival a = waiting[dim].top();
        waiting[dim].pop();
        const double end = start + chunks[a.chunk][next[a.chunk]].second;
        freeAt[dim] = end;
        if (++next[a.chunk] < chunks[a.chunk].size()) {
            waiting[static_cast<size_t>(chunks[a.chunk][next[a.chunk]].first)].push(
                {end, seq++, a.chunk});
        } else {
            e.makespan = std::max(e.makespan, end);
            e.finishSum += end;
        }
    }
    return e;
}

DimensionScheduler::Estimate DimensionScheduler::outlook(CollectiveKind kind, double bytes,
                                                         const std::vector<int>& order,
                                                         const std::vector<int>& natural) const {
    const Estimate rest = replay(kind, bytes, order, natural);
    if (order == natural || static_cast<int>(m_chunks.size()) + 1 >= m_totalChunks)
        return rest;
    const Estimate same = replay(kind, bytes, order, order);
    return same.makespan < rest.makespan ? same : rest;
}

std::vector<int> DimensionScheduler::greedyOrder(CollectiveKind kind,
                                                 const std::vector<int>& active) const {
    std::vector<double> load(m_dims.size(), 0.0);
    for (const auto& chunk : m_chunks)
        for (const auto& [d, ns] : chunk)
            load[static_cast<size_t>(d)] += ns;
    std::vector<int> order = active;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return load[static_cast<size_t>(a)] < load[static_cast<size_t>(b)];
    });
    if (kind == CollectiveKind::AllGather)
        std::reverse(order.begin(), order.end());
    return order;
}

std::vector<int> DimensionScheduler::themisOrder(CollectiveKind kind, uint64_t chunkBytes,
                                                 const std::vector<int>& active,
                                                 const std::vector<int>& natural) {
    const double bytes = static_cast<double>(chunkBytes);
    std::string key = std::to_string(static_cast<int>(kind)) + ':' + std::to_string(chunkBytes);
    key += ':';
    key += std::to_string(m_totalChunks);
    for (int d : active) {
        key += ',';
        key += std::to_string(d);
    }
    std::vector<std::vector<int>>& plan = (*m_plans)[key];
    const size_t index = m_chunks.size();
    if (index < plan.size()) { // another NPU (or an earlier collective) worked this one out
        m_chunks.push_back(stepsOf(kind, bytes, plan[index]));
        return plan[index];
    }
    std::vector<int> best = natural;
    Estimate bestEstimate = outlook(kind, bytes, natural, natural);
    auto consider = [&](const std::vector<int>& order) {
        const Estimate e = outlook(kind, bytes, order, natural);
        const bool better = nearlyEqual(e.makespan, bestEstimate.makespan)
                                ? e.finishSum < bestEstimate.finishSum &&
                                      !nearlyEqual(e.finishSum, bestEstimate.finishSum)
                                : e.makespan < bestEstimate.makespan;
        if (better) {
            best = order;
            bestEstimate = e;
        }
    };
    if (kind != CollectiveKind::AllToAll && active.size() >= 2 && active.size() <= 5) {
        // Every order of up to five dimensions (120).
        std::vector<int> order = active;
        do
            consider(order);
        while (std::next_permutation(order.begin(), order.end()));
    } else if (kind != CollectiveKind::AllToAll && active.size() > 5) {
        consider(greedyOrder(kind, active)); // beyond five: the published rule's order
    }
    m_chunks.push_back(stepsOf(kind, bytes, best));
    if (plan.size() == index)
        plan.push_back(best);
    return best;
}

// ---- ASTRA-sim's offline greedy (cycle-exact) ----------------------------------------------

void DimensionScheduler::account(CollectiveKind kind, uint64_t chunkBytes,
                                 const std::vector<int>& order) {
    constexpr double kMiB = 1048576.0;
    double x = static_cast<double>(chunkBytes);
    auto reduceScatter = [&](int d) {
        const double n = m_dims[static_cast<size_t>(d)].size;
        m_load[static_cast<size_t>(d)] +=
            x / kMiB * ((n - 1) / n) / m_relativeBandwidth[static_cast<size_t>(d)];
        x /= n;
    };
    auto allGather = [&](int d) {
        const double n = m_dims[static_cast<size_t>(d)].size;
        m_load[static_cast<size_t>(d)] +=
            x / kMiB * (n - 1) / m_relativeBandwidth[static_cast<size_t>(d)];
        x *= n;
    };
    switch (kind) {
    case CollectiveKind::ReduceScatter:
        for (int d : order)
            reduceScatter(d);
        break;
    case CollectiveKind::AllGather:
    case CollectiveKind::AllToAll:
        for (int d : order)
            allGather(d);
        break;
    case CollectiveKind::AllReduce:
        for (int d : order)
            reduceScatter(d);
        for (auto it = order.rbegin(); it != order.rend(); ++it)
            allGather(*it);
        break;
    }
}

std::vector<int> DimensionScheduler::offlineGreedyOrder(CollectiveKind kind, uint64_t chunkBytes,
                                                        const std::vector<int>& active,
                                                        std::vector<int> natural) {
    std::vector<int> sorted = active;
    std::stable_sort(sorted.begin(), sorted.end(), [&](int a, int b) {
        const double la = m_load[static_cast<size_t>(a)], lb = m_load[static_cast<size_t>(b)];
        return kind == CollectiveKind::AllGather ? la > lb : la < lb;
    });
    double lo = 0, hi = 0;
    if (!active.empty()) {
        lo = hi = m_load[static_cast<size_t>(active[0])];
        for (int d : active) {
            lo = std::min(lo, m_load[static_cast<size_t>(d)]);
            hi = std::max(hi, m_load[static_cast<size_t>(d)]);
        }
    }
    const double imbalanceBytes = (hi - lo) * 1048576.0;
    const std::vector<int> chosen =
        imbalanceBytes < static_cast<double>(chunkBytes) / 16 ? natural : sorted;
    account(kind, chunkBytes, chosen);
    return chosen;
}

} // namespace astrolabe
