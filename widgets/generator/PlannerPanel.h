#pragma once
// The Workload tab's Planner (docs/planner.md): for the model builder's model, a GPU count and a
// global batch, "Plan" asks for the ranking of every legal configuration; the table shows it
// (sortable by estimate, simulated time, memory and MFU); the selected candidate's memory
// breakdown and its Megatron-LM / NeMo arguments (copyable) sit beside it; "Simulate top K"
// asks for exact simulations of the K best estimates, whose times fill the table and a scatter
// of estimated against simulated time; "Apply" asks to set the workload to the selected
// configuration. It runs nothing itself (gui/PlannerSession does, off the GUI thread).

#include "plan/Planner.h"

#include <QWidget>
#include <memory>

class QChartView;
class QLabel;
class QLineSeries;
class QPlainTextEdit;
class QPushButton;
class QScatterSeries;
class QSpinBox;
class QTableView;

namespace astrolabe::widgets {

class MemoryBar;
class PlanCandidatesModel;

class PlannerPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlannerPanel(QWidget* parent = nullptr);

    /// The model planned for (the model builder's), as shown above the inputs.
    void setModelName(const QString& name);
    /// The GPU count and global batch to start from (the project's and the model's).
    void setRequestDefaults(int gpus, int globalBatch);
    int gpus() const;
    int globalBatch() const;
    int topK() const;

    /// A new ranking of `request` (kept for the selected candidate's memory and arguments);
    /// selects the best estimate.
    void setResult(const plan::PlanRequest& request,
                   std::shared_ptr<const plan::PlanResult> result);
    /// Candidate `ranked` simulated (seconds) or not (`error`): fills its row and the scatter.
    void setSimulated(size_t ranked, double seconds, const QString& error = {});
    /// While a ranking or simulations run: the inputs and Plan/Apply off, Cancel on.
    void setRunning(bool running);
    void setStatus(const QString& text);

    /// The selected candidate (an index into the result's ranked list), or -1.
    int selectedCandidate() const;
    void selectCandidate(size_t ranked);

    PlanCandidatesModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QPushButton* planButton() const { return m_plan; }
    QPushButton* simulateButton() const { return m_simulate; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* applyButton() const { return m_apply; }
    QSpinBox* gpusBox() const { return m_gpus; }
    QSpinBox* batchBox() const { return m_batch; }
    QSpinBox* topKBox() const { return m_topK; }
    QScatterSeries* scatter() const { return m_scatter; }
    const MemoryBar* memoryBar() const { return m_memoryBar; }
    /// The selected candidate's Megatron-LM arguments and NeMo overrides, as shown.
    QString argumentsText() const;
    QString statusText() const;

signals:
    void planRequested(int gpus, int globalBatch);
    void simulateRequested(int topK);
    void cancelRequested();
    void applyRequested(int ranked);

private:
    void showSelected();
    void updateButtons();
    void rescaleChart();

    plan::PlanRequest m_request;
    bool m_running = false;
    QLabel* m_modelName;
    QSpinBox* m_gpus;
    QSpinBox* m_batch;
    QSpinBox* m_topK;
    QPushButton* m_plan;
    QPushButton* m_simulate;
    QPushButton* m_cancel;
    QPushButton* m_apply;
    QPushButton* m_copy;
    QLabel* m_status;
    PlanCandidatesModel* m_model;
    QTableView* m_table;
    MemoryBar* m_memoryBar;
    QLabel* m_memoryText;
    QPlainTextEdit* m_arguments;
    QChartView* m_chartView;
    QScatterSeries* m_scatter;
    QLineSeries* m_diagonal;
};

} // namespace astrolabe::widgets
