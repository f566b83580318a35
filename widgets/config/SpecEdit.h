#pragma once
// One edit of a SimulationSpec requested by a configuration panel. The application applies it
// (and records it for undo); panels never change the spec themselves.

#include "spec/SimulationSpec.h"

#include <QString>
#include <functional>

namespace astrolabe::widgets {

struct SpecEdit {
    QString keyPath;     ///< the field, e.g. "system.endpoint-delay"
    QString description; ///< for the undo menu, e.g. "Set endpoint delay to 20 ns"
    std::function<void(SimulationSpec&)> apply;
    /// Consecutive edits of the same typed field merge into one undo step.
    bool mergeable = false;
};

} // namespace astrolabe::widgets
