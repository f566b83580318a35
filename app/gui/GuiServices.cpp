#include "gui/GuiServices.h"

#include "core/Error.h"
#include "gui/SqliteRunStore.h"
#include "store/RunStorage.h"

namespace astrolabe::gui {

std::unique_ptr<RunStore> openProjectRunStore(const QString& projectPath, QString* error) {
    if (projectPath.isEmpty())
        return std::make_unique<InMemoryRunStore>();
    try {
        return std::make_unique<SqliteRunStore>(
            QString::fromStdString(defaultDatabasePath(projectPath.toStdString())));
    } catch (const Error& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return std::make_unique<InMemoryRunStore>();
    }
}

// The production services. Project files and the ASTRA-sim importer are wired in ProjectIo.cpp;
// a saved project keeps its runs in the SQLite project database beside its file.
GuiServices defaultGuiServices() {
    GuiServices s;
    s.io = defaultProjectIo();
    s.openRunStore = [](const QString& projectPath) {
        return openProjectRunStore(projectPath, nullptr);
    };
    return s;
}

} // namespace astrolabe::gui
