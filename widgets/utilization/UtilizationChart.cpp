#include "utilization/UtilizationChart.h"

#include "common/InterfaceScale.h"
#include "record/LinkGroups.h"
#include "timeline/TimeAxis.h"
#include "timeline/TimelinePalette.h"
#include "utilization/UtilizationData.h"

#include <QLineSeries>
#include <QValueAxis>

namespace astrolabe::widgets {

UtilizationChart::UtilizationChart(QWidget* parent)
    : QChartView(parent) {
    auto* chart = new QChart;
    chart->setTitle(tr("Link utilization over time"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    m_x = new QValueAxis(chart);
    m_x->setTitleText(tr("time"));
    m_y = new QValueAxis(chart);
    m_y->setTitleText(tr("%"));
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    m_y->setRange(0, 100);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    InterfaceScale::followChart(this);
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    InterfaceScale::followMinimumSize(this, {0, 220});
}

void UtilizationChart::setResult(std::shared_ptr<const RunResult> result) {
    m_result = std::move(result);
    m_data.clear();
    for (QLineSeries* series : m_series) {
        chart()->removeSeries(series);
        delete series;
    }
    m_series.clear();
    m_dimensionSeries = 0;
    if (m_result) {
        const int dims = linkDimensionCount(*m_result);
        for (int d = 0; d < dims; ++d) {
            m_data.push_back(dimensionSeries(*m_result, d));
            auto* series = new QLineSeries;
            series->setName(tr("dimension %1 (mean)").arg(d));
            series->setPen(QPen(TimelinePalette::dimension(d), 1.5));
            m_series.push_back(series);
        }
        m_dimensionSeries = dims;
        const double endPs = static_cast<double>(m_result->seriesBucket.ps()) *
                             static_cast<double>(m_data.empty() ? 0 : m_data.front().size());
        const double rangePs =
            endPs > 0 ? endPs : std::max(static_cast<double>(m_result->endTime.ps()), 1.0);
        // Ticks at a nice step (1, 2, 5 x 10^k) from zero, the data's own end kept: at most
        // nine, labelled in the unit of the run's length (µs for the quick start, ms for an
        // LLM iteration). The axis builds its tick items on every change, so it holds two
        // fixed ticks while range and step change: the previous run's step over this run's
        // range (10 µs over 900 ms) would be 10^5 tick items built on the GUI thread.
        const int64_t stepPs = niceStep(rangePs / 8);
        const TimeUnit unit = unitForStep(static_cast<int64_t>(rangePs));
        m_psPerUnit = static_cast<double>(unit.psPerUnit);
        m_x->setTitleText(tr("time (%1)").arg(QString::fromUtf8(unit.suffix)));
        m_x->setTickType(QValueAxis::TicksFixed);
        m_x->setTickCount(2);
        m_x->setRange(0, rangePs / m_psPerUnit);
        m_x->setTickAnchor(0);
        m_x->setTickInterval(static_cast<double>(stepPs) / m_psPerUnit);
        m_x->setTickType(QValueAxis::TicksDynamic);
        m_x->setLabelFormat(QStringLiteral("%.%1f").arg(decimalsForStep(stepPs, unit)));
    }
    for (QLineSeries* series : m_series) {
        chart()->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    }
    m_fedColumns = -1;
    refeed();
}

void UtilizationChart::setLinks(const std::vector<int>& links) {
    if (!m_result)
        return;
    while (static_cast<int>(m_series.size()) > m_dimensionSeries) {
        chart()->removeSeries(m_series.back());
        delete m_series.back();
        m_series.pop_back();
        m_data.pop_back();
    }
    // A stored run with grouped link detail has no per-link series: a selected link shows its
    // group's mean (record/LinkGroups.h), each group once.
    const std::vector<int> groupOf =
        m_result->linkSeries.empty() ? linkGroupIndex(*m_result) : std::vector<int>{};
    std::vector<bool> groupShown(m_result->linkGroupSeries.size(), false);
    for (int link : links) {
        if (link < 0 || static_cast<size_t>(link) >= m_result->links.size())
            continue;
        const LinkInfo& info = m_result->links[link];
        QString name;
        if (static_cast<size_t>(link) < m_result->linkSeries.size()) {
            m_data.push_back(m_result->linkSeries[link]);
            name = tr("link %1 (%2→%3)").arg(link).arg(info.src).arg(info.dst);
        } else if (static_cast<size_t>(link) < groupOf.size() && groupOf[link] >= 0 &&
                   !groupShown[static_cast<size_t>(groupOf[link])]) {
            groupShown[static_cast<size_t>(groupOf[link])] = true;
            const LinkGroupSeries& g = m_result->linkGroupSeries[groupOf[link]];
            m_data.push_back(g.mean);
            name = tr("link %1's group (mean of %2 links of dimension %3)")
                       .arg(link)
                       .arg(g.linkCount)
                       .arg(g.dimension);
        } else {
            continue;
        }
        auto* series = new QLineSeries;
        series->setName(name);
        m_series.push_back(series);
        chart()->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    }
    m_fedColumns = -1;
    refeed();
}

int UtilizationChart::plotColumns() const {
    const int columns = static_cast<int>(chart()->plotArea().width());
    return columns > 10 ? columns : std::max(10, width() - 100);
}

void UtilizationChart::refeed() {
    if (!m_result)
        return;
    const int columns = plotColumns();
    if (columns == m_fedColumns)
        return;
    m_fedColumns = columns;
    const double dx = static_cast<double>(m_result->seriesBucket.ps()) / m_psPerUnit;
    for (size_t i = 0; i < m_series.size(); ++i) {
        const std::vector<SeriesPoint> points = downsampleMinMax(m_data[i], 0.0, dx, columns);
        QList<QPointF> list;
        list.reserve(static_cast<qsizetype>(points.size()));
        for (const SeriesPoint& p : points)
            list.append(QPointF(p.x, 100.0 * p.y));
        m_series[i]->replace(list);
    }
}

std::vector<int> UtilizationChart::seriesPointCounts() const {
    std::vector<int> counts;
    for (const QLineSeries* series : m_series)
        counts.push_back(static_cast<int>(series->count()));
    return counts;
}

void UtilizationChart::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    refeed();
}

} // namespace astrolabe::widgets
