#pragma once
// A sweep's points (docs/sweeps.md): the Cartesian product of its axis groups, or a random or
// Latin-hypercube sample of it; each point's project made from the base project and checked;
// the points the constraints rule out kept with the reason.

#include "generate/GeneratorSpec.h"
#include "project/SweepFile.h"
#include "spec/SimulationSpec.h"

#include <cstdint>
#include <memory>
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
/// O(points x groups) time; a sample also sorts its draws once to drop repeats.
std::vector<SweepPoint> expandSweep(const SweepFile& sweep);

/// One point of a plan: small, so a plan of a million points stays in tens of megabytes. Its
/// coordinates and its project are made on demand (SweepPlan::point, SweepPlan::work).
struct PlannedPoint {
    size_t index = 0;
    std::string skipReason; ///< which constraint, with the values it saw; empty when it runs
    bool runnable() const { return skipReason.empty(); }
};

/// What a runnable point runs.
struct PointWork {
    SimulationSpec spec;
    /// Set when the sweep generates its workload: run these traces instead of the project's.
    std::optional<generate::GeneratorSpec> generator;
};

struct SweepPlan {
    SweepFile file;
    /// SHA-256 (first 16 hex digits) of the sweep file's and the base project's text: stored
    /// points count as done only while neither changed.
    std::string identity;
    std::vector<PlannedPoint> points;
    size_t runnable() const;
    /// The point's coordinates. O(axes).
    SweepPoint point(size_t index) const;
    /// The point's project (and generator settings), read and checked as loadProject does.
    /// Throws ErrorList when that project is invalid. Safe to call from several threads.
    PointWork work(size_t index) const;
    /// The (path, value) pairs a point's project takes from the base: the set: values, then
    /// the point's coordinates (generate.* left out). O(axes).
    std::vector<std::pair<std::string, std::string>> projectValues(size_t index) const;

    // What point() and work() are made from; set by planSweep.
    std::shared_ptr<const ProjectTemplate> base;
    size_t groupCount = 0;
    std::vector<uint32_t> choices; ///< points x groups: each point's value index per group
};

/// Reads the sweep file and its base project, expands the points and applies the constraints.
/// Throws ErrorList with every problem before anything runs: bad paths (at the axis), bad
/// constraints, and invalid projects (at most the first 20 problems, with the points' coordinates).
/// Each axis value is checked once, in the first runnable point that takes it, so planning reads
/// at most (sum of the groups' sizes) projects, plus one per distinct platform when a constraint
/// names npus; any other point whose project is invalid fails when it runs (SweepRun).
SweepPlan planSweep(const std::string& sweepPath);
SweepPlan planSweep(SweepFile file, const std::string& sweepText, const std::string& projectText);

/// "Apply" a point to a project being edited: `project` (the project as it is now, saved at or
/// meant for `projectPath`) with the point's project values put at their paths, read and
/// checked as loadProject does. Settings the sweep does not name keep their current values.
/// Throws ErrorList with the project reader's messages (a path that leads nowhere in `project`).
SimulationSpec applySweepPoint(const SimulationSpec& project, const std::string& projectPath,
                               const SweepPlan& plan, size_t index);

/// The tags a stored point carries: "sweep:<name>", "sweep-id:<identity>", "point:<index>" and
/// one "<axis>=<value>" per coordinate.
std::vector<std::string> sweepPointTags(const SweepPlan& plan, const SweepPoint& point);
/// The point index from a stored run's tags, when they carry this sweep's identity.
std::optional<size_t> storedPointIndex(const std::vector<std::string>& tags,
                                       const std::string& identity);

} // namespace astrolabe
