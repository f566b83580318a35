#include "serving/ServingSeriesChart.h"

#include "timeline/TimeAxis.h"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

ServingSeries servingSeries(const std::vector<serving::OccupancySample>& samples) {
    ServingSeries s;
    for (size_t i = 1; i < samples.size(); ++i) {
        const double dt = samples[i].seconds - samples[i - 1].seconds;
        if (!(dt > 0))
            continue;
        s.seconds.push_back(samples[i].seconds);
        s.tokensPerSecond.push_back(double(samples[i].outputTokens) / dt);
        s.kvPercent.push_back(samples[i].kvOccupancy * 100);
    }
    return s;
}

std::vector<double> throughputTicks(double peak) {
    if (!(peak > 0) || !std::isfinite(peak))
        return {0};
    // The largest step in {1, 2, 5} x 10^k at most half the peak: 3 to 5 ticks.
    const double half = peak / 2;
    const double decade = std::pow(10.0, std::floor(std::log10(half)));
    double step = decade;
    for (const double mantissa : {2.0, 5.0})
        if (decade * mantissa <= half * (1 + 1e-12))
            step = decade * mantissa;
    std::vector<double> ticks;
    for (int k = 0; k * step <= peak * (1 + 1e-9); ++k)
        ticks.push_back(k * step);
    return ticks;
}

ServingSeriesChart::ServingSeriesChart(QWidget* parent)
    : QWidget(parent) {
    setMinimumSize(200, 120);
}

void ServingSeriesChart::setResult(std::shared_ptr<const serving::ServingResult> result) {
    m_series = result ? servingSeries(result->occupancy) : ServingSeries{};
    update();
}

namespace {

const QColor kThroughputColor(0x00, 0x72, 0xb2);
const QColor kOccupancyColor(0x00, 0x9e, 0x73);

/// Tokens/s short enough for the margin: 950, 9,500, 30.0 k, 120 k.
QString tokensText(double value) {
    const QLocale locale;
    return value < 1e4
               ? locale.toString(value, 'f', 0)
               : locale.toString(value / 1000, 'f', value < 1e5 ? 1 : 0) + QStringLiteral(" k");
}

} // namespace

void ServingSeriesChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    const QFontMetrics metrics = fontMetrics();
    const int line = metrics.height();
    const int margin = metrics.horizontalAdvance(QStringLiteral("30.0 k")) + 8;
    const QRect plot = rect().adjusted(margin, line + 8, -margin, -line - 8);
    if (plot.width() < 10 || plot.height() < 10)
        return;
    const QColor text = palette().color(QPalette::Text);
    // The title is the legend: each series' name in its colour, cut to the width it has.
    {
        const QString throughput = tr("output tokens/s");
        const QString occupancy = tr("KV cache %");
        const int swatch = line / 2 + 4;
        const int gap = metrics.horizontalAdvance(QStringLiteral("    "));
        const int wanted = 2 * swatch + metrics.horizontalAdvance(throughput) + gap +
                           metrics.horizontalAdvance(occupancy);
        int x = std::max(2, (width() - wanted) / 2);
        const int available = width() - 4;
        const auto entry = [&](const QString& name, const QColor& color, int room) {
            painter.fillRect(QRect(x, 2 + line / 4, line / 2, line / 2), color);
            x += swatch;
            painter.setPen(text);
            const QString shown = metrics.elidedText(name, Qt::ElideRight, std::max(0, room));
            painter.drawText(QRect(x, 2, room, line), Qt::AlignLeft, shown);
            x += metrics.horizontalAdvance(shown) + gap;
        };
        entry(throughput, kThroughputColor, std::max(0, available / 2 - swatch));
        entry(occupancy, kOccupancyColor, std::max(0, available - x - swatch));
    }
    painter.setPen(text);
    painter.drawRect(plot);
    if (m_series.seconds.empty())
        return;
    const double t1 = std::max(m_series.seconds.back(), 1e-9);
    const double peak = std::max(
        1.0, *std::max_element(m_series.tokensPerSecond.begin(), m_series.tokensPerSecond.end()));

    // Scales: tokens/s on the left at round steps (1, 2 or 5 x 10^k, at most about four under
    // the peak, which is the top), occupancy on the right (0, 50, 100 %), time below at nice
    // steps (TimeAxis: 500 s, 1000 s, ...), each with a tick mark.
    const QColor grid = palette().color(QPalette::Mid);
    const auto yOf = [&](double fraction) {
        return static_cast<int>(std::lround(plot.bottom() - plot.height() * fraction));
    };
    const auto tickMark = [&](int x0, int x1, int y) {
        painter.setPen(grid);
        painter.drawLine(x0, y, x1, y);
    };
    for (const double value : throughputTicks(peak)) {
        const int y = yOf(value / peak);
        tickMark(plot.left() - 3, plot.left(), y);
        painter.setPen(kThroughputColor.darker(120));
        painter.drawText(QRect(0, y - line / 2, plot.left() - 5, line), Qt::AlignRight,
                         tokensText(value));
    }
    for (int k = 0; k <= 2; ++k) {
        const int y = yOf(k / 2.0);
        tickMark(plot.right(), plot.right() + 3, y);
        painter.setPen(kOccupancyColor.darker(130));
        painter.drawText(QRect(plot.right() + 5, y - line / 2, margin - 5, line), Qt::AlignLeft,
                         QString::number(50 * k) + QStringLiteral(" %"));
    }
    const int64_t endPs = static_cast<int64_t>(std::min(t1 * 1e12, 9e18));
    const TimeMapper mapper(0, std::max<int64_t>(endPs, 1), plot.left(), plot.width());
    const int labelWidth = metrics.horizontalAdvance(QStringLiteral("8888 ms")) + 12;
    for (const TimeTick& tick : timeTicks(mapper, labelWidth)) {
        const int x = static_cast<int>(std::lround(tick.x));
        painter.setPen(grid);
        painter.drawLine(x, plot.bottom(), x, plot.bottom() + 3);
        painter.setPen(text);
        painter.drawText(QRect(x - labelWidth / 2, plot.bottom() + 4, labelWidth, line),
                         Qt::AlignHCenter, QString::fromStdString(tick.label));
    }
    auto draw = [&](const std::vector<double>& values, double top, QColor color) {
        QPainterPath path;
        for (size_t i = 0; i < values.size(); ++i) {
            const QPointF p(plot.left() + plot.width() * m_series.seconds[i] / t1,
                            plot.bottom() - plot.height() * std::min(values[i] / top, 1.0));
            if (i == 0)
                path.moveTo(p);
            else
                path.lineTo(p);
        }
        painter.setPen(QPen(color, 1.5));
        painter.drawPath(path);
    };
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setClipRect(plot.adjusted(0, -1, 1, 1));
    draw(m_series.tokensPerSecond, peak, kThroughputColor);
    draw(m_series.kvPercent, 100, kOccupancyColor);
}

} // namespace astrolabe::widgets
