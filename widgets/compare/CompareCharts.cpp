#include "compare/CompareCharts.h"

#include "common/InterfaceScale.h"
#include "timeline/TimeAxis.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <iterator>

namespace astrolabe::widgets {
namespace {

/// How a setting's base unit reads on an axis: divide by factor, append unit.
std::pair<double, QString> axisScale(const std::string& key) {
    auto endsWith = [&](const char* s) {
        const std::string suffix = s;
        return key.size() >= suffix.size() &&
               key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (endsWith(".bandwidth"))
        return {1024.0 * 1024.0 * 1024.0, QStringLiteral("GiB/s")};
    if (key == "workload.size")
        return {1024.0 * 1024.0, QStringLiteral("MiB")};
    if (endsWith(".latency") || endsWith("endpoint-delay"))
        return {1.0, QStringLiteral("ns")};
    if (endsWith("local-mem-bw"))
        return {1.0, QStringLiteral("GB/s")};
    return {1.0, QString()};
}

/// The unit of a time axis whose largest value is mostNs: the largest of ns, µs, ms and s that
/// keeps it at 1 or more, so labels stay short and never turn to e-notation (60.47 ms, not
/// 60465.8 µs or 1e+06 µs).
struct AxisTime {
    double nsPerUnit;
    QString name;
};
AxisTime axisTime(double mostNs) {
    const TimeUnit unit =
        unitForStep(std::max<int64_t>(static_cast<int64_t>(std::min(mostNs * 1000.0, 9e18)), 1000));
    return {static_cast<double>(unit.psPerUnit) / 1000.0, QString::fromUtf8(unit.suffix)};
}

QChart* newChart(const QString& title) {
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    return chart;
}

} // namespace

BreakdownChart::BreakdownChart(QWidget* parent)
    : QChartView(newChart(tr("Time breakdown per run (critical NPU)")), parent) {
    setRenderHint(QPainter::Antialiasing);
    InterfaceScale::followMinimumSize(this, {0, 220});
    InterfaceScale::followChart(this);
}

void BreakdownChart::setMetrics(const MetricsTableModel& model) {
    QChart* c = chart();
    c->removeAllSeries();
    for (QAbstractAxis* axis : c->axes()) {
        c->removeAxis(axis);
        delete axis;
    }
    m_series = new QBarSeries;
    const std::pair<const char*, QString> parts[] = {{"compute", tr("compute")},
                                                     {"exposed_comm", tr("exposed comm")},
                                                     {"overlap", tr("overlap")}};
    const QColor colors[] = {QColor(66, 133, 244), QColor(234, 67, 53), QColor(251, 188, 4)};
    const auto nsOf = [&](const char* key, int run) {
        const int row = model.rowOfKey(key);
        if (row < 0)
            return 0.0;
        const auto& v = model.rows()[static_cast<size_t>(row)].values[static_cast<size_t>(run)];
        return v ? *v : 0.0;
    };
    double mostNs = 0;
    for (const auto& part : parts)
        for (int run = 0; run < model.runNames().size(); ++run)
            mostNs = std::max(mostNs, nsOf(part.first, run));
    const AxisTime unit = axisTime(mostNs);
    double most = 0;
    for (size_t p = 0; p < std::size(parts); ++p) {
        auto* set = new QBarSet(parts[p].second);
        set->setColor(colors[p]);
        for (int run = 0; run < model.runNames().size(); ++run) {
            set->append(nsOf(parts[p].first, run) / unit.nsPerUnit);
            most = std::max(most, nsOf(parts[p].first, run) / unit.nsPerUnit);
        }
        m_series->append(set);
    }
    c->addSeries(m_series);
    auto* x = new QBarCategoryAxis;
    // Each bar under its run's number (runNumberLabels): a whole name is elided to "#2 Qui..."
    // when the runs are many or the fonts large.
    const QStringList numbers = runNumberLabels(model.runNames());
    x->append(numbers);
    auto* y = new QValueAxis;
    y->setTitleText(tr("time (%1)").arg(unit.name));
    y->setLabelFormat(QStringLiteral("%g"));
    y->setRange(0, most > 0 ? most * 1.1 : 1.0);
    y->applyNiceNumbers();
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    InterfaceScale::styleChart(c);
    m_series->attachAxis(x);
    m_series->attachAxis(y);
}

QStringList runNumberLabels(const QStringList& names) {
    QStringList labels;
    for (const QString& name : names) {
        QString label = name.section(QLatin1Char(' '), 0, 0);
        for (const QString& word : name.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            if (word.size() > 1 && word.front() == QLatin1Char('#') &&
                std::all_of(word.begin() + 1, word.end(), [](QChar c) { return c.isDigit(); })) {
                label = word;
                break;
            }
        while (labels.contains(label))
            label += QLatin1Char('\'');
        labels << label;
    }
    return labels;
}

std::vector<SweepLine> sweepLines(const SettingRow& axis, const MetricsTableModel& model,
                                  const std::vector<std::string>& metricKeys) {
    const auto [factor, unit] = axisScale(axis.key);
    std::vector<SweepLine> out;
    for (const std::string& key : metricKeys) {
        const int row = model.rowOfKey(key);
        if (row < 0)
            continue;
        const MetricRow& m = model.rows()[static_cast<size_t>(row)];
        SweepLine line{QString::fromStdString(m.label), {}};
        for (size_t run = 0; run < axis.numeric.size() && run < m.values.size(); ++run)
            if (axis.numeric[run] && m.values[run])
                line.points.emplace_back(*axis.numeric[run] / factor, *m.values[run]);
        std::sort(line.points.begin(), line.points.end(),
                  [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
        out.push_back(std::move(line));
    }
    return out;
}

SweepChart::SweepChart(QWidget* parent)
    : QChartView(newChart(tr("Sweep")), parent) {
    setRenderHint(QPainter::Antialiasing);
    InterfaceScale::followMinimumSize(this, {0, 220});
    InterfaceScale::followChart(this);
}

void SweepChart::setSweep(const std::optional<SettingRow>& axis, const MetricsTableModel& model) {
    QChart* c = chart();
    c->removeAllSeries();
    for (QAbstractAxis* a : c->axes()) {
        c->removeAxis(a);
        delete a;
    }
    m_lines.clear();
    if (!axis) {
        c->setTitle(tr("Sweep: the compared runs do not differ in exactly one numeric setting"));
        return;
    }
    const auto [factor, unit] = axisScale(axis->key);
    const QString axisName = QString::fromStdString(axis->label);
    c->setTitle(tr("End time and exposed communication against %1").arg(axisName));
    auto* x = new QValueAxis;
    x->setTitleText(unit.isEmpty() ? axisName : QStringLiteral("%1 (%2)").arg(axisName, unit));
    x->setLabelFormat(QStringLiteral("%g"));
    const std::vector<SweepLine> lines = sweepLines(*axis, model, {"end_time", "exposed_comm"});
    double mostNs = 0;
    for (const SweepLine& line : lines)
        for (const QPointF& p : line.points)
            mostNs = std::max(mostNs, p.y());
    const AxisTime time = axisTime(mostNs);
    auto* y = new QValueAxis;
    y->setTitleText(tr("time (%1)").arg(time.name));
    y->setLabelFormat(QStringLiteral("%g"));
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    InterfaceScale::styleChart(c);
    double xMin = 0, xMax = 0, yMax = 0;
    bool first = true;
    const QColor colors[] = {QColor(66, 133, 244), QColor(234, 67, 53)};
    int colorIndex = 0;
    for (const SweepLine& line : lines) {
        auto* series = new QLineSeries;
        series->setName(line.name);
        auto* dots = new QScatterSeries; // the measured points, on top of the line
        dots->setMarkerSize(8);
        const QColor color = colors[colorIndex++ % 2];
        // The first line is wide and solid, the next dashed on top: when two metrics are equal
        // (a pure collective: exposed comm == end time) both stay visible.
        QPen pen(color, colorIndex == 1 ? 4.0 : 2.0,
                 colorIndex == 1 ? Qt::SolidLine : Qt::DashLine);
        series->setPen(pen);
        dots->setColor(color);
        dots->setBorderColor(color);
        for (const QPointF& p : line.points) {
            const double y = p.y() / time.nsPerUnit;
            series->append(p.x(), y);
            dots->append(p.x(), y);
            xMin = first ? p.x() : std::min(xMin, p.x());
            xMax = first ? p.x() : std::max(xMax, p.x());
            yMax = std::max(yMax, y);
            first = false;
        }
        c->addSeries(series);
        c->addSeries(dots);
        series->attachAxis(x);
        series->attachAxis(y);
        dots->attachAxis(x);
        dots->attachAxis(y);
        c->legend()->markers(dots).first()->setVisible(false);
        m_lines.push_back(series);
    }
    const double pad = (xMax - xMin) * 0.05 + (xMax == xMin ? 1.0 : 0.0);
    x->setRange(xMin - pad, xMax + pad);
    x->applyNiceNumbers();
    y->setRange(0, yMax > 0 ? yMax * 1.1 : 1.0);
    y->applyNiceNumbers();
}

} // namespace astrolabe::widgets
