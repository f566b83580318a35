#include "optimize/BandwidthOptimizerView.h"

#include "common/InterfaceScale.h"

#include <QChart>
#include <QChartView>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

namespace astrolabe::widgets {

BandwidthOptimizerView::BandwidthOptimizerView(QWidget* parent)
    : QWidget(parent) {
    m_total = new QDoubleSpinBox(this);
    m_total->setRange(0.001, 1e7);
    m_total->setDecimals(1);
    m_total->setSuffix(tr(" GB/s"));
    m_total->setToolTip(tr("Bandwidth per NPU summed over the dimensions (10^9 B/s)"));
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
    setFront({});
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
    for (const optimize::EvaluatedAllocation& a : m_front) {
        QList<QStandardItem*> row;
        for (double b : a.gbps)
            row << new QStandardItem(QString::number(b, 'f', 1));
        row << new QStandardItem(QString::number(a.costDollars, 'f', 0))
            << new QStandardItem(QString::number(a.simulatedSeconds * 1e3, 'f', 4))
            << new QStandardItem(QString::number(a.perfPerCost() * 1e6, 'f', 4));
        m_model->appendRow(row);
        points << QPointF(a.costDollars / 1e6, a.simulatedSeconds * 1e3);
    }
    m_scatter->replace(points);
    if (!points.isEmpty()) {
        auto [minX, maxX] = std::minmax_element(points.begin(), points.end(),
                                                [](auto a, auto b) { return a.x() < b.x(); });
        auto [minY, maxY] = std::minmax_element(points.begin(), points.end(),
                                                [](auto a, auto b) { return a.y() < b.y(); });
        const double padX = std::max(1e-9, (maxX->x() - minX->x()) * 0.05);
        const double padY = std::max(1e-9, (maxY->y() - minY->y()) * 0.05);
        m_chartView->chart()
            ->axes(Qt::Horizontal)
            .first()
            ->setRange(minX->x() - padX, maxX->x() + padX);
        m_chartView->chart()
            ->axes(Qt::Vertical)
            .first()
            ->setRange(minY->y() - padY, maxY->y() + padY);
        m_table->selectRow(static_cast<int>(m_front.size()) - 1); // the fastest: last by cost
    }
    updateApply();
}

void BandwidthOptimizerView::setRunning(bool running) {
    m_optimize->setEnabled(!running);
    m_total->setEnabled(!running);
    m_points->setEnabled(!running);
    updateApply();
    if (running)
        m_apply->setEnabled(false);
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
