#pragma once
// The Help menu and context help:
//   Help > User Guide (the HelpWindow, at its start), Lessons (LessonsController), Examples (the
//   bundled projects under projects/, opened like any project), About Astrolabe, About Qt; F1
//   anywhere opens the guide at the section of the panel that has the keyboard focus (the current
//   tab when nothing has it, "Getting started" before a project is open).

#include <QObject>
#include <QPointer>
#include <QStringList>

class QAction;
class QMainWindow;
class QMenu;
class QWidget;

namespace astrolabe::gui {

class HelpWindow;
class ProjectController;
class WorkspaceTabs;

class HelpController : public QObject {
    Q_OBJECT
public:
    HelpController(QMainWindow* window, WorkspaceTabs* tabs, ProjectController* project);

    /// Fills `help` with User Guide, Lessons (`lessons`, when given), Examples, About Astrolabe
    /// and About Qt.
    void attachHelpMenu(QMenu* help, QAction* lessons = nullptr);

    /// The guide's section for `widget`: that of the nearest panel holding it.
    QString sectionFor(const QWidget* widget) const;
    /// Opens the guide (one window, raised when already open) at `section`; empty: the start.
    HelpWindow* showGuide(const QString& section = {});
    /// F1: the guide at the section of the focused panel.
    void showContextHelp();
    /// The guide window when open, else nullptr.
    HelpWindow* helpWindow() const;

private:
    QMainWindow* m_window;
    WorkspaceTabs* m_tabs;
    ProjectController* m_project;
    QPointer<HelpWindow> m_help;
    QAction* m_contextHelp = nullptr;
};

} // namespace astrolabe::gui
