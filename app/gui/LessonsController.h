#pragma once
// Lessons (docs/lessons.md) in the window: the Lessons dock beside the live project, Help >
// Lessons, opening a lesson's project and running its "Try it" steps through the window's own
// run path (RunSession: the runs are named, stored and shown like any other).
//
// A bundled lesson lives under share/astrolabe/lessons (the source tree's resources/lessons/ in a
// build that is not installed), which may be read-only: its project is opened from a copy under the
// user's data folder, so that its runs can be stored beside it. Steps are made from the bundled
// files (engine/lesson), so they are the same whatever the reader changed by hand.

#include "lesson/Lesson.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <optional>

class QAction;
class QDockWidget;
class QMainWindow;

namespace astrolabe::gui {

class ErrorReporter;
class LessonsPanel;
class ProjectController;
class RunSession;

class LessonsController : public QObject {
    Q_OBJECT
public:
    /// Adds the (hidden) Lessons dock to `window`. Collaborators are observed, not owned.
    LessonsController(QMainWindow* window, ProjectController* project, RunSession* session,
                      ErrorReporter* errors);

    /// Help > Lessons: shows the dock.
    QAction* showAction() const { return m_show; }
    QDockWidget* dock() const { return m_dock; }
    LessonsPanel* panel() const { return m_panel; }

    /// The installed lessons beside the program, else the source tree's; empty when neither.
    static QString directory();
    /// Every lesson.md one folder below `directory`, in folder order.
    static QStringList lessons(const QString& directory);

    /// Reads and checks the lesson, opens its project (from a writable copy), applies its setup
    /// and shows its text. False (after an error naming the lesson file and line) otherwise.
    bool openLesson(const QString& lessonPath);
    /// Applies step `step`'s settings to the project (one undoable edit) and runs it. Returns
    /// the run's id, 0 when nothing ran (an error was reported).
    int tryStep(int step);
    /// Where lessons' projects are copied (default: "lessons" under the user's data folder).
    void setCopyDirectory(const QString& directory) { m_copyDirectory = directory; }
    /// The open lesson, if any.
    const Lesson* lesson() const { return m_lesson ? &*m_lesson : nullptr; }

signals:
    /// A step's run was queued (its id is the RunSession's).
    void stepStarted(int step, int runId);

private:
    void showPanel();
    bool openProject();
    void report(const QString& message);

    QMainWindow* m_window;
    ProjectController* m_project;
    RunSession* m_session;
    ErrorReporter* m_errors;
    QDockWidget* m_dock;
    LessonsPanel* m_panel;
    QAction* m_show;
    std::optional<Lesson> m_lesson;
    QString m_copyDirectory;
    QString m_projectCopy; ///< the project file the lesson's runs are stored beside
    int m_runId = 0;
    int m_runStep = -1;
};

} // namespace astrolabe::gui
