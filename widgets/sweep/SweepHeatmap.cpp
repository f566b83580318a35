#include "sweep/SweepHeatmap.h"

#include "core/Units.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {
namespace {

constexpr double kLegendWidth = 18;
constexpr double kGap = 8;

units::Scale timeScaleOf(const HeatmapData& data) {
    return units::timeScale(data.maxPs().value_or(1));
}

QString scaled(double ps, units::Scale scale, int digits = 4) {
    return QString::fromStdString(units::formatPlain(ps / scale.factor, digits));
}

} // namespace

QColor heatmapColor(double fraction) {
    const double t = std::clamp(fraction, 0.0, 1.0);
    // Green (good) -> yellow -> red (bad), light enough for black text in every cell.
    const QColor low(0x4c, 0xaf, 0x50), mid(0xff, 0xe0, 0x66), high(0xe5, 0x48, 0x3c);
    const auto mix = [](const QColor& a, const QColor& b, double s) {
        return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * s),
                                static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * s),
                                static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * s));
    };
    return t < 0.5 ? mix(low, mid, t * 2) : mix(mid, high, (t - 0.5) * 2);
}

double heatmapFraction(double value, double min, double max) {
    return max > min ? (value - min) / (max - min) : 0.0;
}

QRectF heatmapCellRect(const QRectF& plot, int columns, int rows, int column, int row) {
    const double w = plot.width() / std::max(columns, 1);
    const double h = plot.height() / std::max(rows, 1);
    return {plot.left() + column * w, plot.top() + row * h, w, h};
}

std::optional<QPoint> heatmapCellAt(const QRectF& plot, int columns, int rows, QPointF point) {
    if (columns <= 0 || rows <= 0 || !plot.contains(point))
        return std::nullopt;
    const int column = std::min(
        columns - 1, static_cast<int>((point.x() - plot.left()) / (plot.width() / columns)));
    const int row =
        std::min(rows - 1, static_cast<int>((point.y() - plot.top()) / (plot.height() / rows)));
    return QPoint(column, row);
}

SweepHeatmap::SweepHeatmap(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(true);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void SweepHeatmap::setData(HeatmapData data) {
    m_data = std::move(data);
    update();
}

QRectF SweepHeatmap::plotRect() const {
    const QFontMetrics fm(font());
    double yLabels = fm.horizontalAdvance(QString::fromStdString(m_data.yName));
    for (const std::string& v : m_data.yValues)
        yLabels = std::max<double>(yLabels, fm.horizontalAdvance(QString::fromStdString(v)));
    const double legendLabels = fm.horizontalAdvance(QStringLiteral("0000.0 ms"));
    const double left = kGap + yLabels + kGap;
    const double top = kGap + fm.height() + kGap;        // title
    const double bottom = kGap + 2 * fm.height() + kGap; // x labels, x axis name
    const double right = kGap + kLegendWidth + 4 + legendLabels + kGap;
    return QRectF(left, top, std::max(10.0, width() - left - right),
                  std::max(10.0, height() - top - bottom));
}

QString SweepHeatmap::cellText(int column, int row) const {
    const std::optional<double> ps =
        m_data.at(static_cast<size_t>(column), static_cast<size_t>(row));
    if (!ps)
        return {};
    const QString text = scaled(*ps, timeScaleOf(m_data));
    const QRectF cell = heatmapCellRect(plotRect(), static_cast<int>(m_data.xValues.size()),
                                        static_cast<int>(m_data.yValues.size()), column, row);
    const QFontMetrics fm(font());
    return fm.horizontalAdvance(text) + 4 <= cell.width() && fm.height() <= cell.height()
               ? text
               : QString();
}

void SweepHeatmap::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QFontMetrics fm(font());
    const int columns = static_cast<int>(m_data.xValues.size());
    const int rows = static_cast<int>(m_data.yValues.size());
    if (columns == 0 || rows == 0) {
        painter.drawText(rect(), Qt::AlignCenter, tr("No points to show yet"));
        return;
    }
    const QRectF plot = plotRect();
    const units::Scale scale = timeScaleOf(m_data);
    const QString xName = QString::fromStdString(m_data.xName);
    const QString yName = QString::fromStdString(m_data.yName);
    QString title = m_data.minPs()
                        ? tr("End time (%1) by %2 and %3")
                              .arg(QString::fromUtf8(scale.symbol.data(),
                                                     static_cast<int>(scale.symbol.size())),
                                   xName, yName)
                        : tr("End time by %1 and %2: no point finished yet").arg(xName, yName);
    if (m_data.sharedCells > 0)
        title += tr(" - shortest over the other axes");
    painter.drawText(QRectF(0, kGap, width(), fm.height()), Qt::AlignHCenter, title);
    const double min = m_data.minPs().value_or(0), max = m_data.maxPs().value_or(0);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c) {
            const QRectF cell = heatmapCellRect(plot, columns, rows, c, r);
            const std::optional<double> ps =
                m_data.at(static_cast<size_t>(c), static_cast<size_t>(r));
            painter.fillRect(cell, ps ? heatmapColor(heatmapFraction(*ps, min, max))
                                      : QColor(0xe0, 0xe0, 0xe0));
            painter.setPen(QColor(0xff, 0xff, 0xff));
            painter.drawRect(cell);
            if (const QString text = cellText(c, r); !text.isEmpty()) {
                painter.setPen(Qt::black);
                painter.drawText(cell, Qt::AlignCenter, text);
            }
        }
    painter.setPen(palette().color(QPalette::WindowText));
    // Column labels under the grid; every n-th when they would overlap.
    double widest = 0;
    for (const std::string& v : m_data.xValues)
        widest = std::max<double>(widest, fm.horizontalAdvance(QString::fromStdString(v)));
    const double columnWidth = plot.width() / columns;
    const int every = std::max(1, static_cast<int>(std::ceil((widest + 6) / columnWidth)));
    for (int c = 0; c < columns; c += every) {
        const QRectF cell = heatmapCellRect(plot, columns, rows, c, 0);
        painter.drawText(
            QRectF(cell.center().x() - widest, plot.bottom() + 2, 2 * widest, fm.height()),
            Qt::AlignHCenter | Qt::AlignTop,
            QString::fromStdString(m_data.xValues[static_cast<size_t>(c)]));
    }
    painter.drawText(
        QRectF(plot.left(), plot.bottom() + 2 + fm.height(), plot.width(), fm.height()),
        Qt::AlignHCenter, QString::fromStdString(m_data.xName));
    const double rowHeight = plot.height() / rows;
    const int everyRow = std::max(1, static_cast<int>(std::ceil(fm.height() / rowHeight)));
    for (int r = 0; r < rows; r += everyRow) {
        const QRectF cell = heatmapCellRect(plot, columns, rows, 0, r);
        painter.drawText(QRectF(0, cell.top(), plot.left() - kGap, cell.height()),
                         Qt::AlignRight | Qt::AlignVCenter,
                         QString::fromStdString(m_data.yValues[static_cast<size_t>(r)]));
    }
    // The y axis's name above its labels.
    painter.drawText(QRectF(0, plot.top() - fm.height() - 2, plot.left() - kGap, fm.height()),
                     Qt::AlignRight | Qt::AlignBottom, QString::fromStdString(m_data.yName));
    paintLegend(painter, plot);
}

