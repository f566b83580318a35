#pragma once
// A sweep's points (docs/sweeps.md): the Cartesian product of its axis groups, or a random or
// Latin-hypercube sample of it; each point's project made from the base project and checked;
// the points the constraints rule out kept with the reason.

#include "config/SimulationSpec.h"
#include "config/SweepFile.h"
#include "generate/GeneratorSpec.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe {

struct SweepCoordinate {
    std::string name;
    std::string path;
    std::string value; ///< as YAML text: "4", "100 GiB/s"
};

struct SweepPoint {
    size_t index = 0; ///< 0-based, stable for a given sweep file and base project
    std::vector<SweepCoordinate> coordinates;
    /// "chunks=4, bandwidth=100 GiB/s"
    std::string label() const;
    std::vector<std::pair<std::string, std::string>> overrides() const; ///< (path, value)
};

/// The points in order: for the whole product, the last axis group varies fastest; for a
/// sample, the order the generator (SplitMix64 from the seed) drew them, without repeats.
std::vector<SweepPoint> expandSweep(const SweepFile& sweep);

struct PlannedPoint {
    SweepPoint point;
    std::optional<SimulationSpec> spec; ///< absent when a constraint skips the point
    /// Set when the sweep generates its workload: run these traces instead of the project's.
    std::optional<generate::GeneratorSpec> generator;
    std::string skipReason; ///< which constraint, with the values it saw
};

struct SweepPlan {
    SweepFile file;
    /// SHA-256 (first 16 hex digits) of the sweep file's and the base project's text: stored
    /// points count as done only while neither changed.
    std::string identity;
    std::vector<PlannedPoint> points;
    size_t runnable() const;
};

/// Reads the sweep file and its base project, expands the points, makes and checks each
/// point's project and applies the constraints. Throws ErrorList with every problem before
/// anything runs: bad paths (at the axis), bad constraints, and points whose project is invalid
/// and not skipped by a constraint (at most the first 20, with their coordinates).
SweepPlan planSweep(const std::string& sweepPath);
SweepPlan planSweep(SweepFile file, const std::string& sweepText, const std::string& projectText);

/// The tags a stored point carries: "sweep:<name>", "sweep-id:<identity>", "point:<index>" and
/// one "<axis>=<value>" per coordinate.
std::vector<std::string> sweepPointTags(const SweepPlan& plan, const SweepPoint& point);
/// The point index from a stored run's tags, when they carry this sweep's identity.
std::optional<size_t> storedPointIndex(const std::vector<std::string>& tags,
                                       const std::string& identity);

} // namespace astrolabe
