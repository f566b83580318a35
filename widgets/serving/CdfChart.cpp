#include "serving/CdfChart.h"

#include "core/Units.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {
namespace {

/// "250 ms", "1.2 s", "40 µs".
QString latencyText(double seconds) {
    if (seconds == 0)
        return QStringLiteral("0");
    const auto plain = [](double v) { return QString::fromStdString(units::formatPlain(v, 3)); };
    if (seconds >= 1) // "1411 s", not "1.41e+03 s"
        return plain(seconds) + QStringLiteral(" s");
    if (seconds >= 1e-3)
        return plain(seconds * 1e3) + QStringLiteral(" ms");
    return plain(seconds * 1e6) + QStringLiteral(" µs");
}

/// The smallest of 1, 2, 5 x 10^k at or above `value`.
double niceCeiling(double value) {
    if (!(value > 0))
        return 1;
    const double decade = std::pow(10.0, std::floor(std::log10(value)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * decade >= value * (1 - 1e-12))
            return m * decade;
    return 10 * decade;
}

} // namespace

double cdfAt(const std::vector<double>& sorted, double value) {
    if (sorted.empty())
        return 0;
    const auto it = std::upper_bound(sorted.begin(), sorted.end(), value);
    return double(it - sorted.begin()) / double(sorted.size());
}

std::vector<std::pair<double, double>> cdfPolyline(const std::vector<double>& sorted, double xMax,
                                                   int width) {
    std::vector<std::pair<double, double>> points;
    if (sorted.empty() || width <= 0 || !(xMax > 0))
        return points;
    points.reserve(size_t(2 * (width + 1)));
    double previous = -1;
    for (int column = 0; column <= width; ++column) {
        const double y = cdfAt(sorted, xMax * column / width);
        if (previous >= 0 && y != previous)
            points.emplace_back(double(column), previous); // the step's foot
        points.emplace_back(double(column), y);
        previous = y;
    }
    return points;
}

CdfChart::CdfChart(const QString& title, QWidget* parent)
    : QWidget(parent)
    , m_title(title) {
    setMinimumSize(160, 120);
}

void CdfChart::setSeries(std::vector<CdfSeries> series, double sloSeconds) {
    m_series = std::move(series);
    m_slo = sloSeconds;
    // The axis reaches the p99 of the widest run (tails would squeeze the rest) and the SLO.
    double reach = sloSeconds > 0 ? sloSeconds * 1.1 : 0;
    for (const CdfSeries& s : m_series)
        if (!s.sorted.empty())
            reach = std::max(reach, s.sorted[size_t(double(s.sorted.size() - 1) * 0.99)]);
    m_xMax = niceCeiling(reach);
    update();
}

void CdfChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    const QFontMetrics metrics(font());
    const int line = metrics.height();
    // Margins from the labels they hold: "100%" on the left, half the last time label on the
    // right (it is centred on the plot's edge, so half of "200 ms" lies past it).
    const QString last = latencyText(m_xMax);
    const int left = metrics.horizontalAdvance(QStringLiteral("100%")) + 8;
    const int right = metrics.horizontalAdvance(last) / 2 + 6;
    const QRect plot = rect().adjusted(left, line + 6, -right, -line - 8);
    if (plot.width() < 10 || plot.height() < 10)
        return;
    const QColor text = palette().color(QPalette::Text);
    painter.setPen(text);
    painter.drawText(QRect(0, 2, width(), line), Qt::AlignHCenter, m_title);
    painter.drawRect(plot);
    // Time labels at the quarters, or at the halves when the quarters' labels would touch.
    int widest = 0;
    for (int i = 0; i <= 4; ++i)
        widest = std::max(widest, metrics.horizontalAdvance(latencyText(m_xMax * i / 4)));
    const int every = plot.width() / 4 >= widest + 8 ? 1 : 2;
    for (int i = 0; i <= 4; ++i) {
        const int y = plot.bottom() - plot.height() * i / 4;
        painter.drawText(QRect(0, y - line / 2, plot.left() - 4, line), Qt::AlignRight,
                         QString::number(i * 25) + QLatin1Char('%'));
        if (i % every != 0)
            continue;
        const int x = plot.left() + plot.width() * i / 4;
        painter.drawText(QRect(x - widest, plot.bottom() + 3, 2 * widest, line), Qt::AlignHCenter,
                         latencyText(m_xMax * i / 4));
    }
    painter.setRenderHint(QPainter::Antialiasing);
    int legendY = plot.top() + 4;
    for (const CdfSeries& s : m_series) {
        QPainterPath path;
        bool first = true;
        for (const auto& [column, fraction] : cdfPolyline(s.sorted, m_xMax, plot.width())) {
            const QPointF p(plot.left() + column, plot.bottom() - fraction * plot.height());
            if (first)
                path.moveTo(p);
            else
                path.lineTo(p);
            first = false;
        }
        painter.setPen(QPen(s.color, 2));
        painter.drawPath(path);
        if (m_series.size() > 1 || !s.name.isEmpty()) {
            painter.drawText(QRect(plot.left() + 6, legendY, plot.width() - 12, line),
                             Qt::AlignLeft, s.name);
            legendY += line;
        }
    }
    if (m_slo > 0 && m_slo <= m_xMax) {
        const double x = plot.left() + plot.width() * m_slo / m_xMax;
        painter.setPen(QPen(QColor(0xc6, 0x28, 0x28), 1.5, Qt::DashLine));
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        painter.drawText(QPointF(x + 4, plot.bottom() - 6),
                         QStringLiteral("SLO ") + latencyText(m_slo));
    }
}

} // namespace astrolabe::widgets
