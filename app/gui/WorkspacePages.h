#pragma once
// The pages of the central tabs other than Configuration. Each is a WorkspacePage; the create*
// functions in WorkspacePages.cpp put the real widgets (TopologyEditor, TimelineView,
// UtilizationView) behind that interface.

#include "config/SpecEdit.h"
#include "gui/RunStore.h"

#include <QWidget>

class QLabel;
class QUndoStack;

namespace astrolabe::gui {

class WorkspacePage : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    /// The project's current settings changed.
    virtual void setSpec(const SimulationSpec& spec) { Q_UNUSED(spec); }
    /// The run to show (nullptr: none selected). The record stays valid until the next call.
    virtual void showRun(const RunRecord* run) { Q_UNUSED(run); }
    /// Runs to compare side by side (the Compare page); valid until the next call.
    virtual void compareRuns(const std::vector<const RunRecord*>& runs) { Q_UNUSED(runs); }

signals:
    /// The page edited the project (the main window applies it through the undo stack).
    void editRequested(const widgets::SpecEdit& edit);
    /// The page changed the project by a step it already recorded on the project's undo stack
    /// (or by undoing/redoing one): the main window applies it without recording it again.
    void editRecorded(const widgets::SpecEdit& edit);
    /// The page asks for a run of these settings (not the project's: e.g. the shown run again
    /// under another network model); `variant` names the difference for the run's name.
    void runRequested(const SimulationSpec& spec, const QString& variant);
    /// "Sweep this setting…" on one of the page's fields (its project key path).
    void sweepRequested(const QString& keyPath, const QString& label, const QString& current);
};

/// A page that says what will be here and shows what it can in text until then.
class PlaceholderPage : public WorkspacePage {
    Q_OBJECT
public:
    enum class Content { Topology, Timeline, Utilization, Compare };
    PlaceholderPage(Content content, QWidget* parent = nullptr);
    void setSpec(const SimulationSpec& spec) override;
    void showRun(const RunRecord* run) override;
    QString detailText() const;

private:
    Content m_content;
    QLabel* m_detail;
};

/// The topology editor records its edits on `undoStack`, the project's one history.
WorkspacePage* createTopologyPage(QWidget* parent, QUndoStack* undoStack);
WorkspacePage* createTimelinePage(QWidget* parent);
WorkspacePage* createUtilizationPage(QWidget* parent);
WorkspacePage* createComparePage(QWidget* parent);

} // namespace astrolabe::gui
