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
    /// SEAM: the run store of a project (path empty for an unsaved project). Today an
    /// InMemoryRunStore; the SQLite project database (engine/store) plugs in here.
    std::function<std::unique_ptr<RunStore>(const QString& projectPath)> openRunStore;
    /// Where QSettings live; empty = the application's default settings.
    QString settingsFile;
};

GuiServices defaultGuiServices();

} // namespace astrolabe::gui
