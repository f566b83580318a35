#include "sweep/SweepCharts.h"

#include "common/InterfaceScale.h"
#include "core/Units.h"
#include "sweep/ParetoFront.h"

#include <QBarCategoryAxis>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {
namespace {

void clearChart(QChart* chart) {
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
}

QString unitName(units::Scale scale) {
    return QString::fromUtf8(scale.symbol.data(), static_cast<int>(scale.symbol.size()));
}

/// A value axis, logarithmic when the values span two decades or more (bandwidths, chunks).
QAbstractAxis* numberAxis(double min, double max, const QString& title) {
    if (min > 0 && max / min >= 100) {
        auto* log = new QLogValueAxis;
        log->setBase(2);
        log->setLabelFormat(QStringLiteral("%g"));
        log->setRange(min / 1.2, max * 1.2);
        log->setTitleText(title + QObject::tr(" (log)"));
        return log;
    }
    auto* axis = new QValueAxis;
    axis->setLabelFormat(QStringLiteral("%g"));
    const double pad = max > min ? (max - min) * 0.05 : std::max(1.0, max * 0.05);
    axis->setRange(min - pad, max + pad);
    axis->applyNiceNumbers();
    axis->setTitleText(title);
    return axis;
}

/// The unit written after an axis's numbers ("100 GiB/s" -> "GiB/s"), when all share one.
QString axisUnit(const std::vector<SweepRow>& rows, size_t axis) {
    QString unit;
    for (const SweepRow& row : rows) {
        const QString value = QString::fromStdString(row.values.at(axis)).trimmed();
        const qsizetype space = value.indexOf(QLatin1Char(' '));
        const QString rest = space < 0 ? QString() : value.mid(space + 1).trimmed();
        if (!unit.isNull() && rest != unit)
            return {};
        unit = rest.isNull() ? QStringLiteral("") : rest;
    }
    return unit;
}

/// A logarithmic axis over [min, max] with ticks at powers of `base`.
QAbstractAxis* logAxis(double min, double max, double base, const QString& title) {
    auto* log = new QLogValueAxis;
    log->setBase(base);
    log->setLabelFormat(QStringLiteral("%g"));
    log->setRange(min / 1.3, max * 1.3);
    log->setTitleText(title + QObject::tr(" (log)"));
    return log;
}

QChart* newChart() {
    auto* chart = new QChart;
    chart->legend()->setVisible(false);
    chart->setMargins(QMargins(4, 4, 4, 4));
    return chart;
}

} // namespace

SweepLineChart::SweepLineChart(QWidget* parent)
    : QChartView(newChart(), parent) {
    setRenderHint(QPainter::Antialiasing);
    InterfaceScale::followMinimumSize(this, {320, 220});
    InterfaceScale::followChart(this);
}

