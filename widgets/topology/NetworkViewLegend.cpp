// The network drawing's legend (one line per dimension, the memory tier, the size) and its
// hover box; the rest of NetworkView is in NetworkView.cpp.
#include "common/InterfaceScale.h"
#include "topology/DimensionColors.h"
#include "topology/MemoryTierPainter.h"
#include "topology/NetworkView.h"
#include "topology/UnitChoices.h"

#include <QPainter>
#include <QStringList>
#include <algorithm>

namespace astrolabe::widgets {

namespace {
// The legend repeats the stack's red marker, so the drawing never looks valid when it is not.
bool isInvalid(const DimensionSpec& d) {
    return d.size < 2 || !(d.bandwidthBytesPerSecond > 0);
}
} // namespace

NetworkView::LegendText NetworkView::legendText() const {
    LegendText t;
    for (int d = 0; d < m_layout.dimensionCount(); ++d) {
        const DimensionSpec& dim = m_platform.dimensions[static_cast<size_t>(d)];
        t.lines << QStringLiteral("d%1  %2 \u00d7%3  %4, %5 ns")
                           .arg(d)
                           .arg(QLatin1String(blockKindName(dim.kind)))
                           .arg(dim.size)
                           .arg(describeBandwidth(dim.bandwidthBytesPerSecond))
                           .arg(dim.latencyNs) +
                       (isInvalid(dim) ? QStringLiteral("  \u26a0") : QString());
    }
    t.dimensionLines = static_cast<int>(t.lines.size());
    if (m_tier.present())
        t.lines << QStringLiteral("mem  %1").arg(
            memoryTierSummary(m_tier.memory(), m_layout.npuCount()));
    t.footer = tr("%L1 NPUs").arg(m_layout.npuCount());
    if (!m_graph.empty())
        t.footer = tr("graph: %L1 NPUs, %L2 switches, %L3 links")
                       .arg(m_graph.npuCount())
                       .arg(m_graph.deviceCount() - m_graph.npuCount())
                       .arg(m_graph.segments().size());
    // The fit asks for the legend before the collapse level follows a new platform: a level
    // the layout no longer has is no tiling.
    if (m_state.collapseLevel >= 1 && m_state.collapseLevel <= m_layout.dimensionCount())
        t.footer += tr(" \u2014 tiles of %L1 NPUs, zoom in for detail")
                        .arg(m_layout.level(m_state.collapseLevel).npusPerGroup);
    return t;
}

int NetworkView::legendTextWidth(const LegendText& t, const QFont& font) {
    // A selected row is drawn bold: measured bold, so that its end ("936.25 ns") is not cut.
    QFont boldFont = font;
    boldFont.setBold(true);
    const QFontMetrics bold(boldFont);
    int w = 0;
    for (const QString& l : t.lines)
        w = std::max(w, bold.horizontalAdvance(l));
    return std::max(w + 20, QFontMetrics(font).horizontalAdvance(t.footer));
}

QRect NetworkView::legendBox(const LegendText& t, const QFont& font) {
    const int lineH = QFontMetrics(font).height() + 2;
    return QRect(8, 8, legendTextWidth(t, font) + 16,
                 lineH * (static_cast<int>(t.lines.size()) + 1) + 10);
}

void NetworkView::paintLegend(QPainter& p) {
    const LegendText text = legendText();
    const QStringList& lines = text.lines;
    const int dimensionLines = text.dimensionLines;
    const QString& footer = text.footer;
    const QFontMetrics fm(p.font());
    const int w = legendTextWidth(text, p.font());
    const int lineH = fm.height() + 2;
    const QRect box = legendBox(text, p.font());
    p.setPen(InterfaceScale::pick(QColor(0xd0, 0xd4, 0xd8), Qt::black));
    p.setBrush(QColor(255, 255, 255, 225));
    p.drawRoundedRect(box, 6, 6);
    m_legendRows.clear();
    m_memoryLegendRow = QRect();
    for (int i = 0; i < lines.size(); ++i) {
        const int y = box.top() + 6 + i * lineH;
        const bool memory = i >= dimensionLines;
        if (memory)
            m_memoryLegendRow = QRect(box.left(), y, box.width(), lineH);
        else
            m_legendRows.emplace_back(box.left(), y, box.width(), lineH);
        const bool selected = memory ? m_memorySelected : i == m_state.selectedDimension;
        p.fillRect(QRect(box.left() + 8, y + 3, 12, lineH - 6),
                   memory ? memoryTierColor() : dimensionColor(i));
        QFont f = p.font();
        f.setBold(selected);
        p.setFont(f);
        const bool invalid = !memory && isInvalid(m_platform.dimensions[static_cast<size_t>(i)]);
        p.setPen(invalid ? QColor(0xc0, 0x39, 0x2b)
                         : InterfaceScale::pick(QColor(0x2c, 0x3e, 0x50), Qt::black));
        p.drawText(QRect(box.left() + 26, y, w, lineH), Qt::AlignVCenter, lines[i]);
    }
    QFont f = p.font();
    f.setBold(false);
    p.setFont(f);
    p.setPen(InterfaceScale::pick(QColor(0x7f, 0x8c, 0x8d), Qt::black));
    p.drawText(
        QRect(box.left() + 8, box.top() + 6 + static_cast<int>(lines.size()) * lineH, w, lineH),
        Qt::AlignVCenter, footer);
}

void NetworkView::paintInfo(QPainter& p, const QString& text) const {
    const QFontMetrics fm(p.font());
    const QRect bounds = fm.boundingRect(QRect(0, 0, width() - 40, 1000), Qt::TextWordWrap, text);
    // Top-right, in the strip the fit leaves free for the legend; bottom-left if that is narrow.
    QRect box(width() - bounds.width() - 24, 8, bounds.width() + 16, bounds.height() + 12);
    const int legendRight = m_legendRows.empty() ? 0 : m_legendRows.front().right();
    if (box.left() < legendRight + 8)
        box.moveTo(8, height() - box.height() - 8);
    p.setPen(QColor(0xd0, 0xd4, 0xd8));
    p.setBrush(QColor(255, 255, 240, 235));
    p.drawRoundedRect(box, 6, 6);
    p.setPen(QColor(0x2c, 0x3e, 0x50));
    p.drawText(box.adjusted(8, 6, -8, -6), Qt::TextWordWrap, text);
}

} // namespace astrolabe::widgets
