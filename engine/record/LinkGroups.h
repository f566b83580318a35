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

#include <vector>

namespace astrolabe {

/// Groups result.linkSeries (which must be parallel to result.links). Groups come in dimension
/// order, then rank order. O(links x buckets) time, O(groups x buckets) memory.
std::vector<LinkGroupSeries> groupLinkSeries(const RunResult& result, int groupsPerDimension);

/// For each link of result.links, the index in result.linkGroupSeries of the group that holds
/// it, or -1 when no group does. O(links + groups).
std::vector<int> linkGroupIndex(const RunResult& result);

} // namespace astrolabe
