#pragma once
// SEAM: the pages of the central tabs other than Configuration. Each is a WorkspacePage; the
// create* functions in WorkspacePages.cpp are the one place where the real widgets
// (widgets/topology TopologyEditor, widgets/timeline, widgets/utilization, widgets/compare)
// replace today's placeholders.

#include "gui/RunStore.h"

#include <QWidget>

class QLabel;

namespace astrolabe::gui {

class WorkspacePage : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    /// The project's current settings changed.
    virtual void setSpec(const SimulationSpec& spec) { Q_UNUSED(spec); }
    /// The run to show (nullptr: none selected). The record stays valid until the next call.
    virtual void showRun(const RunRecord* run) { Q_UNUSED(run); }
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

WorkspacePage* createTopologyPage(QWidget* parent);
WorkspacePage* createTimelinePage(QWidget* parent);
WorkspacePage* createUtilizationPage(QWidget* parent);
WorkspacePage* createComparePage(QWidget* parent);

} // namespace astrolabe::gui
