#include "collective/DimensionScheduler.h"

#include <algorithm>

namespace astrolabe {

DimensionScheduler::DimensionScheduler(InterDimensionScheduling policy, std::vector<int> sizes,
                                       std::vector<double> bandwidths)
    : m_policy(policy)
    , m_sizes(std::move(sizes))
    , m_load(m_sizes.size(), 0.0) {
    for (double b : bandwidths)
        m_relativeBandwidth.push_back(bandwidths.empty() || bandwidths[0] <= 0 ? 1.0
                                                                               : b / bandwidths[0]);
}

bool DimensionScheduler::splitsAllReduce() const {
    return m_policy == InterDimensionScheduling::Themis ||
           m_policy == InterDimensionScheduling::ThemisFlex;
}

void DimensionScheduler::beginCollective() {
    std::fill(m_load.begin(), m_load.end(), 0.0);
    m_chunkIndex = 0;
}

void DimensionScheduler::account(CollectiveKind kind, uint64_t chunkBytes,
                                 const std::vector<int>& order) {
    constexpr double kMiB = 1048576.0;
    double x = static_cast<double>(chunkBytes);
    auto reduceScatter = [&](int d) {
        const double n = m_sizes[static_cast<size_t>(d)];
        m_load[static_cast<size_t>(d)] +=
            x / kMiB * ((n - 1) / n) / m_relativeBandwidth[static_cast<size_t>(d)];
        x /= n;
    };
    auto allGather = [&](int d) {
        const double n = m_sizes[static_cast<size_t>(d)];
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
    case InterDimensionScheduling::ThemisFlex:
        break;
    }
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