void SweepLineChart::setRows(const std::vector<std::string>& axisNames,
                             const std::vector<SweepRow>& rows, size_t axis) {
    QChart* c = chart();
    clearChart(c);
    c->legend()->setVisible(false); // only the α–β model's lines have names to show
    m_line = new QLineSeries;
    m_model = nullptr;
    auto* dots = new QScatterSeries;
    dots->setMarkerSize(8);
    const QString name = QString::fromStdString(axisNames.at(axis));
    c->setTitle(tr("End time against %1").arg(name));
    double maxPs = 1;
    for (const SweepRow& r : rows)
        if (r.summary.status == SweepPointStatus::Ok)
            maxPs = std::max(maxPs, static_cast<double>(r.summary.endTime.ps()));
    // A sweep of a microbenchmark's size: the points at their sizes in bytes, on log-log axes,
    // under the alpha-beta model's line (lesson 2).
    const std::optional<AlphaBetaCurve> curve = alphaBetaCurve(rows);
    if (curve) {
        m_sizeScale = units::sizeScale(curve->points.front().first);
        m_timeScale = units::timeScale(curve->points.front().second * 1e12);
    } else {
        m_sizeScale = {1, ""};
        m_timeScale = units::timeScale(maxPs);
    }
    const units::Scale scale = m_timeScale;
    const bool numeric = numericAxis(rows, axis);
    const std::vector<std::string> categories = distinctAxisValues(rows, axis);
    std::vector<QPointF> points;
    for (const SweepRow& r : rows) {
        if (r.summary.status != SweepPointStatus::Ok)
            continue;
        double x = 0;
        if (curve)
            x = r.alphaBeta->sizeBytes / m_sizeScale.factor;
        else if (numeric)
            x = *axisNumber(r.values[axis]);
        else
            x = static_cast<double>(
                std::find(categories.begin(), categories.end(), r.values[axis]) -
                categories.begin());
        points.emplace_back(x, static_cast<double>(r.summary.endTime.ps()) / scale.factor);
    }
    std::sort(points.begin(), points.end(), [](QPointF a, QPointF b) { return a.x() < b.x(); });
    for (const QPointF& p : points) {
        m_line->append(p);
        dots->append(p);
    }
    c->addSeries(m_line);
    c->addSeries(dots);
    if (curve) {
        addModel(*curve);
        c->setTitle(curve->model.reductionSecondsPerByte > 0
                        ? tr("End time against %1, and the α–β–γ model").arg(name)
                        : tr("End time against %1, and the α–β model").arg(name));
    }
    QAbstractAxis* x = nullptr;
    QAbstractAxis* y = nullptr;
    if (curve) {
        x = logAxis(points.front().x(), points.back().x(), 16,
                    tr("%1 (%2)").arg(name, unitName(m_sizeScale)));
        double lo = points.front().y(), hi = lo;
        for (const QPointF& p : points) {
            lo = std::min(lo, p.y());
            hi = std::max(hi, p.y());
        }
        y = logAxis(std::min(lo, m_model->at(0).y()), hi, 10,
                    tr("end time (%1)").arg(unitName(scale)));
    } else if (numeric) {
        double lo = 0, hi = 1;
        for (size_t i = 0; i < categories.size(); ++i) {
            const double v = *axisNumber(categories[i]);
            lo = i == 0 ? v : std::min(lo, v);
            hi = i == 0 ? v : std::max(hi, v);
        }
        x = numberAxis(lo, hi, name);
    } else {
        auto* category = new QBarCategoryAxis;
        for (const std::string& v : categories)
            category->append(QString::fromStdString(v));
        category->setTitleText(name);
        x = category;
    }
    if (!y) {
        auto* value = new QValueAxis;
        value->setTitleText(tr("end time (%1)").arg(unitName(scale)));
        value->setLabelFormat(QStringLiteral("%g"));
        double top = 1;
        for (const QPointF& p : points)
            top = std::max(top, p.y());
        value->setRange(0, top * 1.08);
        value->applyNiceNumbers();
        y = value;
    }
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    InterfaceScale::styleChart(c);
    for (QAbstractSeries* s : c->series()) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
}

void SweepLineChart::addModel(const AlphaBetaCurve& curve) {
    QChart* c = chart();
    m_line->setName(tr("measured"));
    m_model = new QLineSeries;
    QPen pen(QColor(0xd3, 0x2f, 0x2f));
    pen.setWidthF(2);
    pen.setStyle(Qt::DashLine);
    m_model->setPen(pen);
    for (const auto& [bytes, seconds] : curve.points)
        m_model->append(bytes / m_sizeScale.factor, seconds * 1e12 / m_timeScale.factor);
    const double alphaPs = curve.model.alphaSeconds * 1e12;
    const QString alpha = QString::fromStdString(
        units::formatScaled(alphaPs, units::timeScale(alphaPs, units::TimeSpelling::MicroSign), 3));
    const auto rate = [](double secondsPerByte) {
        return QString::fromStdString(units::formatBandwidth(1 / secondsPerByte, 0, 4));
    };
    const double gamma = curve.model.reductionSecondsPerByte;
    if (gamma > 0) // the reductions in local memory: their own term, named
        m_model->setName(tr("α–β–γ model: %1 + size ÷ %2 (links) + size ÷ %3 (reductions in "
                            "memory)")
                             .arg(alpha, rate(curve.model.secondsPerByte - gamma), rate(gamma)));
    else
        m_model->setName(tr("α–β model: %1 + size ÷ %2 (α fitted at the smallest size)")
                             .arg(alpha, rate(curve.model.secondsPerByte)));
    c->addSeries(m_model);
    c->legend()->setVisible(true);
    c->legend()->setAlignment(Qt::AlignBottom);
    for (QLegendMarker* marker : c->legend()->markers())
        marker->setVisible(marker->series() == m_line || marker->series() == m_model);
}

