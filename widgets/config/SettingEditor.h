#pragma once
// GUI editors built from the settings schema (engine/schema/Setting.h): the label, the
// tooltip, the unit box (QuantityEdit), the range and the getter/setter all come from the
// setting's one declaration.

#include "config/SettingPresentation.h"
#include "schema/Setting.h"

class QWidget;

namespace astrolabe::widgets {

class ConfigSection;

/// Adds the editor(s) of one setting to `section` (a Custom setting adds one text field per
/// text field of its presentation); returns the last editor added, or nullptr when it has none.
QWidget* addSettingEditor(ConfigSection* section, const settings::Setting& setting);
/// Adds the editors of the group's settings whose page is `where`, in table order.
void addSettingEditors(ConfigSection* section, const settings::Group& group, SettingPage where);

} // namespace astrolabe::widgets
