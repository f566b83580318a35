#pragma once
// Everything the main window needs from outside the GUI, in one struct so tests can inject fakes
// and the lead can wire the real engine parts in one place (defaultGuiServices()).

#include "gui/ProjectIo.h"
#include "gui/RunController.h"
#include "gui/RunStore.h"

#include <functional>
#include <memory>

namespace astrolabe::gui {

struct GuiServices {
    ProjectIo io;
    /// Runs one simulation; empty = astrolabe::runSimulation.
    RunController::RunFunction run;
    /// The run store of a project (path empty for an unsaved project): openProjectRunStore by
    /// default.
    std::function<std::unique_ptr<RunStore>(const QString& projectPath)> openRunStore;
    /// Where QSettings live; empty = the application's default settings.
    QString settingsFile;
};

GuiServices defaultGuiServices();

/// An InMemoryRunStore for an unsaved project (empty path); else the SqliteRunStore over
/// defaultDatabasePath(projectPath). When the database cannot be opened, an InMemoryRunStore and
/// the reason in *error.
std::unique_ptr<RunStore> openProjectRunStore(const QString& projectPath, QString* error);

} // namespace astrolabe::gui
