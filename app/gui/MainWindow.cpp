#include "gui/MainWindow.h"

#include "common/LogModel.h"
#include "config/ConfigurationPanel.h"
#include "core/Error.h"
#include "core/Version.h"
#include "gui/ImportAstraDialog.h"
#include "gui/NewProjectWizard.h"
#include "gui/Presets.h"
#include "gui/ProjectDocument.h"
#include "gui/ProjectExplorer.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "gui/WelcomePage.h"
#include "gui/WorkspacePages.h"

#include <QAbstractItemView>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QThreadPool>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>

namespace astrolabe::gui {

namespace {
constexpr int kMaxRecent = 8;
const QString kRecentKey = QStringLiteral("recentProjects");
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : MainWindow(defaultGuiServices(), parent) {}

MainWindow::MainWindow(GuiServices services, QWidget* parent)
    : QMainWindow(parent)
    , m_services(std::move(services)) {
    if (!m_services.io.load)
        m_services.io = defaultProjectIo();
    if (!m_services.openRunStore)
        m_services.openRunStore = defaultGuiServices().openRunStore;
    setWindowTitle(QStringLiteral("Astrolabe"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/astrolabe.svg")));
    setObjectName(QStringLiteral("MainWindow"));
    m_document = new ProjectDocument(m_services.io, this);
    m_runs = new RunController(m_services.run, this);
    m_runsModel = new RunsTableModel(this);
    m_log = new widgets::LogModel(this);
    m_workers = new QThreadPool(this);
    m_workers->setMaxThreadCount(1); // saves and loads in order; one core for the GUI
    auto* storeErrors = new QTimer(this);
    connect(storeErrors, &QTimer::timeout, this, &MainWindow::reportStoreErrors);
    storeErrors->start(1000);
    attachStore({});

    createActions();
    createCentral();
    createDocks();
    createMenus();
    connectDocument();
    connectRunController();
    statusBar()->showMessage(tr("Ready"));
    m_queueLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_queueLabel);
    resize(1280, 800);
    restoreLayout();
    updateRunActions();
    m_log->append(widgets::LogModel::Severity::Info,
                  tr("Astrolabe %1 started").arg(QString::fromLatin1(engineVersion())));
}

MainWindow::~MainWindow() {
    // Runs first: their threads must stop before the models they report to go away.
    delete m_runs;
    m_runs = nullptr;
    m_workers->waitForDone(); // their queued replies name `this`
    m_runsModel->setStore(nullptr);
}

void MainWindow::createActions() {
    m_runAction = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this);
    m_runAction->setShortcut(Qt::Key_F5);
    m_runAction->setToolTip(tr("Run the simulation with the current settings (F5). Runs started "
                               "while another is running wait in a queue."));
    connect(m_runAction, &QAction::triggered, this, [this] { startRun(); });
    m_stopAction = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Stop"), this);
    m_stopAction->setShortcut(Qt::SHIFT | Qt::Key_F5);
    m_stopAction->setToolTip(tr("Stop the running simulation and drop the queued ones"));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopRuns);
    // The project's one history: topology editor, configuration panels and model builder all
    // record on m_document->undoStack(), and these two actions are the only owners of the keys.
    m_undoAction = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    m_undoAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Z)});
    m_redoAction = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    m_redoAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    for (QAction* action : {m_undoAction, m_redoAction})
        action->setShortcutContext(Qt::WindowShortcut);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New Project\u2026"), QKeySequence::New, this, &MainWindow::onNewProject);
    file->addAction(tr("&Open\u2026"), QKeySequence::Open, this, &MainWindow::onOpen);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    m_saveAction =
        file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { saveProject(); });
    m_saveAsAction =
        file->addAction(tr("Save &As\u2026"), QKeySequence::SaveAs, this, &MainWindow::onSaveAs);
    file->addSeparator();
    file->addAction(tr("&Import ASTRA-sim Configuration\u2026"), this, &MainWindow::onImport);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_undoAction);
    edit->addAction(m_redoAction);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_stopAction);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    QMenu* unitsMenu = m_viewMenu->addMenu(tr("&Units"));
    m_unitActions = new QActionGroup(this);
    const std::pair<units::Convention, QString> conventions[] = {
        {units::Convention::AsEntered, tr("As &Entered (50 GiB/s, 400 GB/s)")},
        {units::Convention::Decimal, tr("All &Decimal (GB, GB/s)")},
        {units::Convention::Binary, tr("All &Binary (GiB, GiB/s)")},
    };
    for (const auto& [convention, label] : conventions) {
        QAction* action = unitsMenu->addAction(label);
        action->setCheckable(true);
        action->setData(static_cast<int>(convention));
        action->setChecked(convention == units::convention());
        m_unitActions->addAction(action);
        connect(action, &QAction::triggered, this,
                [this, c = convention] { setUnitConvention(c); });
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Astrolabe"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("runToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_runAction);
    bar->addAction(m_stopAction);
    m_progress = new QProgressBar(bar);
    m_progress->setMaximumWidth(180);
    m_progress->setTextVisible(false);
    m_progress->setRange(0, 0);
    // Hidden while idle; a tool bar shows and hides its widgets through their actions.
    m_progressAction = bar->addWidget(m_progress);
    m_progressAction->setVisible(false);
    m_progressLabel = new QLabel(bar);
    m_progressLabel->setContentsMargins(8, 0, 8, 0);
    m_progressLabel->setMinimumWidth(360);
    bar->addWidget(m_progressLabel);
}

