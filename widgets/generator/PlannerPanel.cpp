#include "generator/PlannerPanel.h"

#include "common/InterfaceScale.h"
#include "generate/ModelFigures.h"
#include "generator/MemoryBar.h"
#include "generator/PlanCandidatesModel.h"
#include "plan/MegatronArgs.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

namespace {

QSpinBox* countBox(QWidget* parent, int minimum, int maximum, const QString& tip) {
    auto* box = new QSpinBox(parent);
    box->setRange(minimum, maximum);
    box->setToolTip(tip);
    return box;
}

} // namespace

PlannerPanel::PlannerPanel(QWidget* parent)
    : QWidget(parent) {
    m_modelName = new QLabel(this);
    m_gpus = countBox(this, 1, 1 << 20,
                      tr("GPUs to plan for: the project's platform is grown or shrunk by its "
                         "outermost dimension to this count"));
    m_batch = countBox(this, 1, 1 << 24, tr("Sequences per iteration (the global batch)"));
    m_topK = countBox(this, 1, 256, tr("How many of the best estimates to simulate exactly"));
    m_topK->setValue(8);
    m_plan = new QPushButton(tr("Plan"), this);
    m_plan->setToolTip(tr("Enumerate every legal configuration, refuse those that do not fit "
                          "in HBM, and rank the rest by the analytical estimate"));
    m_simulate = new QPushButton(tr("Simulate top K"), this);
    m_simulate->setToolTip(tr("Simulate the K best estimates exactly on the project's platform, "
                              "two at a time"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_apply = new QPushButton(tr("Apply"), this);
    m_apply->setToolTip(tr("Set the model builder to the selected configuration (one undoable "
                           "step)"));
    m_status = new QLabel(tr("The parallelism planner: every legal way to split the model "
                             "builder's model on the GPUs, ranked (docs/planner.md)"),
                          this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* request = new QHBoxLayout;
    request->addWidget(m_modelName);
    request->addWidget(new QLabel(tr("GPUs:"), this));
    request->addWidget(m_gpus);
    request->addWidget(new QLabel(tr("Global batch:"), this));
    request->addWidget(m_batch);
    request->addWidget(m_plan);
    request->addWidget(new QLabel(tr("K:"), this));
    request->addWidget(m_topK);
    request->addWidget(m_simulate);
    request->addWidget(m_cancel);
    request->addStretch();
    request->addWidget(m_apply);

    m_model = new PlanCandidatesModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSortingEnabled(true);
    m_table->horizontalHeader()->setSortIndicator(PlanCandidatesModel::Rank, Qt::AscendingOrder);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    // Fixed row heights: the view measures no rows, so 43,000 candidates show at once.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    InterfaceScale::followMinimumSize(m_table, {0, 220});

    m_memoryBar = new MemoryBar(this);
    m_memoryText = new QLabel(this);
    m_memoryText->setWordWrap(true);
    m_arguments = new QPlainTextEdit(this);
    m_arguments->setReadOnly(true);
    m_arguments->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_arguments->setToolTip(tr("Megatron-LM's pretrain_gpt.py arguments and NeMo's overrides "
                               "for the selected configuration"));
    m_copy = new QPushButton(tr("Copy arguments"), this);
    auto* selected = new QWidget(this);
    auto* selectedLayout = new QVBoxLayout(selected);
    selectedLayout->setContentsMargins(0, 0, 0, 0);
    selectedLayout->addWidget(new QLabel(tr("Memory per GPU (worst stage):"), this));
    selectedLayout->addWidget(m_memoryBar);
    selectedLayout->addWidget(m_memoryText);
    selectedLayout->addWidget(m_arguments, 1);
    selectedLayout->addWidget(m_copy, 0, Qt::AlignRight);

    m_scatter = new QScatterSeries;
    m_scatter->setName(tr("simulated candidates"));
    m_diagonal = new QLineSeries;
    m_diagonal->setName(tr("estimate = simulated"));
    auto* chart = new QChart;
    chart->addSeries(m_diagonal);
    chart->addSeries(m_scatter);
    auto* x = new QValueAxis;
    x->setTitleText(tr("estimated (s)"));
    auto* y = new QValueAxis;
    y->setTitleText(tr("simulated (s)"));
    for (QValueAxis* axis : {x, y}) {
        axis->setLabelFormat(QStringLiteral("%.3g")); // "0.0387", not "0.03..." when narrow
        axis->setTickCount(4);
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* series :
         {static_cast<QAbstractSeries*>(m_diagonal), static_cast<QAbstractSeries*>(m_scatter)}) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    // A title rather than a legend: the legend's two entries were elided in a narrow pane.
    chart->legend()->hide();
    chart->setTitle(tr("Simulated against estimated (line: equal)"));
    m_chartView = new QChartView(chart, this);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    InterfaceScale::followChart(m_chartView);
    InterfaceScale::followMinimumSize(m_chartView, {360, 260});

    auto* lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(selected);
    lower->addWidget(m_chartView);
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(lower);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(request);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_plan, &QPushButton::clicked, this,
            [this] { emit planRequested(m_gpus->value(), m_batch->value()); });
    connect(m_simulate, &QPushButton::clicked, this,
            [this] { emit simulateRequested(m_topK->value()); });
    connect(m_cancel, &QPushButton::clicked, this, &PlannerPanel::cancelRequested);
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (const int ranked = selectedCandidate(); ranked >= 0)
            emit applyRequested(ranked);
    });
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(argumentsText()); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        showSelected();
        updateButtons();
    });
    updateButtons();
}

