#pragma once
// Internal to the schema: the parts of the system group declared in their own files.

#include "schema/Setting.h"

namespace astrolabe::settings {

/// Algorithm lists, custom collectives, per-node custom collectives (CollectiveSettings.cpp).
std::vector<Setting> collectiveSettings();
/// Keys of ASTRA-sim's system JSON that Astrolabe accepts but does not use (AstraOnlySettings.cpp).
std::vector<Setting> astraOnlySettings();

} // namespace astrolabe::settings
