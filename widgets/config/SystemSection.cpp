// System layer fields (ASTRA-sim system JSON, spec §3 and §5): every editor is built from the
// settings schema (engine/schema/SystemSettings.cpp, CollectiveSettings.cpp).
#include "config/ConfigSection.h"
#include "config/Sections.h"
#include "config/SettingEditor.h"

namespace astrolabe::widgets {

ConfigSection* createCollectivesSection(QWidget* parent) {
    auto* s = new ConfigSection(QObject::tr("Collective algorithms"), parent);
    addSettingEditors(s, settings::systemGroup(), SettingPage::Collectives);
    return s;
}

ConfigSection* createSystemSection(QWidget* parent) {
    auto* s = new ConfigSection(QObject::tr("Chunks, scheduling and endpoints"), parent);
    addSettingEditors(s, settings::systemGroup(), SettingPage::System);
    return s;
}

} // namespace astrolabe::widgets
