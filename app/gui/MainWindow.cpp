#include "gui/MainWindow.h"

#include "common/LogModel.h"
#include "core/Version.h"
#include "gui/CalibrationDialog.h"
#include "gui/ErrorReporter.h"
#include "gui/HelpController.h"
#include "gui/ImportTraceDialog.h"
#include "gui/LessonsController.h"
#include "gui/PresentationController.h"
#include "gui/ProjectDialogs.h"
#include "gui/ProjectDocument.h"
#include "gui/ProjectExplorer.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "gui/SidePanels.h"
#include "gui/SweepController.h"
#include "gui/SweepSession.h"
#include "gui/WelcomePage.h"
#include "store/RunStorage.h"
#include "topology/TopologyMath.h"

#include <QAbstractItemView>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QStackedWidget>
#include <QStatusBar>

namespace astrolabe::gui {

MainWindow::MainWindow(QWidget* parent)
    : MainWindow(defaultGuiServices(), parent) {}

MainWindow::MainWindow(GuiServices services, QWidget* parent)
    : QMainWindow(parent) {
    if (!services.io.load)
        services.io = defaultProjectIo();
    if (!services.openRunStore)
        services.openRunStore = defaultGuiServices().openRunStore;
    setWindowTitle(QStringLiteral("Astrolabe"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/astrolabe.svg")));
    setObjectName(QStringLiteral("MainWindow"));
    m_log = new widgets::LogModel(this);
    m_layout = new LayoutController(services.settingsFile, this);
    m_document = new ProjectDocument(services.io, this);
    m_project = new ProjectController(m_document, m_log, this);
    m_runs = new RunController(services.run, this);
    m_store = new RunStoreController(services.openRunStore, m_log, this);
    m_session = new RunSession(m_runs, m_document, m_store, m_log, this);
    m_dialogs = new ProjectDialogs(this, m_project);

    m_stack = new QStackedWidget(this);
    m_welcome = new WelcomePage(m_stack);
    m_tabs = new WorkspaceTabs(m_document->undoStack(), m_stack);
    m_stack->addWidget(m_welcome);
    m_stack->addWidget(m_tabs);
    setCentralWidget(m_stack);
    m_workload = new WorkloadController(m_tabs->modelBuilder(), m_project, m_session, this);
    m_planner =
        new PlannerSession(m_tabs->planner(), m_tabs->modelBuilder(), m_document, m_workload, this);
    m_errors = new ErrorReporter(this, m_log, statusBar(), m_tabs, [this] { return hasProject(); });
    m_sweeps = new SweepSession(
        {this, statusBar(), [this] { return hasProject(); }, [this] { reloadRuns(); },
         [this](const QList<int>& ids) { compareRuns(ids); }, [this] { return m_project->save(); }},
        m_tabs, m_document, m_store, m_errors, this);
    m_bandwidth = new BandwidthOptimizerSession(m_tabs, m_document, m_errors, this);
    // What the Log says of the sessions that run many things at once.
    connect(m_sweeps->controller(), &SweepController::planned, this,
            [this](int points, int stored, int toRun) {
                m_log->append(widgets::LogModel::Severity::Info,
                              tr("Sweep of %1 points started: %2 to run, %3 already stored")
                                  .arg(points)
                                  .arg(toRun)
                                  .arg(stored));
            });
    connect(m_sweeps->controller(), &SweepController::finished, this, [this](bool cancelled) {
        m_log->append(cancelled ? widgets::LogModel::Severity::Warning
                                : widgets::LogModel::Severity::Info,
                      cancelled ? tr("Sweep cancelled") : tr("Sweep finished"));
    });
    connect(m_planner, &PlannerSession::applied, this, [this](const QString& description) {
        m_log->append(widgets::LogModel::Severity::Info,
                      tr("%1 (model builder; Edit > Undo takes it back)").arg(description));
    });
    m_tabs->addWatchTab();
    m_tabs->addServingTab();
    m_runBar = new RunToolBar(m_session, this);
    m_presentation = new PresentationController(this, m_tabs, m_layout);
    m_help = new HelpController(this, m_tabs, m_project);
    m_lessons = new LessonsController(this, m_project, m_session, m_errors);
    const SidePanels panels = createSidePanels(*this, m_store->model(), m_log);
    m_explorer = panels.explorer;
    m_runsPanel = panels.runs;
    createMenus();
    addToolBar(m_runBar);
    statusBar()->showMessage(tr("Ready"));
    m_queueLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_queueLabel);
    connectProject();
    connectRuns();
    resize(1280, 800);
    setUnitConvention(m_layout->savedUnitConvention());
    m_layout->restoreWindow(*this);
    m_welcome->setRecentProjects(m_layout->recentProjects());
    m_log->append(widgets::LogModel::Severity::Info,
                  tr("Astrolabe %1 started").arg(QString::fromLatin1(engineVersion())));
}

MainWindow::~MainWindow() {
    // Runs first: their threads must stop before the controllers they report to go away; then
    // the store, which waits for its saves and loads. A sweep's threads stop (cancelled) first.
    delete m_sweeps;
    delete m_bandwidth;
    delete m_runs;
    // The runs list empties as the store goes: there is no run to show any more.
    m_runsPanel->disconnect(this);
    m_store->disconnect(this);
    delete m_session;
    delete m_workload;
    delete m_store;
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_dialogs->addFileActions(file, m_layout);
    file->addAction(tr("Import &Trace\u2026"), this, [this] {
        if (!hasProject())
            return;
        ImportTraceDialog dialog(m_document, this);
        connect(&dialog, &ImportTraceDialog::imported, this, [this](const QString& summary) {
            m_log->append(widgets::LogModel::Severity::Info, summary);
        });
        connect(&dialog, &ImportTraceDialog::runRequested, this, [this] {
            if (startRun() > 0) // the per-NPU timeline of the measured durations
                m_tabs->setCurrentIndex(TimelineTab);
        });
        dialog.exec();
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    m_dialogs->addEditActions(menuBar()->addMenu(tr("&Edit")));
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addActions({runAction(), stopAction()});
    run->addSeparator();
    m_sweeps->addActions(run);
    m_bandwidth->addActions(run);
    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(tr("&Calibrate from nccl-tests\u2026"), this, [this] {
        CalibrationDialog dialog(m_document, this);
        connect(&dialog, &CalibrationDialog::applied, this, [this](const QString& summary) {
            m_log->append(widgets::LogModel::Severity::Info, summary);
            statusBar()->showMessage(tr("Calibration applied; Edit > Undo takes it back"), 8000);
        });
        dialog.exec();
    });
    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    m_layout->attachUnitsMenu(view->addMenu(tr("&Units")));
    view->addSeparator();
    m_presentation->attachViewMenu(view);
    m_help->attachHelpMenu(menuBar()->addMenu(tr("&Help")), m_lessons->showAction());
}

void MainWindow::connectProject() {
    connect(m_project, &ProjectController::projectOpened, this, &MainWindow::projectOpened);
    connect(m_project, &ProjectController::saved, m_store, &RunStoreController::moveToProject);
    connect(m_project, &ProjectController::fileUsed, m_layout, &LayoutController::addRecent);
    connect(m_project, &ProjectController::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(m_project, &ProjectController::errorOccurred, m_errors, &ErrorReporter::report);
    connect(m_document, &ProjectDocument::specChanged, this, [this] {
        m_tabs->setSpec(m_document->spec());
        refreshExplorer();
        updateTitle();
    });
    connect(m_document, &ProjectDocument::lastRunChanged, this,
            [this] { m_tabs->setBaseline(m_document->lastRunSpec()); });
    connect(m_document, &ProjectDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ProjectDocument::pathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ProjectDocument::pathChanged, this, &MainWindow::updateRunsTitle);
    connect(m_tabs, &WorkspaceTabs::editRequested, m_document, &ProjectDocument::applyEdit);
    connect(m_tabs, &WorkspaceTabs::editRecorded, m_document, &ProjectDocument::applyRecordedEdit);
    connect(m_welcome, &WelcomePage::quickStartRequested, this,
            [this] { newProjectFromPreset(QStringLiteral("quickstart")); });
    connect(m_welcome, &WelcomePage::newProjectRequested, m_dialogs, &ProjectDialogs::newProject);
    connect(m_welcome, &WelcomePage::openRequested, m_dialogs, &ProjectDialogs::open);
    connect(m_welcome, &WelcomePage::recentRequested, m_project, &ProjectController::open);
    connect(m_layout, &LayoutController::recentRequested, m_project, &ProjectController::open);
    connect(m_layout, &LayoutController::recentChanged, m_welcome, &WelcomePage::setRecentProjects);
    connect(m_layout, &LayoutController::unitConventionChanged, this, [this] {
        // Labels, axes and summaries are written when a run is shown; tables, as they paint.
        showRun(m_runsPanel->selectedRunId());
        for (QAbstractItemView* view : findChildren<QAbstractItemView*>())
            view->viewport()->update();
    });
    connect(m_explorer, &ProjectExplorer::partActivated, this,
            [this](ProjectExplorer::Part part, int runId, const QString& key) {
                if (part == ProjectExplorer::Part::Run)
                    m_runsPanel->selectRun(runId);
                m_tabs->showPart(part, key);
            });
}

void MainWindow::connectRuns() {
    connect(m_runBar, &RunToolBar::runRequested, this, &MainWindow::startRun);
    connect(m_tabs, &WorkspaceTabs::runRequested, this, &MainWindow::startRunOf);
    connect(m_session, &RunSession::queueTextChanged, m_queueLabel, &QLabel::setText);
    connect(m_session, &RunSession::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(m_session, &RunSession::errorOccurred, m_errors, &ErrorReporter::report);
    connect(m_workload, &WorkloadController::errorOccurred, m_errors, &ErrorReporter::report);
    m_store->setShownRun([this] { return m_runsPanel->selectedRunId(); });
    connect(m_store, &RunStoreController::errorOccurred, m_errors, &ErrorReporter::report);
    connect(m_store, &RunStoreController::runStored, this, [this](int id) {
        refreshExplorer();
        m_runsPanel->selectRun(id);
        emit runStored(id);
    });
    connect(m_store, &RunStoreController::resultLoaded, this, [this](int id) {
        if (m_runsPanel->selectedRunId() == id)
            showRun(id);
        emit resultLoaded(id);
    });
    connect(m_store, &RunStoreController::runsChanged, this, &MainWindow::refreshExplorer);
    connect(m_runsPanel, &RunsPanel::runSelected, this, &MainWindow::showRun);
    connect(m_runsPanel, &RunsPanel::compareRequested, this, &MainWindow::compareRuns);
}

void MainWindow::reloadRuns() {
    m_store->attach(m_document->path());
    refreshExplorer();
}

void MainWindow::newProjectFromPreset(const QString& presetId) {
    if (m_project->newFromPreset(presetId))
        m_tabs->setCurrentIndex(ConfigurationTab);
}

void MainWindow::projectOpened(const QString& path) {
    m_store->attach(path);
    updateRunsTitle();
    m_session->reset();        // runs of the previous project still going are stopped
    m_tabs->clearComparison(); // views show the open project's runs only
    m_sweeps->projectOpened();
    m_runBar->setProjectOpen(true);
    m_stack->setCurrentWidget(m_tabs);
    if (m_tabs->currentIndex() < 0)
        m_tabs->setCurrentIndex(ConfigurationTab);
    refreshExplorer();
    updateTitle();
    showRun(0);
}

void MainWindow::updateRunsTitle() {
    // The runs are the folder database's: the title says when other projects share it.
    auto* runsDock = findChild<QDockWidget*>(QStringLiteral("runsDock"));
    if (!runsDock)
        return;
    const QString path = hasProject() ? m_document->path() : QString();
    runsDock->setWindowTitle(runsDockTitle(path));
    runsDock->setToolTip(
        path.isEmpty() ? QString()
                       : tr("Runs stored in %1")
                             .arg(QString::fromStdString(defaultDatabasePath(path.toStdString()))));
}

void MainWindow::updateTitle() {
    setWindowTitle(m_project->windowTitle());
    setWindowModified(hasProject() && m_document->isModified());
}

void MainWindow::refreshExplorer() {
    if (!hasProject())
        return;
    m_explorer->showProject(m_document->displayName(), m_document->spec());
    m_explorer->showRuns(m_store->store());
}

void MainWindow::showRun(int id) {
    m_tabs->showRun(m_store->runToShow(id)); // a stored result says "loading" until loaded
}

int MainWindow::startRun() {
    if (!hasProject())
        return 0;
    // The topology editor marks a bad value (a bandwidth of 0) but keeps it in the project, so a
    // run would only fail with the engine's wording of the same problem and be stored as Failed.
    if (const PlatformSpec& platform = m_document->spec().platform; !platform.graph) {
        QStringList problems;
        for (const widgets::PlatformProblem& p : widgets::platformProblems(platform))
            problems << QString::fromStdString(p.message);
        if (!problems.isEmpty()) {
            m_errors->report(tr("Cannot Run"),
                             tr("The platform is not valid yet: %1. Fix it in the Topology tab, "
                                "then run again.")
                                 .arg(problems.join(QStringLiteral("; "))));
            m_tabs->setCurrentIndex(TopologyTab);
            return 0;
        }
    }
    const QStringList invalid = m_tabs->invalidSettings(m_document->spec());
    if (invalid.isEmpty())
        return startRunOf(m_document->spec(), QString());
    m_errors->report(tr("Cannot Run"), tr("Some settings are not valid yet: %1. Fix the fields "
                                          "marked in red, then run again.")
                                           .arg(invalid.join(QStringLiteral(", "))));
    m_tabs->focusFirstInvalid();
    return 0;
}

int MainWindow::startRunOf(SimulationSpec spec, const QString& variant) {
    return hasProject() ? m_session->start(std::move(spec), variant) : 0;
}

void MainWindow::compareRuns(const QList<int>& ids) {
    m_tabs->compareRuns(m_store->loadForComparison(ids));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!m_project->maybeDiscard()) {
        event->ignore();
        return;
    }
    m_runs->stop();
    m_layout->saveWindow(*this);
    event->accept();
}

} // namespace astrolabe::gui
