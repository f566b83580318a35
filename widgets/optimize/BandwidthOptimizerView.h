#pragma once
// The "Optimize bandwidth" panel: asks for the total bandwidth per NPU, the number of budgets
// and the constraints (per-dimension floors and ceilings, a cost budget), shows the Pareto front
// (cost against simulated iteration time, engine/optimize paretoFront) as a table and a scatter,
// and asks to apply the selected point. It runs nothing itself.

#include "optimize/AllocationProblem.h"
#include "optimize/BandwidthOptimizer.h"
#include "spec/SimulationSpec.h"

#include <QStandardItemModel>
#include <QWidget>
#include <optional>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

class QChartView;
class QScatterSeries;

namespace astrolabe::widgets {

class BandwidthOptimizerView : public QWidget {
    Q_OBJECT
public:
    explicit BandwidthOptimizerView(QWidget* parent = nullptr);

    /// The platform's dimensions ("dim0 Ring 8", ...) and the total to start from (GB/s).
    void setDimensions(const QStringList& labels, double totalGBps);
    /// The front, by ascending cost; selects its fastest point.
    void setFront(std::vector<optimize::EvaluatedAllocation> front);
    const std::vector<optimize::EvaluatedAllocation>& front() const { return m_front; }
    void setRunning(bool running);
    void setStatus(const QString& text);

    QStandardItemModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QDoubleSpinBox* totalBox() const { return m_total; }
    QSpinBox* pointsBox() const { return m_points; }
    QPushButton* optimizeButton() const { return m_optimize; }
    QPushButton* applyButton() const { return m_apply; }
    QScatterSeries* scatter() const { return m_scatter; }
    /// The component prices the cost model uses (docs/libra.md), as edited.
    optimize::ComponentPrices prices() const;
    void setPrices(const optimize::ComponentPrices& prices);
    /// The workload to optimize for: nullopt for the project's own, else a collective
    /// microbenchmark over all NPUs of the chosen size.
    std::optional<MicrobenchmarkSpec> workload() const;
    QComboBox* workloadBox() const { return m_workload; }
    QDoubleSpinBox* sizeBox() const { return m_size; }
    /// The selected row of the front, or -1.
    int selectedPoint() const;
    /// Sets the floors, ceilings and budget given in the tab on `problem` (a field left at
    /// "default" / "none" keeps the problem's own value). validate() is the caller's.
    void constrain(optimize::AllocationProblem& problem) const;
    /// Per dimension: the floor and ceiling boxes (0 shows "default" / "none").
    const std::vector<QDoubleSpinBox*>& minBoxes() const { return m_minBoxes; }
    const std::vector<QDoubleSpinBox*>& maxBoxes() const { return m_maxBoxes; }
    QDoubleSpinBox* budgetBox() const { return m_budget; }
    /// The row of the front with the best performance per cost (shown in bold), or -1.
    int bestPerfPerCostPoint() const;

signals:
    void optimizeRequested(double totalGBps, int points);
    void applyRequested(const std::vector<double>& gbps);

private:
    void updateApply();
    void rebuildBounds();

    QStringList m_dimensions;
    std::vector<optimize::EvaluatedAllocation> m_front;
    QDoubleSpinBox* m_total;
    QComboBox* m_workload;
    QDoubleSpinBox* m_size;
    QDoubleSpinBox* m_directLink;
    QDoubleSpinBox* m_switchedLink;
    QDoubleSpinBox* m_nic;
    QDoubleSpinBox* m_switchPort;
    QDoubleSpinBox* m_npu;
    QDoubleSpinBox* m_budget;
    QGridLayout* m_bounds;
    std::vector<QLabel*> m_boundLabels;
    std::vector<QDoubleSpinBox*> m_minBoxes;
    std::vector<QDoubleSpinBox*> m_maxBoxes;
    QSpinBox* m_points;
    QPushButton* m_optimize;
    QPushButton* m_apply;
    QLabel* m_status;
    QStandardItemModel* m_model;
    QTableView* m_table;
    QChartView* m_chartView;
    QScatterSeries* m_scatter;
};

} // namespace astrolabe::widgets