void MainWindow::createCentral() {
    m_stack = new QStackedWidget(this);
    m_welcome = new WelcomePage(m_stack);
    m_tabs = new QTabWidget(m_stack);
    m_tabs->setDocumentMode(true);
    m_config = new widgets::ConfigurationPanel(m_tabs);
    m_pages = {createTopologyPage(m_tabs, m_document->undoStack()), createTimelinePage(m_tabs),
               createUtilizationPage(m_tabs), createComparePage(m_tabs)};
    m_tabs->addTab(m_pages[0], tr("Topology"));
    m_tabs->addTab(m_config, tr("Configuration"));
    m_tabs->addTab(m_pages[1], tr("Timeline"));
    m_tabs->addTab(m_pages[2], tr("Utilization"));
    m_tabs->addTab(m_pages[3], tr("Compare"));
    createWorkloadTab();
    m_stack->addWidget(m_welcome);
    m_stack->addWidget(m_tabs);
    setCentralWidget(m_stack);

    connect(m_welcome, &WelcomePage::quickStartRequested, this,
            [this] { newProjectFromPreset(QStringLiteral("quickstart")); });
    connect(m_welcome, &WelcomePage::newProjectRequested, this, &MainWindow::onNewProject);
    connect(m_welcome, &WelcomePage::openRequested, this, &MainWindow::onOpen);
    connect(m_welcome, &WelcomePage::recentRequested, this,
            [this](const QString& path) { openProject(path); });
    connect(m_config, &widgets::ConfigurationPanel::editRequested, this,
            [this](const widgets::SpecEdit& edit) { m_document->applyEdit(edit); });
    for (WorkspacePage* page : m_pages) {
        connect(page, &WorkspacePage::editRequested, this,
                [this](const widgets::SpecEdit& edit) { m_document->applyEdit(edit); });
        connect(page, &WorkspacePage::editRecorded, this,
                [this](const widgets::SpecEdit& edit) { m_document->applyRecordedEdit(edit); });
        connect(page, &WorkspacePage::runRequested, this,
                [this](const SimulationSpec& spec, const QString& variant) {
                    startRunOf(spec, variant);
                });
    }
}

