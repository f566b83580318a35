#include "serving/ServingSeriesChart.h"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>

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

ServingSeriesChart::ServingSeriesChart(QWidget* parent)
    : QWidget(parent) {
    setMinimumSize(200, 120);
}

void ServingSeriesChart::setResult(std::shared_ptr<const serving::ServingResult> result) {
    m_series = result ? servingSeries(result->occupancy) : ServingSeries{};
    update();
}

void ServingSeriesChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    const int line = fontMetrics().height();
    const QRect plot = rect().adjusted(line * 3, line + 6, -line * 3, -line - 8);
    if (plot.width() < 10 || plot.height() < 10)
        return;
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRect(0, 2, width(), line), Qt::AlignHCenter,
                     tr("Output tokens/s (blue) and KV-cache occupancy % (green)"));
    painter.drawRect(plot);
    if (m_series.seconds.empty())
        return;
    const double t0 = 0, t1 = std::max(m_series.seconds.back(), 1e-9);
    const double peak = std::max(
        1.0, *std::max_element(m_series.tokensPerSecond.begin(), m_series.tokensPerSecond.end()));
    // The peak in tokens/s, short enough for the margin: 950, 9,500, 30.0 k, 120 k.
    const QLocale locale;
    const QString peakText =
        peak < 1e4 ? locale.toString(peak, 'f', 0)
                   : locale.toString(peak / 1000, 'f', peak < 1e5 ? 1 : 0) + QStringLiteral(" k");
    painter.drawText(QRect(0, plot.top() - line / 2, plot.left() - 4, line), Qt::AlignRight,
                     peakText);
    painter.drawText(QRect(plot.right() + 4, plot.top() - line / 2, line * 3, line), Qt::AlignLeft,
                     QStringLiteral("100%"));
    painter.drawText(QRect(plot.right() - 80, plot.bottom() + 3, 80, line), Qt::AlignRight,
                     QString::number(t1, 'g', 3) + QStringLiteral(" s"));
    auto draw = [&](const std::vector<double>& values, double top, QColor color) {
        QPainterPath path;
        for (size_t i = 0; i < values.size(); ++i) {
            const QPointF p(plot.left() + plot.width() * (m_series.seconds[i] - t0) / (t1 - t0),
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
    draw(m_series.tokensPerSecond, peak, QColor(0x00, 0x72, 0xb2));
    draw(m_series.kvPercent, 100, QColor(0x00, 0x9e, 0x73));
}

} // namespace astrolabe::widgets
