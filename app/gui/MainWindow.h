#pragma once
// The main window: project explorer, central tabs (Topology, Configuration, Timeline,
// Utilization, Compare, Workload), run toolbar, runs list and log docks, status bar.
//
// Wiring only: it builds the widgets and connects them to the controllers that do the work,
// each usable without the window -
//   ProjectController   the project document: new, open, save, import, unsaved changes
//   RunSession          naming, queueing and following runs (on RunController's threads)
//   RunStoreController  the runs list's store: saving results, loading stored ones
//   WorkloadController  the model builder and its generated runs
//   LayoutController    settings: window state, recent projects, unit convention
//   SweepSession        the Sweep tab: a sweep file's points, run and stored off the GUI thread
//   BandwidthOptimizerSession  the Bandwidth tab: LIBRA's allocation per dimension, applied
//   undoably
//   PresentationController  View > zoom, high contrast, full-screen tab (presentation mode)
//   HelpController      the Help menu, the user guide window and F1 context help
//   LessonsController   the Lessons dock: bundled lessons, their "Try it" steps run as runs
// and views that show them: WorkspaceTabs (the central tabs), RunToolBar, ErrorReporter,
// ProjectDialogs (the file dialogs and prompts).
// The public project and run methods below forward to them (main() and tests call them).

#include "core/Units.h"
#include "gui/About.h"
#include "gui/BandwidthOptimizerSession.h"
#include "gui/GuiServices.h"
#include "gui/LayoutController.h"
#include "gui/PlannerSession.h"
#include "gui/ProjectController.h"
#include "gui/RunSession.h"
#include "gui/RunStoreController.h"
#include "gui/RunToolBar.h"
#include "gui/SweepSession.h"
#include "gui/WorkloadController.h"
#include "gui/WorkspaceTabs.h"

#include <QMainWindow>

class QLabel;
class QProgressBar;
class QStackedWidget;

namespace astrolabe::widgets {
class ConfigurationPanel;
class LogModel;
class ModelBuilderPanel;
class SweepView;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class ErrorReporter;
class HelpController;
class LessonsController;
class PresentationController;
class ProjectDialogs;
class ProjectDocument;
class ProjectExplorer;
class RunsPanel;
class RunsTableModel;
class SweepController;
class WelcomePage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum Tab {
        TopologyTab = WorkspaceTabs::TopologyTab,
        ConfigurationTab = WorkspaceTabs::ConfigurationTab,
        TimelineTab = WorkspaceTabs::TimelineTab,
        UtilizationTab = WorkspaceTabs::UtilizationTab,
        CompareTab = WorkspaceTabs::CompareTab,
        WorkloadTab = WorkspaceTabs::WorkloadTab,
        SweepTab = WorkspaceTabs::SweepTab,
        BandwidthTab = WorkspaceTabs::BandwidthTab,
        WatchTab = WorkspaceTabs::WatchTab,
        ServingTab = WorkspaceTabs::ServingTab
    };