SweepParetoChart::SweepParetoChart(QWidget* parent)
    : QWidget(parent)
    , m_metric(new QComboBox(this))
    , m_view(new QChartView(newChart(), this)) {
    m_view->setRenderHint(QPainter::Antialiasing);
    InterfaceScale::followMinimumSize(m_view, {320, 220});
    InterfaceScale::followChart(m_view);
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* top = new QHBoxLayout;
    m_metricLabel = new QLabel(tr("Second cost (y, lower is better):"), this);
    top->addWidget(m_metricLabel);
    top->addWidget(m_metric);
    top->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
}

void SweepParetoChart::setRows(const std::vector<std::string>& axisNames,
                               const std::vector<SweepRow>& rows) {
    m_axisNames = axisNames;
    m_rows = rows;
    const std::vector<SweepMetric> metrics = paretoMetrics(axisNames, rows);
    const bool same =
        metrics.size() == m_metrics.size() &&
        std::equal(metrics.begin(), metrics.end(), m_metrics.begin(),
                   [](const SweepMetric& a, const SweepMetric& b) { return a.name == b.name; });
    if (!same) {
        const QSignalBlocker block(m_metric);
        const QString chosen = m_metric->currentText();
        m_metrics = metrics;
        m_metric->clear();
        for (const SweepMetric& m : m_metrics)
            m_metric->addItem(QString::fromStdString(m.name));
        m_metric->setCurrentIndex(std::max(0, m_metric->findText(chosen)));
    }
    redraw();
}

bool SweepParetoChart::selectMetric(const QString& name) {
    const int i = m_metric->findText(name);
    if (i < 0)
        return false;
    m_metric->setCurrentIndex(i);
    redraw();
    return true;
}

QList<QPointF> SweepParetoChart::frontPoints() const {
    return m_front ? m_front->points() : QList<QPointF>();
}

void SweepParetoChart::createSeries() {
    // Made once; each redraw replaces the points in bulk and sets the ranges, so a sweep that
    // delivers points several times a second does not rebuild the chart's items.
    QChart* c = m_view->chart();
    m_all = new QScatterSeries;
    m_all->setName(tr("points"));
    m_all->setMarkerSize(7);
    m_all->setColor(QColor(0x90, 0xa4, 0xc0));
    m_all->setBorderColor(QColor(0x90, 0xa4, 0xc0));
    m_front = new QLineSeries;
    m_front->setName(tr("Pareto front (not dominated)"));
    QPen pen(QColor(0xd3, 0x2f, 0x2f));
    pen.setWidthF(2.5);
    m_front->setPen(pen);
    m_best = new QScatterSeries;
    m_best->setMarkerSize(11);
    m_best->setColor(QColor(0xd3, 0x2f, 0x2f));
    m_best->setBorderColor(QColor(0xd3, 0x2f, 0x2f));
    c->addSeries(m_all);
    c->addSeries(m_front);
    c->addSeries(m_best);
    c->legend()->setVisible(true);
    c->legend()->setAlignment(Qt::AlignBottom);
    for (QLegendMarker* marker : c->legend()->markers(m_best))
        marker->setVisible(false); // the front's line already names it
    m_x = new QValueAxis;
    m_y = new QValueAxis;
    for (QValueAxis* axis : {m_x, m_y})
        axis->setLabelFormat(QStringLiteral("%.4g"));
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    InterfaceScale::styleChart(c);
    for (QAbstractSeries* series : c->series()) {
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    }
}

