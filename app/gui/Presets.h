#pragma once
// Ready-made projects offered by the New Project wizard and the welcome page.

#include "spec/SimulationSpec.h"

#include <QString>
#include <vector>

namespace astrolabe::gui {

struct Preset {
    QString id;          ///< "quickstart", "hgx-h100", "torus-2d"
    QString title;       ///< shown in the wizard
    QString description; ///< one paragraph, plain words
    SimulationSpec spec;
};

const std::vector<Preset>& presets();
/// The preset with this id; throws astrolabe::Error listing the valid ids when unknown.
const Preset& preset(const QString& id);

} // namespace astrolabe::gui
