#include "optimize/BandwidthOptimizerView.h"

#include "common/InterfaceScale.h"
#include "trace/WorkloadNode.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
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

/// A box for one quantity: `minimum` to `maximum` in `decimals` places, `suffix` its unit.
QDoubleSpinBox* quantityBox(QWidget* parent, double minimum, double maximum, int decimals,
                            const QString& suffix, const QString& tip) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(minimum, maximum);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    box->setToolTip(tip);
    return box;
}

} // namespace

BandwidthOptimizerView::BandwidthOptimizerView(QWidget* parent)
    : QWidget(parent) {
    m_total = quantityBox(this, 0.001, 1e7, 1, tr(" GB/s"),
                          tr("Bandwidth per NPU summed over the dimensions (10^9 B/s)"));
    m_points = new QSpinBox(this);
    m_points->setRange(2, 32);
    m_points->setValue(5);
    m_points->setToolTip(tr("Budgets between the cost of the minimums and that of the fastest "
                            "allocation: one optimization each"));
    m_optimize = new QPushButton(tr("Optimize"), this);
    m_apply = new QPushButton(tr("Apply selected"), this);
    m_apply->setToolTip(tr("Set the platform's bandwidths to the selected point (undoable)"));
    m_status = new QLabel(tr("LIBRA: the bandwidth of each dimension that minimizes the "
                             "iteration time, confirmed by simulation (docs/libra.md)"),
                          this);
    m_status->setWordWrap(true);

    // What to optimize for: the project's workload, or a collective over all NPUs (LIBRA's
    // microbenchmark rows) without editing the project.
    m_workload = new QComboBox(this);
    m_workload->setSizeAdjustPolicy(QComboBox::AdjustToContents); // whole at any scale
    m_workload->addItem(tr("The project's workload"), -1);
    const auto collective = [this](const QString& label, CollectiveType type) {
        m_workload->addItem(label, static_cast<int>(type)); // MicrobenchmarkSpec's numbering
    };
    collective(tr("All-reduce"), CollectiveType::AllReduce);
    collective(tr("All-gather"), CollectiveType::AllGather);
    collective(tr("Reduce-scatter"), CollectiveType::ReduceScatter);
    collective(tr("All-to-all"), CollectiveType::AllToAll);
    m_workload->setToolTip(tr("Optimize for the project's workload, or for one collective over "
                              "all NPUs of the size given"));
    m_size = quantityBox(this, 0.001, 1e6, 3, tr(" MiB"),
                         tr("The collective's size per NPU (2^20 bytes)"));
    m_size->setValue(1024);
    m_size->setEnabled(false);
    connect(m_workload, &QComboBox::currentIndexChanged, this,
            [this] { m_size->setEnabled(m_workload->currentData().toInt() >= 0); });

    // The cost model's prices (engine/optimize/AllocationProblem.h, docs/libra.md): assumptions
    // a user with quotes replaces.
    const auto price = [this](double value, const QString& tip, const QString& suffix) {
        QDoubleSpinBox* box =
            quantityBox(this, 0, suffix.contains(QLatin1Char('/')) ? 1e5 : 1e8, 2, suffix, tip);
        box->setValue(value);
        return box;
    };
    const optimize::ComponentPrices defaults;
    const QString perGBps = tr(" $/GB/s");
    m_directLink =
        price(defaults.directLinkDollarsPerGBps,
              tr("An electrical NPU-to-NPU link (Ring, FullyConnected), per GB/s"), perGBps);
    m_switchedLink = price(defaults.switchedLinkDollarsPerGBps,
                           tr("An optical cable with its two transceivers, per GB/s"), perGBps);
    m_nic =
        price(defaults.nicDollarsPerGBps, tr("A network interface in front of a switch"), perGBps);
    m_switchPort = price(defaults.switchPortDollarsPerGBps,
                         tr("One switch port (its share of the switch)"), perGBps);
    m_npu = price(defaults.npuDollars, tr("The NPU itself: the fixed part of the cost"), tr(" $"));
    m_npu->setDecimals(0);
    // LIBRA's constraints besides the total: a cost budget for the whole platform, and a floor
    // and a ceiling per dimension (rebuildBounds). 0 means none.
    m_budget = quantityBox(this, 0, 1e13, 0, tr(" $"),
                           tr("Cost limit for the whole platform, its NPUs included: no point of "
                              "the front costs more (none: the front ends at the fastest split)"));
    m_budget->setSingleStep(1e6);
    m_budget->setSpecialValueText(tr("none"));
    // Three short rows, not one long one: at 200 % presentation scale a single row of ten
    // fields cut its labels ("Workloac", "Prices: lir").
    auto* prices = new QGridLayout;
    const auto add = [this, prices](int row, int column, const QString& label, QWidget* field) {
        prices->addWidget(new QLabel(label, this), row, 2 * column);
        prices->addWidget(field, row, 2 * column + 1);
    };
    add(0, 0, tr("Workload:"), m_workload);
    add(0, 1, tr("size:"), m_size);
    add(1, 0, tr("Direct link:"), m_directLink);
    add(1, 1, tr("Switched cable:"), m_switchedLink);
    add(1, 2, tr("NIC:"), m_nic);
    add(2, 0, tr("Switch port:"), m_switchPort);
    add(2, 1, tr("NPU:"), m_npu);
    add(2, 2, tr("Budget:"), m_budget);
    prices->setColumnStretch(6, 1);

    // One row per dimension: its floor and ceiling in GB/s (the CLI's --min and --max).
    m_bounds = new QGridLayout;
    m_bounds->addWidget(new QLabel(tr("Dimension"), this), 0, 0);
    m_bounds->addWidget(new QLabel(tr("Floor"), this), 0, 1);
    m_bounds->addWidget(new QLabel(tr("Ceiling"), this), 0, 2);
    m_bounds->setColumnStretch(3, 1);

    auto* request = new QHBoxLayout;
    request->addWidget(new QLabel(tr("Total per NPU:"), this));
    request->addWidget(m_total);
    request->addWidget(new QLabel(tr("Budgets:"), this));
    request->addWidget(m_points);
    request->addWidget(m_optimize);
    request->addStretch();
    request->addWidget(m_apply);

    m_model = new QStandardItemModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Headers such as "d1 FullyConnected 8 (GB/s)" are longer than their numbers: size columns
    // to the header so nothing is elided.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    m_scatter = new QScatterSeries;
    m_scatter->setName(tr("Pareto front"));
    auto* chart = new QChart;
    chart->addSeries(m_scatter);
    auto* x = new QValueAxis;
    x->setTitleText(tr("cost ($M)"));
    auto* y = new QValueAxis;
    y->setTitleText(tr("iteration (ms)"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    m_scatter->attachAxis(x);
    m_scatter->attachAxis(y);
    chart->legend()->hide();
    m_chartView = new QChartView(chart, this);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    InterfaceScale::followChart(m_chartView);
    InterfaceScale::followMinimumSize(m_chartView, {0, 220});

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_chartView);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(request);
    layout->addLayout(prices);
    layout->addLayout(m_bounds);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_optimize, &QPushButton::clicked, this,
            [this] { emit optimizeRequested(m_total->value(), m_points->value()); });
    connect(m_apply, &QPushButton::clicked, this, [this] {
        const int row = selectedPoint();
        if (row >= 0)
            emit applyRequested(m_front[static_cast<size_t>(row)].gbps);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &BandwidthOptimizerView::updateApply);
    updateApply();
}

void BandwidthOptimizerView::setDimensions(const QStringList& labels, double totalGBps) {
    m_dimensions = labels;
    m_total->setValue(totalGBps);
    rebuildBounds();
    setFront({});
}

void BandwidthOptimizerView::rebuildBounds() {
    for (QWidget* w : m_boundLabels)
        delete w;
    for (QWidget* w : m_minBoxes)
        delete w;
    for (QWidget* w : m_maxBoxes)
        delete w;
    m_boundLabels.clear();
    m_minBoxes.clear();
    m_maxBoxes.clear();
    const auto box = [this](const QString& none, const QString& tip) {
        QDoubleSpinBox* b = quantityBox(this, 0, 1e7, 1, tr(" GB/s"), tip);
        b->setSpecialValueText(none);
        return b;
    };
    for (int d = 0; d < m_dimensions.size(); ++d) {
        auto* label = new QLabel(m_dimensions[d], this);
        QDoubleSpinBox* floor = box(
            tr("default"), tr("Lowest bandwidth of %1 (default: 0.1% of the total); give a real "
                              "floor where the workload hides a dimension's traffic")
                               .arg(m_dimensions[d]));
        QDoubleSpinBox* ceiling =
            box(tr("none"), tr("Highest bandwidth of %1, e.g. what its links or NICs can carry")
                                .arg(m_dimensions[d]));
        floor->setEnabled(m_optimize->isEnabled());
        ceiling->setEnabled(m_optimize->isEnabled());
        m_bounds->addWidget(label, d + 1, 0);
        m_bounds->addWidget(floor, d + 1, 1);
        m_bounds->addWidget(ceiling, d + 1, 2);
        m_boundLabels.push_back(label);
        m_minBoxes.push_back(floor);
        m_maxBoxes.push_back(ceiling);
    }
}

void BandwidthOptimizerView::constrain(optimize::AllocationProblem& problem) const {
    for (size_t d = 0; d < m_minBoxes.size() && d < problem.dimensions(); ++d) {
        if (m_minBoxes[d]->value() > 0)
            problem.minGBps[d] = m_minBoxes[d]->value();
        if (m_maxBoxes[d]->value() > 0)
            problem.maxGBps[d] = m_maxBoxes[d]->value();
    }
    if (m_budget->value() > 0)
        problem.budgetDollars = m_budget->value();
}

int BandwidthOptimizerView::bestPerfPerCostPoint() const {
    int best = -1;
    for (size_t i = 0; i < m_front.size(); ++i)
        if (best < 0 || m_front[i].perfPerCost() > m_front[static_cast<size_t>(best)].perfPerCost())
            best = static_cast<int>(i);
    return best;
}

void BandwidthOptimizerView::setFront(std::vector<optimize::EvaluatedAllocation> front) {
    m_front = std::move(front);
    m_model->clear();
    QStringList headers;
    for (const QString& d : m_dimensions)
        headers << tr("%1 (GB/s)").arg(d);
    headers << tr("cost ($)") << tr("simulated (ms)") << tr("iter/s per M$");
    m_model->setHorizontalHeaderLabels(headers);
    QList<QPointF> points;
    // Numbers right-aligned, so their digits line up; the cost grouped as the locale groups it.
    const QLocale locale;
    const auto number = [](const QString& text) {
        auto* item = new QStandardItem(text);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return item;
    };
    for (const optimize::EvaluatedAllocation& a : m_front) {
        QList<QStandardItem*> row;
        for (double b : a.gbps)
            row << number(QString::number(b, 'f', 1));
        row << number(locale.toString(a.costDollars, 'f', 0))
            << number(QString::number(a.simulatedSeconds * 1e3, 'f', 4))
            << number(locale.toString(a.perfPerCost() * 1e6, 'f', 1));
        m_model->appendRow(row);
        points << QPointF(a.costDollars / 1e6, a.simulatedSeconds * 1e3);
    }
    if (const int best = bestPerfPerCostPoint(); best >= 0) {
        QStandardItem* cell = m_model->item(best, m_model->columnCount() - 1);
        QFont bold = cell->font();
        bold.setBold(true);
        cell->setFont(bold);
        cell->setToolTip(tr("The best performance per cost on the front"));
    }
    m_scatter->replace(points);
    if (!points.isEmpty()) {
        auto [minX, maxX] = std::minmax_element(points.begin(), points.end(),
                                                [](auto a, auto b) { return a.x() < b.x(); });
        auto [minY, maxY] = std::minmax_element(points.begin(), points.end(),
                                                [](auto a, auto b) { return a.y() < b.y(); });
        const double padX = std::max(1e-9, (maxX->x() - minX->x()) * 0.05);
        const double padY = std::max(1e-9, (maxY->y() - minY->y()) * 0.05);
        // Ticks at round numbers (0.82, 0.84, ...), not at fifths of the padded span.
        const auto roundRange = [this](Qt::Orientation orientation, double lo, double hi) {
            auto* axis = static_cast<QValueAxis*>(m_chartView->chart()->axes(orientation).first());
            axis->setRange(lo, hi);
            axis->applyNiceNumbers();
        };
        roundRange(Qt::Horizontal, minX->x() - padX, maxX->x() + padX);
        roundRange(Qt::Vertical, minY->y() - padY, maxY->y() + padY);
        m_table->selectRow(static_cast<int>(m_front.size()) - 1); // the fastest: last by cost
    }
    updateApply();
}

void BandwidthOptimizerView::setRunning(bool running) {
    m_optimize->setEnabled(!running);
    m_total->setEnabled(!running);
    m_points->setEnabled(!running);
    for (QWidget* w : std::initializer_list<QWidget*>{m_workload, m_directLink, m_switchedLink,
                                                      m_nic, m_switchPort, m_npu, m_budget})
        w->setEnabled(!running);
    for (QWidget* w : m_minBoxes)
        w->setEnabled(!running);
    for (QWidget* w : m_maxBoxes)
        w->setEnabled(!running);
    m_size->setEnabled(!running && m_workload->currentData().toInt() >= 0);
    updateApply();
    if (running)
        m_apply->setEnabled(false);
}

optimize::ComponentPrices BandwidthOptimizerView::prices() const {
    optimize::ComponentPrices p;
    p.directLinkDollarsPerGBps = m_directLink->value();
    p.switchedLinkDollarsPerGBps = m_switchedLink->value();
    p.nicDollarsPerGBps = m_nic->value();
    p.switchPortDollarsPerGBps = m_switchPort->value();
    p.npuDollars = m_npu->value();
    return p;
}

void BandwidthOptimizerView::setPrices(const optimize::ComponentPrices& p) {
    m_directLink->setValue(p.directLinkDollarsPerGBps);
    m_switchedLink->setValue(p.switchedLinkDollarsPerGBps);
    m_nic->setValue(p.nicDollarsPerGBps);
    m_switchPort->setValue(p.switchPortDollarsPerGBps);
    m_npu->setValue(p.npuDollars);
}

std::optional<MicrobenchmarkSpec> BandwidthOptimizerView::workload() const {
    const int collective = m_workload->currentData().toInt();
    if (collective < 0)
        return std::nullopt;
    MicrobenchmarkSpec m;
    m.collective = collective;
    m.sizeBytes = static_cast<uint64_t>(std::llround(m_size->value() * 1048576.0));
    return m;
}

void BandwidthOptimizerView::setStatus(const QString& text) {
    m_status->setText(text);
}

int BandwidthOptimizerView::selectedPoint() const {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return -1;
    const int row = rows.first().row();
    return row < static_cast<int>(m_front.size()) ? row : -1;
}

void BandwidthOptimizerView::updateApply() {
    m_apply->setEnabled(selectedPoint() >= 0 && m_optimize->isEnabled());
}

} // namespace astrolabe::widgets
