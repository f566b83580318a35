#pragma once
// The Compare tab: 2-6 runs side by side. "Table" shows the settings (differences highlighted),
// the results with ratios to a chosen baseline and the time breakdown chart; "Timelines" stacks
// the runs' timelines on one axis; "Sweep" plots end time and exposed communication against the
// one setting the runs differ in. The table exports as CSV, the charts as PNG and SVG.

#include "compare/CompareRun.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace astrolabe::widgets {

class AlignedTimelines;
class BreakdownChart;
class MetricsTableModel;
class SettingsTableModel;
class SweepChart;

class CompareView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMinRuns = 2;
    static constexpr int kMaxRuns = 6;

    explicit CompareView(QWidget* parent = nullptr);

    /// Shows the runs (only the first kMaxRuns; fewer than kMinRuns shows a hint instead).
    void setRuns(CompareRuns runs);
    const CompareRuns& runs() const { return m_runs; }
    void setBaseline(int run);

    /// The settings and the metrics (values and ratios to the baseline) as CSV text.
    QString csv() const;
    bool exportCsv(const QString& path) const;
    /// Writes <stem>_breakdown and <stem>_sweep (and <stem>_timelines) as .png and, when
    /// available, .svg into `directory`; returns the files written.
    QStringList exportCharts(const QString& directory, const QString& stem);

    SettingsTableModel* settingsModel() const { return m_settings; }
    MetricsTableModel* metricsModel() const { return m_metrics; }
    QTableView* settingsView() const { return m_settingsView; }
    QTableView* metricsView() const { return m_metricsView; }
    BreakdownChart* breakdownChart() const { return m_breakdown; }
    SweepChart* sweepChart() const { return m_sweep; }
    AlignedTimelines* timelines() const { return m_timelines; }
    QTabWidget* tabs() const { return m_tabs; }
    QComboBox* baselineCombo() const { return m_baseline; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// Sizes the tables' rows and columns to their contents at the current scale.
    void fitColumns();
    void exportCsvWithDialog();
    void exportChartsWithDialog();

    CompareRuns m_runs;
    SettingsTableModel* m_settings;
    MetricsTableModel* m_metrics;
    QStackedWidget* m_stack;
    QLabel* m_title;
    QComboBox* m_baseline;
    QCheckBox* m_onlyDifferences;
    QTabWidget* m_tabs;
    QTableView* m_settingsView;
    QTableView* m_metricsView;
    BreakdownChart* m_breakdown;
    SweepChart* m_sweep;
    QLabel* m_sweepNote;
    AlignedTimelines* m_timelines;
};

} // namespace astrolabe::widgets