void MainWindow::createDocks() {
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    auto* explorerDock = new QDockWidget(tr("Project"), this);
    explorerDock->setObjectName(QStringLiteral("projectDock"));
    m_explorer = new ProjectExplorer(explorerDock);
    explorerDock->setWidget(m_explorer);
    addDockWidget(Qt::LeftDockWidgetArea, explorerDock);
    connect(m_explorer, &ProjectExplorer::partActivated, this,
            [this](ProjectExplorer::Part part, int runId, const QString& key) {
                onExplorerActivated(static_cast<int>(part), runId, key);
            });

    auto* runsDock = new QDockWidget(tr("Runs"), this);
    runsDock->setObjectName(QStringLiteral("runsDock"));
    m_runsPanel = new RunsPanel(m_runsModel, runsDock);
    runsDock->setWidget(m_runsPanel);
    addDockWidget(Qt::BottomDockWidgetArea, runsDock);
    connect(m_runsPanel, &RunsPanel::runSelected, this, &MainWindow::showRun);
    connect(m_runsPanel, &RunsPanel::compareRequested, this, &MainWindow::compareRuns);
    connect(m_runsModel, &QAbstractItemModel::dataChanged, this, &MainWindow::refreshExplorer);
    connect(m_runsModel, &QAbstractItemModel::rowsRemoved, this, &MainWindow::refreshExplorer);

    auto* logDock = new QDockWidget(tr("Log"), this);
    logDock->setObjectName(QStringLiteral("logDock"));
    auto* logView = new QListView(logDock);
    logView->setModel(m_log);
    logView->setWordWrap(true);
    logDock->setWidget(logView);
    addDockWidget(Qt::BottomDockWidgetArea, logDock);
    splitDockWidget(runsDock, logDock, Qt::Horizontal);
    resizeDocks({explorerDock}, {260}, Qt::Horizontal);
    resizeDocks({runsDock, logDock}, {900, 380}, Qt::Horizontal);
    resizeDocks({runsDock}, {190}, Qt::Vertical);
    connect(m_log, &QAbstractItemModel::rowsInserted, logView, &QListView::scrollToBottom);
}

void MainWindow::connectDocument() {
    connect(m_document, &ProjectDocument::specChanged, this, [this] {
        m_config->setSpec(m_document->spec());
        for (WorkspacePage* page : m_pages)
            page->setSpec(m_document->spec());
        refreshExplorer();
        updateTitle();
    });
    connect(m_document, &ProjectDocument::lastRunChanged, this,
            [this] { m_config->setBaseline(m_document->lastRunSpec()); });
    connect(m_document, &ProjectDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ProjectDocument::pathChanged, this, &MainWindow::updateTitle);
}

std::unique_ptr<QSettings> MainWindow::settings() const {
    if (!m_services.settingsFile.isEmpty())
        return std::make_unique<QSettings>(m_services.settingsFile, QSettings::IniFormat);
    return std::make_unique<QSettings>();
}

void MainWindow::restoreLayout() {
    auto s = settings();
    try {
        setUnitConvention(units::parseConvention(
            s->value(QStringLiteral("view/units"), QStringLiteral("as-entered"))
                .toString()
                .toStdString()));
    } catch (const Error&) {
        setUnitConvention(units::Convention::AsEntered); // a hand-edited settings file
    }
    restoreGeometry(s->value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s->value(QStringLiteral("window/state")).toByteArray());
    m_welcome->setRecentProjects(recentProjects());
}

void MainWindow::setUnitConvention(units::Convention convention) {
    units::setConvention(convention);
    for (QAction* action : m_unitActions->actions())
        action->setChecked(action->data().toInt() == static_cast<int>(convention));
    settings()->setValue(QStringLiteral("view/units"),
                         QString::fromLatin1(units::conventionName(convention)));
    // Labels, axes and summaries are written when a run is shown; tables format as they paint.
    showRun(m_runsPanel->selectedRunId());
    for (QAbstractItemView* view : findChildren<QAbstractItemView*>())
        view->viewport()->update();
}

void MainWindow::saveLayout() {
    auto s = settings();
    s->setValue(QStringLiteral("window/geometry"), saveGeometry());
    s->setValue(QStringLiteral("window/state"), saveState());
}

QStringList MainWindow::recentProjects() const {
    return settings()->value(kRecentKey).toStringList();
}

void MainWindow::addRecent(const QString& path) {
    QStringList recent = recentProjects();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings()->setValue(kRecentKey, recent);
    rebuildRecentMenu();
    m_welcome->setRecentProjects(recent);
}

void MainWindow::rebuildRecentMenu() {
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = recentProjects();
    for (const QString& path : recent)
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this, [this, path] { openProject(path); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeDiscard()) {
        event->ignore();
        return;
    }
    m_runs->stop();
    saveLayout();
    event->accept();
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About Astrolabe"), aboutText());
}

QString MainWindow::aboutText() {
    return tr("<h3>Astrolabe %1</h3>"
              "<p>A laboratory for designing distributed AI training platforms: multi-dimensional "
              "networks, Chakra workloads, collectives, and a timeline that explains the "
              "result.</p>"
              "<p>Reads ASTRA-sim 2.x inputs and reproduces its analytical results.</p>")
        .arg(QString::fromLatin1(engineVersion()));
}

} // namespace astrolabe::gui
