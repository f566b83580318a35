#pragma once
// Closed-form figures of a multi-dimensional platform, shown live by the topology editor.
// Plain C++ (no Qt) so the formulas can be unit-tested on their own.
//
// Conventions: dimension 0 varies fastest in NPU ids; bandwidths are per link, per direction,
// in bytes per second (PlatformSpec's units).
//
// Links per NPU in one dimension of size n (what one NPU can drive at the same time):
//   Ring            min(2, n - 1)  (two neighbours; a 2-NPU ring has one)
//   FullyConnected  n - 1          (a dedicated link to every peer)
//   Switch          1              (one link to the dimension's switch)
//
// Injection bandwidth per NPU = sum over d of links(d) * bw_d: the most one NPU can put on the
// network at once when every dimension is busy.
//
// Bisection bandwidth (one direction) over dimension-aligned cuts: cutting dimension d into two
// halves splits each of the N / n_d copies of that dimension's block, so
//   B = min over d of (N / n_d) * B_block(d), with
//   Ring            min(2, n - 1) * bw   (a ring cut in two loses two links)
//   FullyConnected  floor(n/2) * ceil(n/2) * bw
//   Switch          floor(n/2) * bw      (the smaller half's links into a non-blocking switch)
// This is the standard result for tori (2 N / k * bw for a k-ary n-cube) and an upper bound for
// other product networks; with an odd n_d the halves differ by one group.

#include "spec/PlatformSpec.h"

#include <string>
#include <vector>

namespace astrolabe::widgets {

/// Total NPUs (product of sizes) as a 64-bit value: invalid sizes are not clamped here.
int64_t npuCount64(const PlatformSpec& platform);

/// Coordinates of an NPU, one per dimension: a_d = floor(id / prod_{k<d} n_k) mod n_d.
std::vector<int> npuCoordinates(const PlatformSpec& platform, int64_t id);
/// Inverse of npuCoordinates: id = sum_d a_d * prod_{k<d} n_k.
int64_t npuIdOf(const PlatformSpec& platform, const std::vector<int>& coordinates);

int linksPerNpu(const DimensionSpec& dimension);
double injectionBandwidthBytesPerSecond(const PlatformSpec& platform);
double blockBisectionBytesPerSecond(const DimensionSpec& dimension);
double bisectionBandwidthBytesPerSecond(const PlatformSpec& platform);

/// A reason the platform cannot be simulated; dimension is -1 for platform-wide problems.
struct PlatformProblem {
    int dimension = -1;
    std::string message;
};
/// Every problem at once (empty when the platform is valid): no dimension, size < 2,
/// bandwidth <= 0, latency < 0.
std::vector<PlatformProblem> platformProblems(const PlatformSpec& platform);

} // namespace astrolabe::widgets
