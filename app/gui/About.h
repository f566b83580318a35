#pragma once
// The About box's text, also printed by "astrolabe --version".

#include <QString>

namespace astrolabe::gui {

QString aboutText();

} // namespace astrolabe::gui
