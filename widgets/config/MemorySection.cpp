// Remote (disaggregated) memory: the memory group of the settings schema
// (engine/schema/MemorySettings.cpp), ASTRA-sim's remote memory JSON (spec §6).
#include "config/ConfigSection.h"
#include "config/Sections.h"
#include "config/SettingEditor.h"

namespace astrolabe::widgets {

ConfigSection* createMemorySection(QWidget* parent) {
    auto* s = new ConfigSection(QObject::tr("Remote memory"), parent);
    addSettingEditors(s, settings::memoryGroup(), SettingPage::Memory);
    return s;
}

} // namespace astrolabe::widgets
