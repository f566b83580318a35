#pragma once
// A sweep on screen: the points' table, a chart tab that fits the number of axes (one: end time
// against it; two: a heatmap; more: a heatmap of the first two, noted), the Pareto scatter, a
// progress bar with done/total and the time left, Cancel, and "Compare selected" (the stored
// runs of the selected rows). Charts redraw at most every 100 ms while points arrive.

#include "sweep/SweepResultsModel.h"

#include <QElapsedTimer>
#include <QWidget>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTimer;

namespace astrolabe::widgets {

class SweepHeatmap;
class SweepLineChart;
class SweepParetoChart;

class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(QWidget* parent = nullptr);

    SweepResultsModel* model() const { return m_model; }
    /// Shows a sweep's name and its points (the model is refilled by the caller).
    void setTitle(const QString& title);
    /// Forgets the shown sweep (another project was opened): no rows, no charts, no progress.
    void clear();
    static QString noSweepText();
    /// Starts (true) or ends (false) the progress clock; `running` enables Cancel.
    void setRunning(bool running);
    /// Redraws the charts now (they otherwise follow the model at most every 100 ms).
    void refreshCharts();

    QTableView* table() const { return m_table; }
    QTabWidget* chartTabs() const { return m_charts; }
    SweepHeatmap* heatmap() const { return m_heatmap; }
    SweepLineChart* lineChart() const { return m_line; }
    SweepParetoChart* paretoChart() const { return m_pareto; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* progressLabel() const { return m_progressText; }
    QLabel* note() const { return m_note; }
    QLabel* title() const { return m_title; }
    QPushButton* compareButton() const { return m_compare; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* applyButton() const { return m_apply; }
    QPushButton* selectBestButton() const { return m_selectBest; }
    /// The point of the one selected row (not a skipped one); nothing otherwise.
    std::optional<size_t> selectedPoint() const;
    /// Selects the row of `point` (and scrolls to it).
    void selectPoint(size_t point);
    /// The stored run ids of the selected rows (rows without a run are left out).
    QList<int> selectedRunIds() const;

signals:
    void compareRequested(const QList<int>& runIds);
    void cancelRequested();
    /// "Apply to project" on the selected point.
    void applyRequested(size_t point);

private:
    void updateProgress();
    void rebuildCharts();

    SweepResultsModel* m_model;
    QSortFilterProxyModel* m_sorted;
    QLabel* m_title;
    QTableView* m_table;
    QTabWidget* m_charts;
    QStackedWidget* m_endTimeStack;
    SweepLineChart* m_line;
    SweepHeatmap* m_heatmap;
    SweepParetoChart* m_pareto;
    QLabel* m_note;
    QProgressBar* m_progress;
    QLabel* m_progressText;
    QPushButton* m_cancel;
    QPushButton* m_compare;
    QPushButton* m_selectBest;
    QPushButton* m_apply;
    QTimer* m_redraw;
    QElapsedTimer m_clock;
    size_t m_finishedAtStart = 0;
    bool m_running = false;
};

} // namespace astrolabe::widgets