void SweepParetoChart::redraw() {
    const int chosen = m_metric->currentIndex();
    if (chosen < 0 || static_cast<size_t>(chosen) >= m_metrics.size())
        return;
    if (!m_front)
        createSeries();
    const SweepMetric& metric = m_metrics[static_cast<size_t>(chosen)];
    if (metric.axis == kServingTpot || metric.axis == kServingInteractivity) {
        redrawServing(metric.axis == kServingInteractivity);
        return;
    }
    m_metricLabel->setText(tr("Second cost (y, lower is better):"));
    std::vector<CostPoint> costs;
    for (const SweepRow& r : m_rows)
        if (const std::optional<double> y = metricValue(metric, r))
            costs.push_back({static_cast<double>(r.summary.endTime.ps()), *y});
    if (costs.empty()) { // not "0 to 1.5 ps" on both axes
        m_all->clear();
        m_front->clear();
        m_best->clear();
        m_view->chart()->setTitle(tr("No sweep points yet: Run > Run sweep\u2026 draws the front"));
        m_x->setTitleText(tr("end time"));
        m_y->setTitleText(QString());
        m_x->setRange(0, 1);
        m_y->setRange(0, 1);
        return;
    }
    double minX = 0, maxX = 1, minY = 0, maxY = 1;
    for (size_t i = 0; i < costs.size(); ++i) {
        minX = i == 0 ? costs[i].x : std::min(minX, costs[i].x);
        maxX = i == 0 ? costs[i].x : std::max(maxX, costs[i].x);
        minY = i == 0 ? costs[i].y : std::min(minY, costs[i].y);
        maxY = i == 0 ? costs[i].y : std::max(maxY, costs[i].y);
    }
    const units::Scale xScale = units::timeScale(std::max(maxX, 1.0));
    const units::Scale yScale =
        metric.axis < 0 ? units::timeScale(std::max(maxY, 1.0)) : units::Scale{1, ""};
    const auto toChart = [&](const CostPoint& p) {
        return QPointF(p.x / xScale.factor, p.y / yScale.factor);
    };
    QList<QPointF> all, front;
    for (const CostPoint& p : costs)
        all.append(toChart(p));
    for (const size_t i : paretoFront(costs))
        front.append(toChart(costs[i]));
    m_all->replace(all);
    m_front->replace(front);
    m_best->replace(front);
    // The second cost's name is in the title's second line, where a long one has room; the y
    // axis keeps only its unit (a vertical "max exposed communication (µs)" was elided at 200 %).
    m_view->chart()->setTitle(tr("Pareto front: %2 of %3 points<br>end time against %1")
                                  .arg(QString::fromStdString(metric.name))
                                  .arg(front.size())
                                  .arg(costs.size()));
    // The data's own range, padded, on round ticks: the front is what the eye should find.
    const auto fit = [](QValueAxis* axis, double lo, double hi) {
        const double pad = hi > lo ? (hi - lo) * 0.06 : std::max(std::abs(hi) * 0.1, 1e-9);
        axis->setRange(std::max(0.0, lo - pad), hi + pad);
        axis->applyNiceNumbers();
    };
    fit(m_x, minX / xScale.factor, maxX / xScale.factor);
    fit(m_y, minY / yScale.factor, maxY / yScale.factor);
    m_x->setTitleText(tr("end time (%1)").arg(unitName(xScale)));
    QString yUnit;
    if (metric.axis < 0)
        yUnit = unitName(yScale);
    else
        yUnit = axisUnit(m_rows, static_cast<size_t>(metric.axis));
    m_y->setTitleText(yUnit);
}

void SweepParetoChart::redrawServing(bool interactivity) {
    m_metricLabel->setText(tr("Against (x):"));
    const ServingScatter scatter = servingScatter(m_rows, interactivity);
    QList<QPointF> all, front;
    double minX = 0, maxX = 1, minY = 0, maxY = 1;
    for (size_t i = 0; i < scatter.all.size(); ++i) {
        const auto [x, y] = scatter.all[i];
        all.append(QPointF(x, y));
        minX = i == 0 ? x : std::min(minX, x);
        maxX = i == 0 ? x : std::max(maxX, x);
        minY = i == 0 ? y : std::min(minY, y);
        maxY = i == 0 ? y : std::max(maxY, y);
    }
    for (const auto& [x, y] : scatter.front)
        front.append(QPointF(x, y));
    m_all->replace(all);
    m_front->replace(front);
    m_best->replace(front);
    m_view->chart()->setTitle(
        tr("Pareto front: %1 of %2 deployments<br>output tokens/s per GPU against %3")
            .arg(front.size())
            .arg(all.size())
            .arg(interactivity ? tr("tokens/s per user") : tr("TPOT p50")));
    const auto fit = [](QValueAxis* axis, double lo, double hi) {
        const double pad = hi > lo ? (hi - lo) * 0.06 : std::max(std::abs(hi) * 0.1, 1e-9);
        axis->setRange(std::max(0.0, lo - pad), hi + pad);
        axis->applyNiceNumbers();
    };
    fit(m_x, minX, maxX);
    fit(m_y, minY, maxY);
    m_x->setTitleText(interactivity ? tr("tokens/s per user (1 / TPOT p50)") : tr("TPOT p50 (ms)"));
    m_y->setTitleText(tr("output tokens/s per GPU"));
}

} // namespace astrolabe::widgets
