#include "utilization/HeatmapWidget.h"

#include "common/InterfaceScale.h"
#include "utilization/UtilizationData.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

namespace {
// Margins for the title, axis names and colour scale, at 100 %: the interface scale multiplies
// them (and every text box below) so that larger text still fits.
int px(int pixels) {
    return InterfaceScale::px(pixels);
}
} // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(true);
    InterfaceScale::followMinimumSize(this, {240, 160});
    m_format = [](float v) { return QString::number(static_cast<double>(v), 'g', 3); };
}

void HeatmapWidget::setGrid(std::vector<float> values, int rows, int cols, float maxValue) {
    m_values = std::move(values);
    m_rows = rows;
    m_cols = cols;
    float top = maxValue;
    if (top <= 0)
        for (float v : m_values)
            top = std::max(top, v);
    m_max = top > 0 ? top : 1;
    m_imageFor = {};
    update();
}

void HeatmapWidget::setTitles(const QString& title, const QString& rowAxis,
                              const QString& columnAxis) {
    m_title = title;
    m_rowAxis = rowAxis;
    m_columnAxis = columnAxis;
    update();
}

void HeatmapWidget::setCellText(std::function<QString(int, int, float)> text) {
    m_cellText = std::move(text);
}

void HeatmapWidget::setValueFormat(std::function<QString(float)> format) {
    m_format = std::move(format);
    update();
}

QRect HeatmapWidget::plotRect() const {
    const int left = px(56), top = px(24), right = px(84), bottom = px(34);
    return QRect(left, top, std::max(1, width() - left - right),
                 std::max(1, height() - top - bottom));
}

QRgb HeatmapWidget::colorFor(float t) {
    // Five stops of viridis, linearly interpolated: perceptually ordered, colour-blind safe.
    static const int stops[5][3] = {
        {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    const float x = std::clamp(t, 0.0f, 1.0f) * 4.0f;
    const int i = std::min(static_cast<int>(x), 3);
    const float f = x - static_cast<float>(i);
    const auto mix = [&](int k) {
        return static_cast<int>(std::lround(stops[i][k] + f * (stops[i + 1][k] - stops[i][k])));
    };
    return qRgb(mix(0), mix(1), mix(2));
}

void HeatmapWidget::rebuildImage(QSize plotSize) {
    m_imageFor = plotSize;
    if (m_rows <= 0 || m_cols <= 0) {
        m_image = {};
        return;
    }
    const int outRows = std::min(m_rows, plotSize.height());
    const int outCols = std::min(m_cols, plotSize.width());
    const std::vector<float> cells = aggregateMax(m_values, m_rows, m_cols, outRows, outCols);
    m_image = QImage(outCols, outRows, QImage::Format_RGB32);
    for (int r = 0; r < outRows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(r));
        for (int c = 0; c < outCols; ++c)
            line[c] = colorFor(cells[static_cast<size_t>(r) * outCols + c] / m_max);
    }
}

void HeatmapWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    const QRect plot = plotRect();
    if (m_imageFor != plot.size())
        rebuildImage(plot.size());
    painter.setPen(Qt::black);
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.drawText(QRect(0, 0, width(), px(24)), Qt::AlignCenter, m_title);
    painter.setFont(font());
    if (m_image.isNull()) {
        painter.drawText(plot, Qt::AlignCenter, tr("no data"));
        return;
    }
    painter.drawImage(plot, m_image);
    painter.setPen(QColor(0x88, 0x88, 0x88));
    painter.drawRect(plot.adjusted(0, 0, -1, -1));
    painter.setPen(Qt::black);
    // Axis names and extents.
    painter.drawText(QRect(plot.left(), plot.bottom() + 2, plot.width(), px(32)),
                     Qt::AlignHCenter | Qt::AlignTop, m_columnAxis);
    painter.drawText(QRect(plot.left(), plot.bottom() + 2, px(60), px(16)), Qt::AlignLeft,
                     QStringLiteral("0"));
    painter.drawText(QRect(plot.right() - px(80), plot.bottom() + 2, px(80), px(16)),
                     Qt::AlignRight, QString::number(m_cols - 1));
    painter.save();
    painter.translate(px(14), plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRect(-plot.height() / 2, -px(12), plot.height(), px(16)), Qt::AlignCenter,
                     m_rowAxis);
    painter.restore();
    painter.drawText(QRect(px(20), plot.top(), px(32), px(16)), Qt::AlignRight,
                     QStringLiteral("0"));
    painter.drawText(QRect(px(20), plot.bottom() - px(16), px(32), px(16)), Qt::AlignRight,
                     QString::number(m_rows - 1));
    // Colour scale.
    const QRect scale(plot.right() + px(12), plot.top(), px(14), plot.height());
    for (int y = 0; y < scale.height(); ++y)
        painter.fillRect(QRect(scale.left(), scale.bottom() - y, scale.width(), 1),
                         QColor(colorFor(static_cast<float>(y) / std::max(1, scale.height() - 1))));
    painter.drawText(QRect(scale.right() + 3, scale.top(), px(84), px(16)), Qt::AlignLeft,
                     m_format(m_max));
    painter.drawText(QRect(scale.right() + 3, scale.bottom() - px(16), px(84), px(16)),
                     Qt::AlignLeft, m_format(0));
}

QPoint HeatmapWidget::cellAt(QPoint pos) const {
    const QRect plot = plotRect();
    if (!plot.contains(pos) || m_rows <= 0 || m_cols <= 0)
        return {-1, -1};
    const int col =
        static_cast<int>(static_cast<int64_t>(pos.x() - plot.left()) * m_cols / plot.width());
    const int row =
        static_cast<int>(static_cast<int64_t>(pos.y() - plot.top()) * m_rows / plot.height());
    return {std::min(col, m_cols - 1), std::min(row, m_rows - 1)};
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* event) {
    const QPoint cell = cellAt(event->position().toPoint());
    if (cell.x() < 0) {
        QToolTip::hideText();
        return;
    }
    const float v = m_values[static_cast<size_t>(cell.y()) * m_cols + cell.x()];
    const QString text =
        m_cellText
            ? m_cellText(cell.y(), cell.x(), v)
            : QStringLiteral("row %1, column %2: %3").arg(cell.y()).arg(cell.x()).arg(m_format(v));
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace astrolabe::widgets
