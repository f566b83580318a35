#include "utilization/SummaryPanel.h"

#include "analysis/IdleDimensions.h"
#include "analysis/RunExplanation.h"
#include "common/InterfaceScale.h"
#include "core/Units.h"
#include "record/Oversubscription.h"
#include "timeline/TimeAxis.h"
#include "utilization/DimensionStatsModel.h"
#include "utilization/ReadableAxis.h"
#include "utilization/UtilizationData.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChartView>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTableView>
#include <QValueAxis>
#include <algorithm>
#include <optional>

namespace astrolabe::widgets {

namespace {
QString time(int64_t ps) {
    return QString::fromStdString(formatTime(ps));
}

QChartView* makeChartView(const QString& title, QWidget* parent) {
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    auto* view = new QChartView(chart, parent);
    InterfaceScale::followChart(view);
    view->setRenderHint(QPainter::Antialiasing);
    InterfaceScale::followMinimumSize(view, {0, 220});
    return view;
}

void clearChart(QChart* chart) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}
} // namespace

SummaryPanel::SummaryPanel(QWidget* parent)
    : QWidget(parent) {
    m_figures = new QLabel(this);
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_figures->setWordWrap(true);
    m_collectives = makeChartView(tr("Time per collective (mean per NPU)"), this);
    // Short enough for half the tab at 200 % (a longer title is elided); the detail in the tip.
    m_bandwidth = makeChartView(tr("Bandwidth per dimension"), this); // legend: achieved, peak
    m_bandwidth->setToolTip(tr("A dimension's bandwidth is the sum over its links."));
    m_dimensions = new DimensionStatsModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_dimensions);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();

    // Shown only when a link was busy longer than the run (congestion-unaware, several chunks).
    m_oversubscription = new QFrame(this);
    m_oversubscription->setFrameShape(QFrame::StyledPanel);
    m_oversubscription->setStyleSheet(
        QStringLiteral("QFrame { background: #fff4e0; border: 1px solid #e69f00; }"
                       "QLabel { border: none; }"));
    m_oversubscriptionText = new QLabel(m_oversubscription);
    m_oversubscriptionText->setWordWrap(true);
    m_oversubscriptionText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runAware = new QPushButton(tr("Run Again Congestion-Aware"), m_oversubscription);
    m_runAware->setToolTip(tr("Queue a run of the same settings under the congestion-aware "
                              "model, which shares each link's bandwidth between the chunks "
                              "on it. The project's settings are not changed."));
    connect(m_runAware, &QPushButton::clicked, this, &SummaryPanel::congestionAwareRunRequested);
    auto* banner = new QHBoxLayout(m_oversubscription);
    banner->addWidget(m_oversubscriptionText, 1);
    banner->addWidget(m_runAware, 0, Qt::AlignVCenter);
    m_oversubscription->setVisible(false);

    // The figures and the explanation grow with the run (and with the interface scale): they
    // scroll rather than being cut off under the table.
    auto* figures = new QScrollArea(this);
    figures->setFrameShape(QFrame::NoFrame);
    figures->setWidgetResizable(true);
    figures->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded); // a long line at 250 %
    figures->setWidget(m_figures);

    auto* layout = new QGridLayout(this);
    layout->addWidget(m_oversubscription, 0, 0, 1, 2);
    layout->addWidget(figures, 1, 0);
    layout->addWidget(m_collectives, 1, 1);
    layout->addWidget(m_table, 2, 0);
    layout->addWidget(m_bandwidth, 2, 1);
    layout->setColumnStretch(0, 2);
    layout->setColumnStretch(1, 3);
    layout->setRowStretch(1, 3); // the table has a row per dimension: it needs the least height
    layout->setRowStretch(2, 2);
    setResult(nullptr);
}

QString SummaryPanel::figuresText() const {
    return m_figures->text();
}

QString SummaryPanel::oversubscriptionText() const {
    return m_oversubscription->isHidden() ? QString() : m_oversubscriptionText->text();
}

