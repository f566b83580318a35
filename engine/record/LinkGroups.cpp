#include "record/LinkGroups.h"

#include <algorithm>

namespace astrolabe {
namespace {

/// Link indices per dimension, in link index order.
std::vector<std::vector<int>> linksByDimension(const std::vector<LinkInfo>& links) {
    std::vector<std::vector<int>> byDimension;
    for (size_t l = 0; l < links.size(); ++l) {
        const int d = std::max<int>(0, links[l].dimension);
        if (byDimension.size() <= static_cast<size_t>(d))
            byDimension.resize(static_cast<size_t>(d) + 1);
        byDimension[static_cast<size_t>(d)].push_back(static_cast<int>(l));
    }
    return byDimension;
}

} // namespace

std::vector<LinkGroupSeries>
groupLinkSeries(const std::vector<LinkInfo>& links, size_t buckets, int groupsPerDimension,
                const std::function<const std::vector<float>*(size_t link)>& seriesOf,
                double scale) {
    std::vector<LinkGroupSeries> groups;
    const std::vector<std::vector<int>> byDimension = linksByDimension(links);
    std::vector<double> sum(buckets);
    for (size_t d = 0; d < byDimension.size(); ++d) {
        const std::vector<int>& members = byDimension[d];
        if (members.empty())
            continue;
        const size_t perGroup =
            (members.size() + static_cast<size_t>(std::max(1, groupsPerDimension)) - 1) /
            static_cast<size_t>(std::max(1, groupsPerDimension));
        for (size_t first = 0; first < members.size(); first += perGroup) {
            const size_t last = std::min(members.size(), first + perGroup);
            LinkGroupSeries g;
            g.dimension = static_cast<int16_t>(d);
            g.firstRank = static_cast<int32_t>(first);
            g.linkCount = static_cast<int32_t>(last - first);
            g.max.assign(buckets, 0.0f);
            std::fill(sum.begin(), sum.end(), 0.0);
            for (size_t rank = first; rank < last; ++rank) {
                const std::vector<float>* series = seriesOf(static_cast<size_t>(members[rank]));
                if (!series)
                    continue;
                for (size_t b = 0; b < buckets && b < series->size(); ++b) {
                    const float u = static_cast<float>(
                        std::min(1.0, static_cast<double>((*series)[b]) * scale));
                    sum[b] += u;
                    g.max[b] = std::max(g.max[b], u);
                }
            }
            g.mean.resize(buckets);
            for (size_t b = 0; b < buckets; ++b)
                g.mean[b] = static_cast<float>(sum[b] / static_cast<double>(g.linkCount));
            groups.push_back(std::move(g));
        }
    }
    return groups;
}

std::vector<LinkGroupSeries> groupLinkSeries(const RunResult& result, int groupsPerDimension) {
    const size_t buckets = result.linkSeries.empty() ? 0 : result.linkSeries.front().size();
    return groupLinkSeries(
        result.links, buckets, groupsPerDimension, [&](size_t link) -> const std::vector<float>* {
            return link < result.linkSeries.size() ? &result.linkSeries[link] : nullptr;
        });
}

std::vector<int> linkGroupIndex(const RunResult& result) {
    std::vector<int> out(result.links.size(), -1);
    const std::vector<std::vector<int>> byDimension = linksByDimension(result.links);
    for (size_t g = 0; g < result.linkGroupSeries.size(); ++g) {
        const LinkGroupSeries& group = result.linkGroupSeries[g];
        if (group.dimension < 0 || static_cast<size_t>(group.dimension) >= byDimension.size())
            continue;
        const std::vector<int>& links = byDimension[static_cast<size_t>(group.dimension)];
        const auto first = static_cast<size_t>(std::max(0, group.firstRank));
        const size_t last =
            std::min(links.size(), first + static_cast<size_t>(std::max(0, group.linkCount)));
        for (size_t rank = first; rank < last; ++rank)
            out[static_cast<size_t>(links[rank])] = static_cast<int>(g);
    }
    return out;
}

} // namespace astrolabe
