#pragma once
// How the model builder shows the generator's settings (generate/GeneratorSettings.h), by
// setting path: the box that holds a field, its tooltip, the words of its choices, the spin
// box's decimals, step and suffix, whether it is disabled for models that are not transformers,
// and whether the builder has a field for it at all. The engine's table says what a setting is;
// this one says how the builder shows it, as widgets/config/SettingPresentation does for the
// project's settings.
#include "generate/GeneratorSettings.h"

#include <string>
#include <vector>

namespace astrolabe::widgets {

struct GeneratorFieldLook {
    std::string box;                       ///< the builder's group box: "Model", "Parallelism"
    std::string tip;                       ///< tooltip beyond the label; empty: none
    std::vector<std::string> choiceLabels; ///< the combo box's words (default: the choices)
    std::string suffix;                    ///< after the number (default: the unit's words)
    int decimals = 0;                      ///< Double
    double step = 0;                       ///< Double: the spin box's step; 0: one unit
    bool transformerOnly = false;          ///< disabled for DLRM / ResNet
    bool inBuilder = true;                 ///< the builder has a field for it
};

/// The look of the generator setting `setting`.
GeneratorFieldLook generatorFieldLook(const generate::GeneratorSetting& setting);

} // namespace astrolabe::widgets
