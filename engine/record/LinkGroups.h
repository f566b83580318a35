#pragma once
// Link utilization per group of links instead of per link: what the project database keeps for a
// run with more links than its detail limit (store/ProjectDatabase.h), and what the utilization
// views draw when a stored run has no per-link series.
//
// Grouping: the links of dimension d, in link index order, are cut into consecutive groups of
// ceil(n_d / groupsPerDimension) links (the last one may be smaller), so a dimension has at most
// groupsPerDimension groups. Each group keeps, per series bucket, the mean and the maximum
// utilization over its links: the mean keeps the dimension's mean series (and so the area under
// it, the busy time) up to float rounding, the maximum keeps a single saturated link visible.
// Exact per-link totals (bytes, messages, busy time) stay in RunResult::linkStats.

#include "record/RunResult.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace astrolabe {

/// Runs with more links than this keep their utilization per group of links, not per link: the
/// simulation makes only the groups (a 16 x 16 x 16 torus's 24,576 links of 512 buckets would be
/// 50 MB of per-link series, a 256 x 256 ring stack's 262,144 links 0.5 GB), and the project
/// database keeps them (its LinkDetailPolicy starts from these).
inline constexpr size_t kLinkDetailLimit = 8192;
/// Groups per dimension then: the rows of the utilization heatmap.
inline constexpr int kLinkGroupsPerDimension = 256;

/// The groups of `links` from per-link series: seriesOf(link) gives link's series (or null for
/// none), each value times `scale`, at most 1, is its utilization. `buckets` values per group.
std::vector<LinkGroupSeries>
groupLinkSeries(const std::vector<LinkInfo>& links, size_t buckets, int groupsPerDimension,
                const std::function<const std::vector<float>*(size_t link)>& seriesOf,
                double scale = 1.0);

/// Groups result.linkSeries (which must be parallel to result.links). Groups come in dimension
/// order, then rank order. O(links x buckets) time, O(groups x buckets) memory.
std::vector<LinkGroupSeries> groupLinkSeries(const RunResult& result, int groupsPerDimension);

/// For each link of result.links, the index in result.linkGroupSeries of the group that holds
/// it, or -1 when no group does. O(links + groups).
std::vector<int> linkGroupIndex(const RunResult& result);

} // namespace astrolabe
