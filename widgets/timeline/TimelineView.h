#pragma once
// The "Timeline" tab: search and zoom toolbar, legend, the Gantt timeline and a details panel.
// The main window calls setResult() when a run finishes.

#include "record/RunResult.h"
#include "spec/PlatformSpec.h"
#include "timeline/TimelinePalette.h"

#include <QWidget>
#include <memory>

class QBoxLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QToolButton;
class QCheckBox;

namespace astrolabe::widgets {

class TimelineWidget;
class TimelineDetailsPanel;
class TimelineSource;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const RunResult> result, const PlatformSpec& platform);
    /// For sources other than a RunResult (a database-backed one, later).
    void setSource(std::shared_ptr<const TimelineSource> source,
                   const std::vector<int>& dimensionSizes);

    TimelineWidget* timeline() const { return m_timeline; }
    TimelineDetailsPanel* details() const { return m_details; }

    /// What the legend lists: the kinds present in the shown run, idle, and the critical path
    /// when the run has one.
    const std::vector<TimelinePalette::LegendEntry>& legendEntries() const {
        return m_legendEntries;
    }
    QLabel* legend() const { return m_legend; }

    /// Exports what the timeline shows; the format follows the suffix (.png or .svg).
    bool exportImage(const QString& path) const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    /// The search and the buttons side by side when they fit, else the buttons below.
    void reflowToolbar();
    void search();
    void exportWithDialog();
    void updateHistoryButtons();
    void updateLegend();

    TimelineWidget* m_timeline = nullptr;
    TimelineDetailsPanel* m_details = nullptr;
    QLineEdit* m_search = nullptr;
    QLabel* m_matches = nullptr;
    QToolButton* m_back = nullptr;
    QToolButton* m_forward = nullptr;
    QCheckBox* m_critical = nullptr;
    QLabel* m_legend = nullptr;
    QBoxLayout* m_toolbar = nullptr; ///< the search row, then the buttons row
    QHBoxLayout* m_searchRow = nullptr;
    QHBoxLayout* m_buttonRow = nullptr;
    std::vector<TimelinePalette::LegendEntry> m_legendEntries;
};

} // namespace astrolabe::widgets
