#pragma once
// The central tabs: Topology, Configuration, Timeline, Utilization, Compare and Workload. It
// holds the pages and hands each the project's settings and the run to show; the pages' edits
// and run requests come out as its signals. Which tab shows what (a setting, a comparison, a
// part of the project explorer) is decided here.

#include "config/SpecEdit.h"
#include "gui/ProjectExplorer.h"
#include "gui/RunStore.h"

#include <QTabWidget>
#include <vector>

class QUndoStack;

namespace astrolabe::widgets {
class ConfigurationPanel;
class ModelBuilderPanel;
class PlannerPanel;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class ServingPage;
class WatchPage;
class WorkspacePage;

class WorkspaceTabs : public QTabWidget {
    Q_OBJECT
public:
    enum Tab {
        TopologyTab,
        ConfigurationTab,
        TimelineTab,
        UtilizationTab,
        CompareTab,
        WorkloadTab,
        SweepTab,     ///< added by the main window (gui/SweepSession runs what it shows)
        BandwidthTab, ///< added by the main window after Sweep (gui/BandwidthOptimizerSession)
        WatchTab,     ///< added by the main window after Bandwidth (addWatchTab)
        ServingTab    ///< added by the main window after Watch (addServingTab)
    };

    /// The topology editor records its steps on `undoStack`, the project's one history.
    WorkspaceTabs(QUndoStack* undoStack, QWidget* parent = nullptr);

    widgets::ConfigurationPanel* configurationPanel() const { return m_config; }
    widgets::ModelBuilderPanel* modelBuilder() const { return m_modelBuilder; }
    /// The parallelism planner, below the model builder in the Workload tab.
    widgets::PlannerPanel* planner() const { return m_planner; }

    void setSpec(const SimulationSpec& spec);
    void setBaseline(const SimulationSpec* lastRun);
    /// The run to show (nullptr: none); valid until the next call.
    void showRun(const RunRecord* run);
    /// Shows these runs side by side and switches to the Compare tab.
    void compareRuns(const std::vector<const RunRecord*>& runs);
    /// Empties the Compare tab (another project was opened), staying on the current tab.
    void clearComparison();
    /// Shows `spec` in the Configuration tab, which checks it (against files again: traces made
    /// since), and returns the fields that are not valid.
    QStringList invalidSettings(const SimulationSpec& spec);
    /// Switches to the Configuration tab and focuses its first invalid field.
    void focusFirstInvalid();
    /// Switches to the setting's editor and focuses it; false when no editor shows it.
    bool focusSetting(const QString& keyPath);
    /// Gives the keyboard focus back to the setting's editor (after a message about it).
    void refocusSetting(const QString& keyPath);
    /// Adds the Watch tab ("Watch a collective"), linked both ways with the Timeline tab's
    /// cursor. Called once, after the Sweep and Bandwidth tabs.
    void addWatchTab();
    WatchPage* watchPage() const { return m_watch; }
    /// Adds the Serving tab (a serving run's requests and latencies). Called once, after Watch.
    void addServingTab();
    ServingPage* servingPage() const { return m_serving; }

    /// The tab for a part of the project explorer (a run's part: the Timeline).
    void showPart(ProjectExplorer::Part part, const QString& keyPath);

signals:
    void editRequested(const astrolabe::widgets::SpecEdit& edit);
    void editRecorded(const astrolabe::widgets::SpecEdit& edit);
    void runRequested(const astrolabe::SimulationSpec& spec, const QString& variant);
    /// "Sweep this setting…" from a configuration field or a topology dimension.
    void sweepRequested(const QString& keyPath, const QString& label, const QString& current);

private:
    widgets::ConfigurationPanel* m_config;
    widgets::ModelBuilderPanel* m_modelBuilder;
    widgets::PlannerPanel* m_planner;
    std::vector<WorkspacePage*> m_pages; ///< the pages other than Configuration and Workload
    WatchPage* m_watch;                  ///< also in m_pages, its tab added by addWatchTab
    ServingPage* m_serving;              ///< also in m_pages, its tab added by addServingTab
};

} // namespace astrolabe::gui
