#include "gui/WorkspaceTabs.h"

#include "config/ConfigurationPanel.h"
#include "generator/ModelBuilderPanel.h"
#include "generator/PlannerPanel.h"
#include "gui/ServingPage.h"
#include "gui/TimelinePage.h"
#include "gui/WatchPage.h"
#include "gui/WorkspacePages.h"
#include "tacos/SchedulePanel.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QGroupBox>
#include <QScrollArea>
#include <QTabBar>
#include <QVBoxLayout>

namespace astrolabe::gui {

WorkspaceTabs::WorkspaceTabs(QUndoStack* undoStack, QWidget* parent)
    : QTabWidget(parent)
    , m_config(new widgets::ConfigurationPanel(this))
    , m_watch(new WatchPage(this))
    , m_serving(new ServingPage(this)) {
    setDocumentMode(true);
    m_pages = {createTopologyPage(this, undoStack),
               createTimelinePage(this),
               createUtilizationPage(this),
               createComparePage(this),
               m_watch,
               m_serving};
    // A tab rather than a dock: the model builder's form and live figures need the full width.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("workloadTab"));
    // The model builder, and under it the parallelism planner for the builder's model.
    auto* workload = new QWidget(scroll);
    auto* column = new QVBoxLayout(workload);
    column->setContentsMargins(0, 0, 0, 0);
    m_modelBuilder = new widgets::ModelBuilderPanel(workload);
    m_planner = new widgets::PlannerPanel(workload);
    m_planner->setObjectName(QStringLiteral("plannerPanel"));
    auto* planner = new QGroupBox(tr("Parallelism planner"), workload);
    (new QVBoxLayout(planner))->addWidget(m_planner);
    column->addWidget(m_modelBuilder);
    column->addWidget(planner, 1);
    scroll->setWidget(workload);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    addTab(m_pages[0], tr("Topology"));
    addTab(m_config, tr("Configuration"));
    addTab(m_pages[1], tr("Timeline"));
    addTab(m_pages[2], tr("Utilization"));
    addTab(m_pages[3], tr("Compare"));
    addTab(scroll, tr("Workload"));
    setTabToolTip(WorkloadTab, tr("Generate a training iteration of a transformer model and run "
                                  "it on the project's platform"));
    // The names shown when presentation zoom leaves too little room for the full ones
    // (PresentationController::fitTabBar).
    tabBar()->setTabData(ConfigurationTab, tr("Config"));
    tabBar()->setTabData(UtilizationTab, tr("Usage"));

    connect(m_config, &widgets::ConfigurationPanel::editRequested, this,
            &WorkspaceTabs::editRequested);
    connect(m_config, &widgets::ConfigurationPanel::sweepRequested, this,
            &WorkspaceTabs::sweepRequested);
    for (WorkspacePage* page : m_pages) {
        connect(page, &WorkspacePage::editRequested, this, &WorkspaceTabs::editRequested);
        connect(page, &WorkspacePage::editRecorded, this, &WorkspaceTabs::editRecorded);
        connect(page, &WorkspacePage::runRequested, this, &WorkspaceTabs::runRequested);
        connect(page, &WorkspacePage::sweepRequested, this, &WorkspaceTabs::sweepRequested);
    }
}

void WorkspaceTabs::addWatchTab() {
    const int index = addTab(m_watch, tr("Watch"));
    Q_ASSERT(index == WatchTab); // F1 help and the tests find it there
    setTabToolTip(index, tr("Watch a collective move over the network, step by step"));
    // The Timeline tab's cursor and the replay move each other (both show the selected run).
    if (auto* page = qobject_cast<TimelinePage*>(m_pages[1])) {
        widgets::TimelineWidget* timeline = page->view()->timeline();
        connect(timeline, &widgets::TimelineWidget::cursorMoved, m_watch, &WatchPage::setTime);
        connect(m_watch, &WatchPage::timeChanged, timeline,
                [timeline](qint64 ps) { timeline->setCursorTime(ps); });
        // The TACOS schedule beside the timeline follows the replay too.
        connect(m_watch, &WatchPage::timeChanged, page->schedulePanel(),
                &widgets::SchedulePanel::setCursorTime);
    }
}

void WorkspaceTabs::addServingTab() {
    const int index = addTab(m_serving, tr("Serving"));
    Q_ASSERT(index == ServingTab);
    setTabToolTip(index, tr("A serving run's requests: timeline, latency distributions, "
                            "throughput, KV cache and replicas"));
}

void WorkspaceTabs::setSpec(const SimulationSpec& spec) {
    m_config->setSpec(spec);
    for (WorkspacePage* page : m_pages)
        page->setSpec(spec);
}

void WorkspaceTabs::setBaseline(const SimulationSpec* lastRun) {
    m_config->setBaseline(lastRun);
}

void WorkspaceTabs::showRun(const RunRecord* run) {
    for (WorkspacePage* page : m_pages)
        page->showRun(run);
}

void WorkspaceTabs::compareRuns(const std::vector<const RunRecord*>& runs) {
    m_pages[3]->compareRuns(runs);
    setCurrentIndex(CompareTab);
}

void WorkspaceTabs::clearComparison() {
    m_pages[3]->compareRuns({});
}

QStringList WorkspaceTabs::invalidSettings(const SimulationSpec& spec) {
    m_config->setSpec(spec);
    return m_config->invalidFields();
}

void WorkspaceTabs::focusFirstInvalid() {
    setCurrentIndex(ConfigurationTab);
    m_config->focusFirstInvalid();
}

bool WorkspaceTabs::focusSetting(const QString& keyPath) {
    if (keyPath.isEmpty() || !m_config->editorForKey(keyPath))
        return false;
    setCurrentIndex(ConfigurationTab);
    return m_config->focusKey(keyPath);
}

void WorkspaceTabs::refocusSetting(const QString& keyPath) {
    if (QWidget* editor = m_config->editorForKey(keyPath))
        editor->setFocus(Qt::OtherFocusReason);
}

void WorkspaceTabs::showPart(ProjectExplorer::Part part, const QString& keyPath) {
    using Part = ProjectExplorer::Part;
    switch (part) {
    case Part::Platform:
        setCurrentIndex(TopologyTab);
        break;
    case Part::Run:
        setCurrentIndex(TimelineTab);
        break;
    case Part::Runs:
        setCurrentIndex(CompareTab);
        break;
    case Part::System:
    case Part::Memory:
    case Part::Workload:
        setCurrentIndex(ConfigurationTab);
        if (!keyPath.isEmpty())
            m_config->focusKey(keyPath);
        break;
    case Part::Project:
        break;
    }
}

} // namespace astrolabe::gui