void SummaryPanel::setResult(std::shared_ptr<const RunResult> result, const PlatformSpec& platform,
                             const SystemConfig* system) {
    m_result = std::move(result);
    m_explanation.clear();
    m_dimensions->setResult(m_result);
    const Oversubscription over = m_result ? findOversubscription(*m_result) : Oversubscription{};
    m_oversubscription->setVisible(over.any());
    if (over.any())
        m_oversubscriptionText->setText(
            tr("<b>Links over 100 %.</b> %1.")
                .arg(QString::fromStdString(explainOversubscription(over)).toHtmlEscaped()));
    if (!m_result) {
        m_figures->setText(tr("No run loaded."));
        clearChart(m_collectives->chart());
        clearChart(m_bandwidth->chart());
        return;
    }
    const RunSummaryFigures f = summarize(*m_result);
    // The table's times side by side in one unit, the largest's, named in the header: the
    // cells stay short at 250 %, and a number never breaks across lines.
    const int64_t largest = std::max({f.maxComputePs, f.maxExposedCommPs, f.maxOverlapPs,
                                      f.meanIdlePs, f.meanComputePs, f.meanExposedCommPs});
    const units::Scale scale =
        units::timeScale(static_cast<double>(largest), units::TimeSpelling::MicroSign);
    const auto number = [&](int64_t ps) {
        return QString::fromStdString(units::formatScaled(static_cast<double>(ps), scale))
            .section(QLatin1Char(' '), 0, 0);
    };
    const auto row = [&](const QString& name, int64_t mean, std::optional<int64_t> max) {
        return QStringLiteral("<tr><td>%1</td><td align=right style=\"white-space:nowrap\">%2</td>"
                              "<td align=right style=\"white-space:nowrap\">%3</td></tr>")
            .arg(name, number(mean), max ? number(*max) : QString());
    };
    QString html = QStringLiteral("<h3>%1</h3><p><b>End-to-end time: <span "
                                  "style=\"white-space:nowrap\">%2</span></b> (%3 NPUs)</p>")
                       .arg(QString::fromStdString(m_result->name).toHtmlEscaped())
                       .arg(time(f.endPs))
                       .arg(m_result->npuCount);
    const QString unit = QString::fromUtf8(scale.symbol.data(), qsizetype(scale.symbol.size()));
    html += QStringLiteral("<table cellspacing=4><tr><th></th><th>mean, %1</th><th>max, %1</th>"
                           "</tr>")
                .arg(unit);
    html += row(tr("compute"), f.meanComputePs, f.maxComputePs);
    html += row(tr("exposed communication"), f.meanExposedCommPs, f.maxExposedCommPs);
    html += row(tr("overlap"), f.meanOverlapPs, f.maxOverlapPs);
    html += row(tr("idle"), f.meanIdlePs, std::nullopt);
    html += QStringLiteral("</table><p>Overlap hides %1 % of communication time.<br>"
                           "<small>Exposed communication follows ASTRA-sim: finish − compute."
                           "</small></p>")
                .arg(f.overlapPercentOfComm, 0, 'f', 1);
    if (system)
        if (const std::string idle = idleDimensionsNote(*m_result, platform, *system);
            !idle.empty())
            html += QStringLiteral("<p style=\"color:#8a5a00\"><b>Idle dimension.</b> %1</p>")
                        .arg(QString::fromStdString(idle).toHtmlEscaped());
    if (const RunExplanation why =
            explainRun(*m_result, platform, system, units::TimeSpelling::MicroSign);
        why.bound != BoundKind::Unknown) {
        m_explanation = QString::fromStdString(why.sentence + "\n" + why.breakdown);
        html += QStringLiteral("<p><b>Why this long:</b> %1<br><small>%2</small></p>")
                    .arg(QString::fromStdString(why.sentence).toHtmlEscaped(),
                         QString::fromStdString(why.breakdown).toHtmlEscaped());
    }
    m_figures->setText(html);
    fillCollectiveChart();
    fillBandwidthChart();
}

