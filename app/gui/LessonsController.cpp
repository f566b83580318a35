#include "gui/LessonsController.h"

#include "core/Error.h"
#include "core/Units.h"
#include "gui/ErrorReporter.h"
#include "gui/Examples.h"
#include "gui/LessonsPanel.h"
#include "gui/ProjectController.h"
#include "gui/ProjectDocument.h"
#include "gui/RunSession.h"
#include "lesson/LessonRun.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QMainWindow>
#include <QStandardPaths>

namespace astrolabe::gui {

LessonsController::LessonsController(QMainWindow* window, ProjectController* project,
                                     RunSession* session, ErrorReporter* errors)
    : QObject(window)
    , m_window(window)
    , m_project(project)
    , m_session(session)
    , m_errors(errors)
    , m_dock(new QDockWidget(tr("Lessons"), window))
    , m_panel(new LessonsPanel(m_dock))
    , m_show(new QAction(tr("&Lessons"), this)) {
    m_dock->setObjectName(QStringLiteral("lessonsDock"));
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    m_dock->hide();
    QStringList titles, paths = lessons(directory());
    for (const QString& path : paths) {
        try {
            titles << QString::fromStdString(loadLesson(path.toStdString()).title);
        } catch (const Error&) {
            titles << QFileInfo(path).dir().dirName() + tr(" (has errors)");
        }
    }
    m_panel->setLessons(titles, paths);
    connect(m_show, &QAction::triggered, this, &LessonsController::showPanel);
    connect(m_panel, &LessonsPanel::lessonChosen, this, &LessonsController::openLesson);
    connect(m_panel, &LessonsPanel::tryRequested, this, &LessonsController::tryStep);
    // Another project in the window: the last step's outcome is no longer what it shows.
    connect(project, &ProjectController::projectOpened, this, [this](const QString& path) {
        if (m_lesson && path != m_projectCopy)
            m_panel->setStatus(tr("Another project is open: \u201CTry it\u201D opens the "
                                  "lesson\u2019s project again."));
    });
    RunController* runner = session->runner();
    connect(runner, &RunController::runFinished, this,
            [this](int id, std::shared_ptr<const RunResult> result, double) {
                if (id != m_runId || !result)
                    return;
                m_panel->markStepRun(m_runStep);
                // In the unit the Runs list and the status bar use for the same run.
                m_panel->setStatus(tr("Step %1 ran: %2 simulated.")
                                       .arg(m_runStep + 1)
                                       .arg(QString::fromStdString(units::formatTime(
                                           result->endTime, units::TimeSpelling::MicroSign))));
            });
    connect(runner, &RunController::runFailed, this,
            [this](int id, const QString& message, const QString&, bool cancelled, double) {
                if (id == m_runId)
                    m_panel->setStatus(
                        cancelled ? tr("Step %1 was stopped.").arg(m_runStep + 1)
                                  : tr("Step %1 failed: %2").arg(m_runStep + 1).arg(message));
            });
}

QString LessonsController::directory() {
#ifdef ASTROLABE_LESSONS_DIR
    return examples::dataDirectory(QStringLiteral("lessons"),
                                   QStringLiteral(ASTROLABE_LESSONS_DIR));
#else
    return examples::dataDirectory(QStringLiteral("lessons"), {});
#endif
}

QStringList LessonsController::lessons(const QString& directory) {
    QStringList out;
    if (directory.isEmpty())
        return out;
    const QDir dir(directory);
    for (const QString& folder : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (QFileInfo(dir.filePath(folder + QStringLiteral("/lesson.md"))).isFile())
            out << dir.filePath(folder + QStringLiteral("/lesson.md"));
    return out;
}

void LessonsController::showPanel() {
    if (m_dock->isHidden()) // a third of the window beside the project, for reading
        m_window->resizeDocks({m_dock}, {m_window->width() / 3}, Qt::Horizontal);
    m_dock->show();
    m_dock->raise();
}

void LessonsController::report(const QString& message) {
    m_panel->setStatus(message);
    m_errors->report(tr("Lesson"), message);
}

bool LessonsController::openLesson(const QString& lessonPath) {
    showPanel();
    // Nothing changes until the new lesson's project is open: a broken lesson, or "Cancel" on
    // the question about unsaved changes, leaves the lesson and project shown as they were.
    const QString shown = m_lesson ? QString::fromStdString(m_lesson->file) : QString();
    std::optional<Lesson> next;
    try {
        next = loadLesson(lessonPath.toStdString());
    } catch (const Error& e) {
        m_panel->selectLesson(shown);
        report(QString::fromStdString(e.what()));
        return false;
    }
    // The copy's folder is named after the lesson's, under the user's data folder.
    const QFileInfo lessonFile(lessonPath);
    const QString root =
        m_copyDirectory.isEmpty()
            ? QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                  QStringLiteral("/lessons")
            : m_copyDirectory;
    const QString folder = root + QLatin1Char('/') + lessonFile.dir().dirName();
    const QString project = QString::fromStdString(next->projectPath);
    const QString copy = folder + QLatin1Char('/') + QFileInfo(project).fileName();
    // The project and the files beside it (a sweep, an exported collective algorithm the steps
    // name by relative path); a newer bundled version replaces the old copy. Runs stay: the
    // copy's database is not among the bundled files.
    bool copied = QDir().mkpath(folder);
    const QFileInfoList files = QFileInfo(project).dir().entryInfoList(QDir::Files);
    for (const QFileInfo& file : files) {
        if (file.fileName().contains(QStringLiteral(".db")))
            continue; // a database left in a source tree is not part of the lesson
        const QString target = folder + QLatin1Char('/') + file.fileName();
        QFile::remove(target);
        copied = copied && QFile::copy(file.absoluteFilePath(), target);
    }
    if (!copied || !QFileInfo::exists(copy)) {
        m_panel->selectLesson(shown);
        report(tr("Cannot copy the lesson's project to %1").arg(folder));
        return false;
    }
    const QString previousCopy = m_projectCopy;
    m_projectCopy = copy;
    if (!openProject()) {
        m_projectCopy = previousCopy;
        m_panel->selectLesson(shown);
        return false;
    }
    // Steps start from the copy, so the files they name (tacos-mesh4x4.xml) are the copy's too.
    next->projectPath = copy.toStdString();
    next->folder = folder.toStdString();
    m_lesson = std::move(next);
    m_panel->showLesson(*m_lesson);
    if (!m_lesson->setup.empty())
        m_project->document()->replaceSpec(lessonStep(*m_lesson, -1).spec);
    return true;
}

bool LessonsController::openProject() {
    if (m_project->hasProject() && m_project->document()->path() == m_projectCopy)
        return true;
    return m_project->open(m_projectCopy);
}

int LessonsController::tryStep(int step) {
    if (!m_lesson || step < 0 || step >= m_lesson->stepCount())
        return 0;
    LessonStepSpec made;
    try {
        made = lessonStep(*m_lesson, step);
    } catch (const Error& e) {
        report(QString::fromStdString(e.what()));
        return 0;
    }
    if (!openProject())
        return 0;
    const SimulationSpec spec = made.spec;
    m_project->document()->applyEdit(
        {QString(), tr("Lesson step %1").arg(step + 1), [spec](SimulationSpec& s) { s = spec; }});
    const QString variant = tr("lesson step %1").arg(step + 1);
    m_runStep = step;
    if (made.generator) {
        SimulationSpec named = made.spec; // what ran, in the runs list: the generated iteration
        named.workload.kind = WorkloadSource::Kind::ChakraTrace;
        named.workload.tracePrefix = "generated:" + made.generator->model.name;
        m_runId = m_session->startNamed(
            named,
            [this, variant](int number) {
                return tr("%1 #%2 (%3)")
                    .arg(m_project->document()->displayName())
                    .arg(number)
                    .arg(variant);
            },
            [made](SimulationSpec& s) { return makeLessonTraces(made, s); });
    } else {
        m_runId = m_session->start(made.spec, variant);
    }
    m_panel->setStatus(tr("Step %1 running…").arg(step + 1));
    emit stepStarted(step, m_runId);
    return m_runId;
}

} // namespace astrolabe::gui
