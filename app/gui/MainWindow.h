#pragma once
// The main window: project explorer, central tabs (Topology, Configuration, Timeline,
// Utilization, Compare), run toolbar, runs list and log docks, status bar.
// MainWindow.cpp builds the window and handles project files; MainWindowRuns.cpp handles runs.

#include "core/Units.h"
#include "generate/GeneratorSpec.h"
#include "gui/GuiServices.h"

#include <QMainWindow>
#include <deque>
#include <map>
#include <memory>
#include <set>

class QLabel;
class QProgressBar;
class QStackedWidget;
class QTabWidget;
class QSettings;
class QThreadPool;

namespace astrolabe::widgets {
class ConfigurationPanel;
class LogModel;
class ModelBuilderPanel;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class ProjectDocument;
class ProjectExplorer;
class RunsPanel;
class RunsTableModel;
class WelcomePage;
class WorkspacePage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum Tab {
        TopologyTab,
        ConfigurationTab,
        TimelineTab,
        UtilizationTab,
        CompareTab,
        WorkloadTab
    };

    explicit MainWindow(QWidget* parent = nullptr);
    explicit MainWindow(GuiServices services, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// The About box's text, also shown by "astrolabe --version".
    static QString aboutText();

    // Project actions (also used by main() and tests). Errors are shown, not thrown.
    void newProjectFromPreset(const QString& presetId);
    bool openProject(const QString& path);
    bool saveProject();
    bool saveProjectAs(const QString& path);
    bool importAstra(const AstraImportRequest& request);
    bool hasProject() const;
    /// When false, closing or replacing a modified project does not ask (tests, scripted use).
    void setAskBeforeDiscarding(bool ask) { m_askBeforeDiscarding = ask; }
    QStringList recentProjects() const;

    /// Queues a run of the current settings; returns its id, or 0 when the settings have errors.
    int startRun();
    /// Queues a run of other settings than the project's (the shown run again under another
    /// network model); named "<project> #N (<variant>)". Returns its id, 0 without a project.
    int startRunOf(SimulationSpec spec, const QString& variant);
    void stopRuns();
    /// Shows these runs side by side in the Compare tab and switches to it.
    void compareRuns(const QList<int>& ids);
    /// Generates a training iteration (in memory, on the worker thread) and runs it on the
    /// project's platform; 0 when there is no project or the NPU counts differ (shown).
    int startGeneratedRun(const generate::GeneratorSpec& generator);
    /// View > Units: sizes and bandwidths as entered, all decimal or all binary. Redraws the
    /// shown run and tables, and is remembered across sessions.
    void setUnitConvention(units::Convention convention);

    ProjectDocument* document() const { return m_document; }
    RunController* runController() const { return m_runs; }
    RunsTableModel* runsModel() const { return m_runsModel; }
    RunsPanel* runsPanel() const { return m_runsPanel; }
    widgets::ConfigurationPanel* configurationPanel() const { return m_config; }
    widgets::ModelBuilderPanel* modelBuilder() const { return m_modelBuilder; }
    widgets::LogModel* logModel() const { return m_log; }
    ProjectExplorer* explorer() const { return m_explorer; }
    QTabWidget* tabs() const { return m_tabs; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* progressLabel() const { return m_progressLabel; }
    QAction* runAction() const { return m_runAction; }
    QAction* stopAction() const { return m_stopAction; }

    /// Stored runs whose results stay loaded (least recently selected are dropped first).
    static constexpr size_t kLoadedResults = 4;
    /// A finished run with more intervals than this keeps none in memory once it is saved: the
    /// timeline reads them back from the project database window by window.
    static constexpr size_t kKeepTimelineIntervals = 1'000'000;

public slots:
    void showAbout();

signals:
    /// A finished or failed run is in the runs list (and, for a saved project, the database).
    void runStored(int storedId);
    /// A stored run's result was loaded (by id, off the GUI thread) and is shown if selected.
    void resultLoaded(int storedId);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    struct PendingRun {
        QString name;
        int number = 0; ///< the run's number in the project (RunRecord::number)
        SimulationSpec spec;
        QDateTime queued;
    };

    void createActions();
    void createMenus();
    void createDocks();
    void createCentral();
    void connectDocument();
    void restoreLayout();
    void saveLayout();
    std::unique_ptr<QSettings> settings() const;

    void onNewProject();
    void onOpen();
    bool onSaveAs();
    void onImport();
    bool maybeDiscard();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void attachStore(const QString& projectPath);
    void projectOpened();
    void updateTitle();
    void updateRunActions();
    /// Forgets the shown run state (status bar, progress, run actions): the project changed.
    /// Runs of the previous project still going are stopped; their outcome is not shown.
    void resetRunState();
    void refreshExplorer();
    void showRun(int id);
    void createWorkloadTab(); // MainWindowWorkload.cpp
    void onExplorerActivated(int part, int runId, const QString& key);
    /// Logs the error, shows it in a (non-blocking) dialog and jumps to the field it names.
    void reportError(const QString& title, const QString& message, const QString& keyPath = {});

    // MainWindowRuns.cpp
    void connectRunController();
    void onRunStarted(int id, const QString& name);
    void onRunProgress(int id, const Progress& progress);
    void onRunFinished(int id, std::shared_ptr<const RunResult> result, double wallSeconds);
    void onRunFailed(int id, const QString& message, const QString& keyPath, bool cancelled,
                     double wallSeconds);
    void storeRun(int id, RunRecord record);

    // MainWindowStore.cpp
    void addStoredRun(RunRecord record);
    /// After "save as" of an unsaved project: its in-memory runs move into the new database.
    void moveRunsToProjectStore(const QString& projectPath);
    /// Logs the store's failed asynchronous writes (polled once a second).
    void reportStoreErrors();
    void loadResult(const RunRecord& run);
    void onResultLoaded(int generation, int id, std::shared_ptr<const RunResult> result,
                        const QString& error);

    GuiServices m_services;
    ProjectDocument* m_document = nullptr;
    RunController* m_runs = nullptr;
    std::unique_ptr<RunStore> m_store;
    int m_storeGeneration = 0;        ///< changes with m_store: late worker replies are dropped
    QThreadPool* m_workers = nullptr; ///< saves and loads results off the GUI thread
    std::set<int> m_loading;
    std::deque<int> m_loaded;
    RunsTableModel* m_runsModel = nullptr;
    widgets::LogModel* m_log = nullptr;
    std::map<int, PendingRun> m_pending;
    bool m_hasProject = false;
    bool m_askBeforeDiscarding = true;

    QStackedWidget* m_stack = nullptr;
    WelcomePage* m_welcome = nullptr;
    QTabWidget* m_tabs = nullptr;
    widgets::ConfigurationPanel* m_config = nullptr;
    widgets::ModelBuilderPanel* m_modelBuilder = nullptr;
    generate::GeneratorSpec m_generatorShown; ///< the model builder's spec as last recorded
    std::vector<WorkspacePage*> m_pages;
    ProjectExplorer* m_explorer = nullptr;
    RunsPanel* m_runsPanel = nullptr;
    QProgressBar* m_progress = nullptr;
    QAction* m_progressAction = nullptr;
    QLabel* m_progressLabel = nullptr;
    QLabel* m_queueLabel = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QActionGroup* m_unitActions = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_saveAsAction = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
};

} // namespace astrolabe::gui