void SummaryPanel::fillCollectiveChart() {
    QChart* chart = m_collectives->chart();
    clearChart(chart);
    const std::vector<CollectiveTime> times = collectiveBreakdown(*m_result);
    // One unit for the whole chart, the largest that keeps the longest bar at 1 or more (ns,
    // µs, ms or s): 38.94 ms, not 3.894e+04 µs.
    int64_t longestPs = 0;
    for (const CollectiveTime& t : times)
        longestPs = std::max<int64_t>(longestPs, static_cast<int64_t>(t.meanPerNpuPs));
    const TimeUnit unit = unitForStep(std::max<int64_t>(longestPs, 1));
    const QString suffix = QString::fromUtf8(unit.suffix);
    auto* set = new QBarSet(tr("%1 per NPU").arg(suffix));
    QStringList categories;
    double top = 0;
    for (const CollectiveTime& t : times) {
        const double value =
            static_cast<double>(t.meanPerNpuPs) / static_cast<double>(unit.psPerUnit);
        *set << value;
        top = std::max(top, value);
        categories << QString::fromLatin1(collectiveTypeName(t.type));
    }
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value ") + suffix);
    series->setLabelsPrecision(4); // below 1000 in this unit: never in e-notation
    chart->addSeries(series);
    auto* axisY = new QBarCategoryAxis;
    axisY->append(categories);
    auto* axisX = new QValueAxis;
    axisX->setLabelFormat(QStringLiteral("%g"));
    axisX->setTitleText(suffix);
    chart->addAxis(axisY, Qt::AlignLeft);
    InterfaceScale::styleChart(chart);
    chart->addAxis(axisX, Qt::AlignBottom);
    InterfaceScale::styleChart(chart);
    series->attachAxis(axisY);
    series->attachAxis(axisX);
    // Room on the right for the value printed after the longest bar, whole ("31.8 ms") in a
    // chart a third of the window wide.
    keepTicksReadable(chart, axisX, top * 1.3, Qt::Horizontal);
}

void SummaryPanel::fillBandwidthChart() {
    QChart* chart = m_bandwidth->chart();
    clearChart(chart);
    // One unit for the axis: that of the largest peak, in the family the user entered it in.
    double largest = 0;
    for (const DimensionStats& d : m_result->dimensions)
        largest = std::max(
            {largest, d.peakBandwidthBytesPerSecond, achievedBandwidth(d, m_result->endTime)});
    double largestPeak = 0;
    for (const DimensionStats& d : m_result->dimensions)
        largestPeak = std::max(largestPeak, d.peakBandwidthBytesPerSecond);
    const units::Scale scale = units::bandwidthScale(largest, largestPeak);
    const QString unit = QString::fromUtf8(scale.symbol.data(), qsizetype(scale.symbol.size()));
    auto* achieved = new QBarSet(tr("achieved"));
    auto* peak = new QBarSet(tr("peak"));
    QStringList categories;
    double top = 0;
    for (const DimensionStats& d : m_result->dimensions) {
        const double a = achievedBandwidth(d, m_result->endTime) / scale.factor;
        const double p = d.peakBandwidthBytesPerSecond / scale.factor;
        *achieved << a;
        *peak << p;
        top = std::max({top, a, p});
        categories << (m_dimensions->reducedInNetwork(d.dimension)
                           ? tr("dim %1 (in-switch)").arg(d.dimension)
                           : tr("dim %1").arg(d.dimension));
    }
    auto* series = new QBarSeries;
    series->append(achieved);
    series->append(peak);
    chart->addSeries(series);
    auto* axisX = new QBarCategoryAxis;
    axisX->append(categories);
    auto* axisY = new QValueAxis;
    axisY->setLabelFormat(QStringLiteral("%g"));
    axisY->setTitleText(unit);
    chart->addAxis(axisX, Qt::AlignBottom);
    InterfaceScale::styleChart(chart);
    chart->addAxis(axisY, Qt::AlignLeft);
    InterfaceScale::styleChart(chart);
    series->attachAxis(axisX);
    series->attachAxis(axisY);
    keepTicksReadable(chart, axisY, top * 1.05, Qt::Vertical);
}

} // namespace astrolabe::widgets
