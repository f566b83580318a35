#pragma once
// One run as the Compare tab sees it: a display name, the settings it ran with and its result
// (null for a run that did not finish).

#include "record/RunResult.h"
#include "spec/SimulationSpec.h"

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

/// A run's name as a column header: broken at spaces into lines of at most `lineChars`
/// characters ("#12 project by chunks\npoint 3"), so that the end of a long name, where sweep
/// points differ, shows rather than being cut off. A word longer than a line stays whole.
QString headerName(const QString& name, int lineChars = 22);

/// "12.5 µs", "3.2 ms", "850 ns": a time in nanoseconds, written by the engine's formatter.
QString formatNs(double ns);

} // namespace astrolabe::widgets
