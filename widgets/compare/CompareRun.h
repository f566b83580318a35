#pragma once
// One run as the Compare tab sees it: a display name, the settings it ran with and its result
// (null for a run that did not finish).

#include "config/SimulationSpec.h"
#include "record/RunResult.h"

#include <QString>
#include <memory>
#include <vector>

namespace astrolabe::widgets {

struct CompareRun {
    QString name;
    SimulationSpec spec;
    std::shared_ptr<const RunResult> result;
};

using CompareRuns = std::vector<CompareRun>;

/// "12.5 µs", "3.2 ms", "850 ns": a time in nanoseconds, written by the engine's formatter.
QString formatNs(double ns);

} // namespace astrolabe::widgets
