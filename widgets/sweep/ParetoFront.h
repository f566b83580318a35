#pragma once
// The Pareto front of points with two costs, both minimized: the points no other point
// dominates (another point dominates p when it is no worse in both costs and better in one).
// Pure functions, no Qt: the scatter chart draws what they return.

#include <cstddef>
#include <vector>

namespace astrolabe::widgets {

struct CostPoint {
    double x = 0; ///< first cost (e.g. end time)
    double y = 0; ///< second cost (e.g. exposed communication, bandwidth as a price)
};

/// Indexes of the non-dominated points, sorted by increasing x (then decreasing y), so they
/// can be joined by a line. Of points equal in both costs, the first is kept. O(n log n).
std::vector<size_t> paretoFront(const std::vector<CostPoint>& points);

} // namespace astrolabe::widgets
