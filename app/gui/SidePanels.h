#pragma once
// The main window's docks around the central tabs: the project explorer on the left, the runs
// list and the log side by side at the bottom, sized for a first start (restoreState then puts
// them where the user left them).

#include <QString>

class QMainWindow;

namespace astrolabe::widgets {
class LogModel;
}

namespace astrolabe::gui {

class ProjectExplorer;
class RunsPanel;
class RunsTableModel;

struct SidePanels {
    ProjectExplorer* explorer = nullptr;
    RunsPanel* runs = nullptr;
};

SidePanels createSidePanels(QMainWindow& window, RunsTableModel* runs, widgets::LogModel* log);

/// The Runs dock's title for the project at `projectPath`: the runs are those of the project
/// database in its folder, which the other projects there share; the title says so when there
/// are any ("Runs · shared by the 3 projects in serving/").
QString runsDockTitle(const QString& projectPath);

} // namespace astrolabe::gui