void PlannerPanel::setModelName(const QString& name) {
    m_modelName->setText(tr("Model: %1").arg(name));
}

void PlannerPanel::setRequestDefaults(int gpus, int globalBatch) {
    m_gpus->setValue(gpus);
    m_batch->setValue(globalBatch);
}

int PlannerPanel::gpus() const {
    return m_gpus->value();
}

int PlannerPanel::globalBatch() const {
    return m_batch->value();
}

int PlannerPanel::topK() const {
    return m_topK->value();
}

void PlannerPanel::setResult(const plan::PlanRequest& request,
                             std::shared_ptr<const plan::PlanResult> result) {
    m_request = request;
    m_model->setResult(std::move(result));
    m_table->horizontalHeader()->setSortIndicator(PlanCandidatesModel::Rank, Qt::AscendingOrder);
    m_table->resizeColumnsToContents();
    m_scatter->clear();
    m_diagonal->clear();
    if (m_model->rowCount() > 0)
        m_table->selectRow(0);
    showSelected();
    updateButtons();
}

void PlannerPanel::setSimulated(size_t ranked, double seconds, const QString& error) {
    m_model->setSimulated(ranked, seconds, error);
    if (!error.isEmpty() || !m_model->result() || ranked >= m_model->result()->ranked.size())
        return;
    m_scatter->append(m_model->result()->ranked[ranked].seconds(), seconds);
    rescaleChart();
}

void PlannerPanel::rescaleChart() {
    const QList<QPointF> points = m_scatter->points();
    if (points.isEmpty())
        return;
    double lo = points.first().x(), hi = lo;
    for (const QPointF& p : points) {
        lo = std::min({lo, p.x(), p.y()});
        hi = std::max({hi, p.x(), p.y()});
    }
    const double pad = std::max(1e-9, (hi - lo) * 0.05);
    lo -= pad;
    hi += pad;
    m_diagonal->replace({QPointF(lo, lo), QPointF(hi, hi)});
    // The same range on both axes, so the diagonal is the diagonal and distance from it reads
    // as the estimate's error.
    for (Qt::Orientation o : {Qt::Horizontal, Qt::Vertical}) {
        auto* axis = static_cast<QValueAxis*>(m_chartView->chart()->axes(o).first());
        axis->setRange(lo, hi);
    }
}

void PlannerPanel::setRunning(bool running) {
    m_running = running;
    updateButtons();
}

void PlannerPanel::setStatus(const QString& text) {
    m_status->setText(text);
}

QString PlannerPanel::statusText() const {
    return m_status->text();
}

int PlannerPanel::selectedCandidate() const {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : m_model->rankedIndex(rows.first().row());
}

void PlannerPanel::selectCandidate(size_t ranked) {
    const int row = m_model->rowOf(ranked);
    if (row >= 0)
        m_table->selectRow(row);
}

QString PlannerPanel::argumentsText() const {
    return m_arguments->toPlainText();
}

void PlannerPanel::showSelected() {
    const int ranked = selectedCandidate();
    const plan::PlanResult* result = m_model->result();
    if (ranked < 0 || !result) {
        m_memoryBar->clear();
        m_memoryText->clear();
        m_arguments->clear();
        return;
    }
    const plan::Candidate& c = result->ranked[size_t(ranked)].candidate;
    const generate::GeneratorSpec spec = plan::candidateSpec(m_request, c);
    // One program build for one candidate: milliseconds even for GPT-3 175B.
    const generate::ModelFigures figures = generate::computeFigures(spec);
    const generate::MemoryBreakdown& m = figures.memory;
    m_memoryBar->setMemory(m.weights, m.gradients, m.optimizer, m.activations,
                           figures.hbmCapacityBytes);
    const auto bytes = [](double b) { return QString::fromStdString(generate::formatBytes(b)); };
    m_memoryText->setText(tr("%1: weights %2, gradients %3, optimizer %4, activations %5; "
                             "%6 of %7 HBM")
                              .arg(QString::fromStdString(plan::candidateLabel(c)),
                                   bytes(m.weights), bytes(m.gradients), bytes(m.optimizer),
                                   bytes(m.activations), bytes(m.total()),
                                   bytes(figures.hbmCapacityBytes)));
    QStringList lines{tr("# Megatron-LM (pretrain_gpt.py)")};
    const std::vector<std::string> megatron = plan::megatronArguments(spec);
    for (const std::string& a : megatron)
        lines << QString::fromStdString(a) + (a.rfind('#', 0) == 0 ? QString() : tr(" \\"));
    lines << QString() << tr("# NeMo overrides");
    QStringList nemo;
    for (const std::string& o : plan::nemoOverrides(spec))
        nemo << QString::fromStdString(o);
    lines << nemo.join(QLatin1Char(' '));
    m_arguments->setPlainText(lines.join(QLatin1Char('\n')));
}

void PlannerPanel::updateButtons() {
    const bool ranked = m_model->rowCount() > 0;
    for (QWidget* w : std::initializer_list<QWidget*>{m_plan, m_gpus, m_batch, m_topK})
        w->setEnabled(!m_running);
    m_simulate->setEnabled(!m_running && ranked);
    m_cancel->setEnabled(m_running);
    m_apply->setEnabled(!m_running && selectedCandidate() >= 0);
    m_copy->setEnabled(selectedCandidate() >= 0);
}

} // namespace astrolabe::widgets
