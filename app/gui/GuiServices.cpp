#include "gui/GuiServices.h"

namespace astrolabe::gui {

// SEAM (lead): the production services. Project files and the ASTRA-sim importer are wired in
// ProjectIo.cpp; the run store is wired here (engine/store's SQLite project database, opened next
// to the project file, replaces InMemoryRunStore once it exists).
GuiServices defaultGuiServices() {
    GuiServices s;
    s.io = defaultProjectIo();
    s.openRunStore = [](const QString&) -> std::unique_ptr<RunStore> {
        return std::make_unique<InMemoryRunStore>();
    };
    return s;
}

} // namespace astrolabe::gui
