#include "sweep/ParetoFront.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace astrolabe::widgets {

std::vector<size_t> paretoFront(const std::vector<CostPoint>& points) {
    std::vector<size_t> order(points.size());
    std::iota(order.begin(), order.end(), size_t{0});
    // By x, then y, then index: a sweep from the left keeps a point exactly when its y is
    // below every y seen so far (all of those have x no larger, so they would dominate it
    // unless its y is strictly lower).
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (points[a].x != points[b].x)
            return points[a].x < points[b].x;
        return points[a].y < points[b].y;
    });
    std::vector<size_t> front;
    double bestY = std::numeric_limits<double>::infinity();
    for (const size_t i : order)
        if (points[i].y < bestY) {
            front.push_back(i);
            bestY = points[i].y;
        }
    return front;
}

} // namespace astrolabe::widgets