void SweepHeatmap::paintLegend(QPainter& painter, const QRectF& plot) const {
    const std::optional<double> min = m_data.minPs(), max = m_data.maxPs();
    if (!min)
        return;
    const QFontMetrics fm(font());
    const QRectF bar(plot.right() + kGap, plot.top(), kLegendWidth, plot.height());
    const int steps = std::max(2, static_cast<int>(bar.height()));
    for (int i = 0; i < steps; ++i) // top: longest end time
        painter.fillRect(QRectF(bar.left(), bar.top() + i * bar.height() / steps, bar.width(),
                                bar.height() / steps + 1),
                         heatmapColor(1.0 - static_cast<double>(i) / (steps - 1)));
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawRect(bar);
    const units::Scale scale = timeScaleOf(m_data);
    const QString unit =
        QString::fromUtf8(scale.symbol.data(), static_cast<int>(scale.symbol.size()));
    const double x = bar.right() + 4;
    painter.drawText(QPointF(x, bar.top() + fm.ascent()),
                     scaled(*max, scale) + QLatin1Char(' ') + unit);
    painter.drawText(QPointF(x, bar.bottom()), scaled(*min, scale) + QLatin1Char(' ') + unit);
}

bool SweepHeatmap::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const auto cell = heatmapCellAt(plotRect(), static_cast<int>(m_data.xValues.size()),
                                    static_cast<int>(m_data.yValues.size()), help->pos());
    if (!cell) {
        QToolTip::hideText();
        return true;
    }
    const size_t c = static_cast<size_t>(cell->x()), r = static_cast<size_t>(cell->y());
    const std::optional<double> ps = m_data.at(c, r);
    QString text =
        QStringLiteral("%1 = %2, %3 = %4: ")
            .arg(QString::fromStdString(m_data.xName), QString::fromStdString(m_data.xValues[c]),
                 QString::fromStdString(m_data.yName), QString::fromStdString(m_data.yValues[r]));
    text += ps ? QString::fromStdString(
                     units::formatTime(SimTime::fromPsRounded(*ps), units::TimeSpelling::MicroSign))
               : tr("not finished");
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

} // namespace astrolabe::widgets
