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

/// "12.5 µs", "3.2 ms", "850 ns": a time in nanoseconds with a readable unit.
QString formatNs(double ns);
/// "1 MiB", "7.5 KiB", "12 B".
QString formatBytes(double bytes);
/// "48.2 GiB/s".
QString formatBandwidth(double bytesPerSecond);

} // namespace astrolabe::widgets