    explicit MainWindow(QWidget* parent = nullptr);
    explicit MainWindow(GuiServices services, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// The About box's text, also shown by "astrolabe --version".
    static QString aboutText() { return gui::aboutText(); }

    // Project actions (also used by main() and tests). Errors are shown, not thrown.
    void newProjectFromPreset(const QString& presetId);
    bool openProject(const QString& path) { return m_project->open(path); }
    bool saveProject() { return m_project->save(); }
    bool saveProjectAs(const QString& path) { return m_project->saveAs(path); }
    bool importAstra(const AstraImportRequest& request) { return m_project->importAstra(request); }
    bool hasProject() const { return m_project->hasProject(); }
    /// When false, closing or replacing a modified project does not ask (tests, scripted use).
    void setAskBeforeDiscarding(bool ask) { m_project->setAskBeforeDiscarding(ask); }
    QStringList recentProjects() const { return m_layout->recentProjects(); }

    /// Queues a run of the current settings; returns its id, or 0 when the settings have errors.
    int startRun();
    /// Queues a run of other settings than the project's (the shown run again under another
    /// network model); named "<project> #N (<variant>)". Returns its id, 0 without a project.
    int startRunOf(SimulationSpec spec, const QString& variant);
    void stopRuns() { m_session->stop(); }
    /// Shows these runs side by side in the Compare tab and switches to it.
    void compareRuns(const QList<int>& ids);
    /// Plans and runs a sweep file (docs/sweeps.md) in the Sweep tab, storing its points in
    /// the base project's database; false while another sweep runs. Errors are shown.
    bool runSweep(const QString& sweepPath, int jobs = 2) {
        return m_sweeps->runSweep(sweepPath, jobs);
    }
    /// "Sweep this setting…": asks for the values, writes a sweep file beside the (saved)
    /// project and runs it. Returns the sweep file, empty when nothing was started.
    QString sweepSetting(const QString& keyPath, const QString& label, const QString& current) {
        return m_sweeps->sweepSetting(keyPath, label, current);
    }
    /// Generates a training iteration (in memory, on the worker thread) and runs it on the
    /// project's platform; 0 when there is no project or the NPU counts differ (shown).
    int startGeneratedRun(const generate::GeneratorSpec& generator) {
        return m_workload->startGeneratedRun(generator);
    }
    /// View > Units: sizes and bandwidths as entered, all decimal or all binary. Redraws the
    /// shown run and tables, and is remembered across sessions.
    void setUnitConvention(units::Convention convention) {
        m_layout->setUnitConvention(convention);
    }

    ProjectController* projectController() const { return m_project; }
    RunSession* runSession() const { return m_session; }
    RunStoreController* runStore() const { return m_store; }
    WorkloadController* workloadController() const { return m_workload; }
    LayoutController* layoutController() const { return m_layout; }
    ProjectDocument* document() const { return m_document; }
    RunController* runController() const { return m_runs; }
    RunsTableModel* runsModel() const { return m_store->model(); }
    RunsPanel* runsPanel() const { return m_runsPanel; }
    SweepController* sweepController() const { return m_sweeps->controller(); }
    widgets::SweepView* sweepView() const { return m_sweeps->view(); }
    BandwidthOptimizerSession* bandwidthOptimizer() const { return m_bandwidth; }
    PlannerSession* planner() const { return m_planner; }
    widgets::ConfigurationPanel* configurationPanel() const { return m_tabs->configurationPanel(); }
    widgets::ModelBuilderPanel* modelBuilder() const { return m_tabs->modelBuilder(); }
    widgets::LogModel* logModel() const { return m_log; }
    ProjectExplorer* explorer() const { return m_explorer; }
    WorkspaceTabs* tabs() const { return m_tabs; }
    PresentationController* presentation() const { return m_presentation; }
    HelpController* help() const { return m_help; }
    LessonsController* lessons() const { return m_lessons; }
    QProgressBar* progressBar() const { return m_runBar->progressBar(); }
    QLabel* progressLabel() const { return m_runBar->progressLabel(); }
    QAction* runAction() const { return m_runBar->runAction(); }
    QAction* stopAction() const { return m_runBar->stopAction(); }

    static constexpr size_t kLoadedResults = RunStoreController::kLoadedResults;
    static constexpr size_t kKeepTimelineIntervals = RunStoreController::kKeepTimelineIntervals;

signals:
    /// A finished or failed run is in the runs list (and, for a saved project, the database).
    void runStored(int storedId);
    /// A stored run's result was loaded (by id, off the GUI thread) and is shown if selected.
    void resultLoaded(int storedId);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    void connectProject();
    void connectRuns();

    /// A project replaced the previous one: its store, the run state and the central tabs.
    void projectOpened(const QString& path);
    void updateTitle();
    void updateRunsTitle(); ///< the Runs dock names a database other projects share
    void refreshExplorer();
    void showRun(int id);
    /// Reads the runs list again from the project database (after a sweep stored runs in it).
    void reloadRuns();

    widgets::LogModel* m_log = nullptr;
    LayoutController* m_layout = nullptr;
    ProjectDocument* m_document = nullptr;
    ProjectController* m_project = nullptr;
    RunController* m_runs = nullptr;
    RunStoreController* m_store = nullptr;
    RunSession* m_session = nullptr;
    WorkloadController* m_workload = nullptr;
    SweepSession* m_sweeps = nullptr;
    BandwidthOptimizerSession* m_bandwidth = nullptr;
    PlannerSession* m_planner = nullptr;

    ProjectDialogs* m_dialogs = nullptr;
    ErrorReporter* m_errors = nullptr;
    PresentationController* m_presentation = nullptr;
    HelpController* m_help = nullptr;
    LessonsController* m_lessons = nullptr;

    QStackedWidget* m_stack = nullptr;
    WelcomePage* m_welcome = nullptr;
    WorkspaceTabs* m_tabs = nullptr;
    ProjectExplorer* m_explorer = nullptr;
    RunsPanel* m_runsPanel = nullptr;
    RunToolBar* m_runBar = nullptr;
    QLabel* m_queueLabel = nullptr;
};

} // namespace astrolabe::gui
