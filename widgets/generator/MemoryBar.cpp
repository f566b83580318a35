#include "generator/MemoryBar.h"

#include <QPainter>
#include <algorithm>

namespace astrolabe::widgets {

namespace {

QString gib(double bytes) {
    return QString::number(bytes / (1024.0 * 1024.0 * 1024.0), 'f', 1) + QStringLiteral(" GiB");
}

} // namespace

MemoryBar::MemoryBar(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void MemoryBar::setMemory(double weights, double gradients, double optimizer, double activations,
                          double capacity) {
    // Colour-blind-safe palette (Okabe-Ito).
    m_segments = {{tr("weights"), weights, QColor(0x00, 0x72, 0xB2)},
                  {tr("gradients"), gradients, QColor(0x56, 0xB4, 0xE9)},
                  {tr("optimizer"), optimizer, QColor(0xE6, 0x9F, 0x00)},
                  {tr("activations"), activations, QColor(0x00, 0x9E, 0x73)}};
    m_capacity = capacity;
    setToolTip(tr("%1 of %2 HBM per NPU").arg(gib(total()), gib(capacity)));
    update();
}

void MemoryBar::clear() {
    m_segments.clear();
    m_capacity = 0;
    update();
}

double MemoryBar::total() const {
    double sum = 0;
    for (const Segment& s : m_segments)
        sum += s.bytes;
    return sum;
}

QSize MemoryBar::sizeHint() const {
    return {400, 3 * fontMetrics().height() + 8};
}
QSize MemoryBar::minimumSizeHint() const {
    return {200, 3 * fontMetrics().height() + 8};
}

void MemoryBar::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const int line = fontMetrics().height();
    const QRectF bar(1, 1, width() - 2, line + 4);
    p.fillRect(bar, palette().base());
    p.setPen(palette().mid().color());
    p.drawRect(bar);
    const double scale = std::max(total(), m_capacity);
    if (scale <= 0)
        return;
    double x = bar.left();
    for (const Segment& s : m_segments) {
        const double w = bar.width() * s.bytes / scale;
        p.fillRect(QRectF(x, bar.top(), w, bar.height()), s.color);
        x += w;
    }
    // The capacity line: red when the stack goes past it.
    const double cx = bar.left() + bar.width() * m_capacity / scale;
    p.setPen(QPen(total() > m_capacity ? QColor(0xB0, 0x00, 0x20) : palette().text().color(), 2));
    p.drawLine(QPointF(cx, 0), QPointF(cx, bar.bottom() + 2));

    // Legend on the line below: a swatch and "label 1.2 GiB" per category.
    int lx = 2;
    const int ly = int(bar.bottom()) + 6;
    p.setPen(palette().text().color());
    for (const Segment& s : m_segments) {
        p.fillRect(QRect(lx, ly + 2, line - 4, line - 4), s.color);
        const QString text = s.label + QLatin1Char(' ') + gib(s.bytes);
        p.drawText(QPoint(lx + line, ly + fontMetrics().ascent()), text);
        lx += line + fontMetrics().horizontalAdvance(text) + 14;
    }
    p.drawText(QPoint(lx, ly + fontMetrics().ascent()), tr("| HBM %1").arg(gib(m_capacity)));
}

} // namespace astrolabe::widgets
