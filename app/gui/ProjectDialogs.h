#pragma once
// The File and Edit menus' project actions and the dialogs behind them: the new project wizard, the
// open and import dialogs, and the ProjectController's prompts (save the unsaved changes? save
// where?) as message boxes and file dialogs. Kept apart so that the controller needs no dialog.

#include <QObject>

class QMenu;
class QWidget;

namespace astrolabe::gui {

class LayoutController;
class ProjectController;

class ProjectDialogs : public QObject {
    Q_OBJECT
public:
    /// Installs the dialog prompts on `project`; dialogs are children of `window`.
    ProjectDialogs(QWidget* window, ProjectController* project);

    /// Adds New, Open, Open Recent (kept by `layout`), Save, Save As and Import to `file`.
    void addFileActions(QMenu* file, LayoutController* layout);
    /// Adds Undo and Redo of the project's one history to `edit`.
    void addEditActions(QMenu* edit);

public slots:
    void newProject();
    void open();
    void importAstra();

private:
    QWidget* m_window;
    ProjectController* m_project;
};

} // namespace astrolabe::gui
