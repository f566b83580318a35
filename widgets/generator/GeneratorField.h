#pragma once
// A model builder field built from the generator's settings table (generate/GeneratorSettings.h):
// its editor and range come from the setting's one declaration, its suffix, tooltip and choice
// words from its look (GeneratorPresentation.h), and so do the conversions between the editor and
// the spec (whole MiB for the gradient bucket, a combo box index for a choice).

#include "generate/GeneratorSettings.h"

#include <functional>

class QObject;
class QWidget;

namespace astrolabe::widgets {

/// A spin box, double spin box, check box or combo box for `setting`.
QWidget* makeGeneratorField(const generate::GeneratorSetting& setting);
/// Shows the setting's value in `spec`.
void showGeneratorValue(const generate::GeneratorSetting& setting, QWidget* field,
                        const generate::GeneratorSpec& spec);
/// The field's value, in the setting's type.
settings::Value generatorFieldValue(const generate::GeneratorSetting& setting,
                                    const QWidget* field);
/// Calls `changed` whenever the field's value changes (user or code).
void onGeneratorFieldChanged(QWidget* field, QObject* context, std::function<void()> changed);

} // namespace astrolabe::widgets
