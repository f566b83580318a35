#include "timeline/TimelineRenderer.h"

#include "common/InterfaceScale.h"
#include "timeline/ColorKey.h"
#include "timeline/MemoryTrack.h"
#include "timeline/TimeAxis.h"
#include "timeline/TimelinePalette.h"
#include "timeline/TimelineSource.h"

#include <QFontMetrics>
#include <QImage>
#include <QPaintEngine>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <utility>

namespace astrolabe::widgets {

namespace {

/// The pixel columns [c0, c1) a bar from x = a to x = b fills: rounded edges, one pixel left
/// free before the next bar when the bar is wider than 4 px, and at least one column.
std::pair<int, int> barColumns(double a, double b) {
    int c0 = static_cast<int>(std::lround(a));
    int c1 = static_cast<int>(std::lround(b)) - (b - a > 4 ? 1 : 0);
    if (c1 <= c0) {
        c0 = static_cast<int>(std::floor(a));
        c1 = c0 + 1;
    }
    return {c0, c1};
}
constexpr QRgb kRowShade = qRgb(0xf7, 0xf7, 0xf9);
constexpr QRgb kGroupShade = qRgb(0xe9, 0xed, 0xf3);
} // namespace

QRect TimelineRenderer::laneRect(const TimelinePaintState& state, int displayRow, Lane lane) {
    const DisplayRow& row = state.layout->rows().at(static_cast<size_t>(displayRow));
    const int top = state.axisHeight + row.top - state.scrollY;
    const LaneBand band = laneBand(top, row.height, lane);
    return QRect(state.labelWidth, band.top, state.size.width() - state.labelWidth, band.height);
}

void TimelineRenderer::paint(QPainter& painter, const TimelinePaintState& state) {
    painter.save();
    painter.fillRect(QRect(QPoint(0, 0), state.size), Qt::white);
    if (!state.source || !state.layout || state.layout->rows().empty()) {
        painter.setPen(Qt::darkGray);
        painter.drawText(QRect(QPoint(0, 0), state.size), Qt::AlignCenter,
                         QStringLiteral("No run loaded"));
        painter.restore();
        return;
    }
    const int plotTop = state.axisHeight;
    const int firstRow = std::max(0, state.layout->rowAt(state.scrollY));
    int lastRow = state.layout->rowAt(state.scrollY + state.size.height() - plotTop - 1);
    if (lastRow < 0)
        lastRow = static_cast<int>(state.layout->rows().size()) - 1;

    painter.setClipRect(QRect(state.labelWidth, plotTop, state.size.width() - state.labelWidth,
                              state.size.height() - plotTop));
    // Grid first so that bars cover it.
    const std::vector<TimeTick> ticks = timeTicks(state.mapper, InterfaceScale::px(90));
    painter.setPen(QColor(0xdd, 0xdd, 0xdd));
    for (const TimeTick& tick : ticks)
        painter.drawLine(QPointF(tick.x, plotTop), QPointF(tick.x, state.size.height()));
    for (int row = firstRow; row <= lastRow; ++row)
        paintRow(painter, state, row);
    // The selection ring is dashed and keeps a pixel of air from the bar, so that it never
    // reads as the critical-path outline, which is solid and hugs the bar.
    paintMark(painter, state, state.selection,
              QPen(TimelinePalette::selection(), 2.0, Qt::DashLine), 3.0);
    paintMark(painter, state, state.hover, QPen(QColor(0x33, 0x33, 0x33), 1.0), 1.0);
    if (!state.rubberBand.isNull()) {
        painter.setPen(QPen(QColor(0x30, 0x60, 0xc0), 1));
        painter.setBrush(QColor(0x30, 0x60, 0xc0, 40));
        painter.drawRect(state.rubberBand);
    }
    painter.setClipping(false);
    paintLabels(painter, state, firstRow, lastRow);
    paintAxis(painter, state);
    painter.restore();
}

void TimelineRenderer::paintRow(QPainter& painter, const TimelinePaintState& state,
                                int displayRow) {
    const DisplayRow& row = state.layout->rows()[static_cast<size_t>(displayRow)];
    const int top = state.axisHeight + row.top - state.scrollY;
    const int left = state.labelWidth;
    const int width = state.size.width() - left;
    if (row.kind == DisplayRow::Kind::Group && !row.collapsed) {
        painter.fillRect(QRect(left, top, width, row.height), QColor(kGroupShade));
        return;
    }
    if (displayRow % 2)
        painter.fillRect(QRect(left, top, width, row.height), QColor(kRowShade));
    RowGeometry& geometry = state.cache->row(*state.source, *state.layout, displayRow, state.mapper,
                                             *state.overlay, state.overlayVersion);
    const LaneBand work = laneBand(top, row.height, Lane::Work);
    const LaneBand comm = laneBand(top, row.height, Lane::Communication);
    const LaneBand phase = laneBand(top, row.height, Lane::Phase);
    const qreal x0 =
        state.mapper.timeToX(std::max<int64_t>(state.source->beginPs(), state.mapper.t0()));
    if (row.kind == DisplayRow::Kind::Group) {
        // Density strip: the fraction of the group's NPU-time busy, per pixel column.
        const int w = geometry.densityWidth;
        if (w <= 0)
            return;
        QImage image(w, 2, QImage::Format_ARGB32_Premultiplied);
        const QColor colors[2] = {
            TimelinePalette::color(colorkey::Compute),
            TimelinePalette::color(colorkey::forCollective(CollectiveType::AllReduce))};
        for (int lane = 0; lane < 2; ++lane) {
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(lane));
            for (int c = 0; c < w; ++c) {
                const int a = geometry.density[static_cast<size_t>(lane * w + c)];
                const QColor& base = colors[lane];
                // Blend over the idle colour so "busy 0%" reads as idle, not as blank.
                const QColor idle = TimelinePalette::idle();
                const int r = (base.red() * a + idle.red() * (255 - a)) / 255;
                const int g = (base.green() * a + idle.green() * (255 - a)) / 255;
                const int b = (base.blue() * a + idle.blue() * (255 - a)) / 255;
                line[c] = qRgb(r, g, b);
            }
        }
        const qreal finish = geometry.finishX;
        painter.drawImage(QRectF(left, work.top, finish - left, work.height), image,
                          QRectF(0, 0, finish - left, 1));
        painter.drawImage(QRectF(left, comm.top, finish - left, comm.height), image,
                          QRectF(0, 1, finish - left, 1));
        return;
    }
    const bool vector = painter.paintEngine() && painter.paintEngine()->type() == QPaintEngine::SVG;
    if (vector) {
        paintRunsAsRects(painter, geometry, x0, work, comm, phase);
    } else {
        const int w = std::max(1, static_cast<int>(std::ceil(state.mapper.width())));
        if (geometry.stripWidth != w)
            rasterize(geometry, w, state.mapper.left(), x0);
        const QImage strip(reinterpret_cast<const uchar*>(geometry.strip.data()), w, kLaneCount,
                           w * 4, QImage::Format_ARGB32_Premultiplied);
        const LaneBand bands[] = {work, comm, phase};
        for (int lane = 0; lane < kLaneCount; ++lane)
            painter.drawImage(QRectF(left, bands[lane].top, w, bands[lane].height), strip,
                              QRectF(0, lane, w, 1));
    }
    for (const TimelineRun& run : geometry.overlays) {
        const LaneBand& band = run.lane == 0 ? work : comm;
        if (run.key == colorkey::Critical) {
            paintCriticalOutline(painter, run, state.mapper.left(), band);
            continue;
        }
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(TimelinePalette::color(run.key), 1.5, Qt::DotLine));
        painter.drawRect(
            QRectF(run.x0, band.top - 0.5, std::max(run.x1 - run.x0, 1.0f), band.height + 1));
    }
    if (const uint64_t scale = state.source->memoryScaleBytes(); scale > 0) {
        const QPolygonF line =
            memoryTrackLine(state.source->memoryUsage(row.firstNpu), scale, state.mapper,
                            state.source->endPs(), top + 2, std::max(1, row.height - 4));
        if (!line.isEmpty()) {
            painter.setBrush(Qt::NoBrush);
            painter.setPen(QPen(TimelinePalette::memoryLine(), 1.5));
            painter.drawPolyline(line);
        }
    }
}

void TimelineRenderer::paintCriticalOutline(QPainter& painter, const TimelineRun& run, qreal left,
                                            const LaneBand& band) {
    // The columns rasterize() fills for this run, so that the outline sits on the bar's edge:
    // one pixel outside, one inside, and the activity's own colour stays visible within.
    const double a = run.x0 - left;
    const double b = run.x1 - left;
    auto [c0, c1] = barColumns(a, b);
    const qreal x0 = left + c0;
    const qreal x1 = left + c1;
    const QColor color = TimelinePalette::criticalOutline();
    // Thicker in presentation mode, as the rows are taller.
    const int w = InterfaceScale::px(kCriticalOutlineWidth);
    const int t = w / 2;
    painter.fillRect(QRectF(x0 - t, band.top - t, x1 - x0 + 2 * t, w), color);
    painter.fillRect(QRectF(x0 - t, band.top + band.height - t, x1 - x0 + 2 * t, w), color);
    // Narrow bars get the top and bottom edges only: side edges would cover their colour.
    if (c1 - c0 >= 3 * w) {
        painter.fillRect(QRectF(x0 - t, band.top, w, band.height), color);
        painter.fillRect(QRectF(x1 - t, band.top, w, band.height), color);
    }
}

void TimelineRenderer::paintRunsAsRects(QPainter& painter, const RowGeometry& geometry, qreal x0,
                                        const LaneBand& work, const LaneBand& comm,
                                        const LaneBand& phase) {
    // Idle: the time before the NPU finished that no bar covers.
    if (geometry.finishX > x0) {
        painter.fillRect(QRectF(x0, work.top, geometry.finishX - x0, work.height),
                         TimelinePalette::idle());
        painter.fillRect(QRectF(x0, comm.top, geometry.finishX - x0, comm.height),
                         TimelinePalette::idle());
    }
    for (const TimelineRun& run : geometry.runs) {
        const LaneBand& band = run.lane == 0 ? work : run.lane == 1 ? comm : phase;
        // A one-pixel gap ends wide runs so that back-to-back items stay distinguishable.
        const float w = run.x1 - run.x0 > 4 ? run.x1 - run.x0 - 1 : run.x1 - run.x0;
        painter.fillRect(QRectF(run.x0, band.top, w, band.height), TimelinePalette::color(run.key));
    }
}

void TimelineRenderer::rasterize(RowGeometry& geometry, int width, qreal left, qreal x0) {
    // Same pixels as paintRunsAsRects: a run covers the columns its rounded ends span (at least
    // one), wide runs end one pixel early; idle up to the finish in the two activity lanes.
    geometry.stripWidth = width;
    geometry.strip.assign(static_cast<size_t>(width) * kLaneCount, 0u);
    const uint32_t idle = TimelinePalette::idle().rgba();
    const int idleFrom = std::clamp(static_cast<int>(std::lround(x0 - left)), 0, width);
    const int idleTo = std::clamp(static_cast<int>(std::lround(geometry.finishX - left)), 0, width);
    for (int lane = 0; lane < 2; ++lane)
        std::fill(geometry.strip.begin() + lane * width + idleFrom,
                  geometry.strip.begin() + lane * width + idleTo, idle);
    uint8_t lastKey = 0;
    uint32_t lastColor = TimelinePalette::color(0).rgba();
    for (const TimelineRun& run : geometry.runs) {
        if (run.key != lastKey) {
            lastKey = run.key;
            lastColor = TimelinePalette::color(run.key).rgba();
        }
        const double a = run.x0 - left;
        const double b = run.x1 - left;
        auto [c0, c1] = barColumns(a, b);
        c0 = std::clamp(c0, 0, width);
        c1 = std::clamp(c1, 0, width);
        uint32_t* line = geometry.strip.data() + static_cast<size_t>(run.lane) * width;
        std::fill(line + c0, line + c1, lastColor);
    }
}

void TimelineRenderer::paintMark(QPainter& painter, const TimelinePaintState& state,
                                 const TimelineMark& mark, const QPen& pen, qreal offset) {
    if (!mark.valid)
        return;
    const int displayRow = state.layout->rowOfNpu(mark.npu);
    if (displayRow < 0 || state.layout->rows()[displayRow].kind != DisplayRow::Kind::Npu)
        return;
    const QRect lane = laneRect(state, displayRow, mark.lane);
    const qreal x0 = state.mapper.timeToX(std::max(mark.startPs, state.mapper.t0()));
    const qreal x1 = state.mapper.timeToX(std::min(mark.endPs, state.mapper.t1()));
    if (x1 < state.labelWidth || x0 > state.size.width())
        return;
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(x0 - offset, lane.top() - offset, std::max(x1 - x0, 1.0) + 2 * offset,
                            lane.height() + 2 * offset));
}

void TimelineRenderer::paintLabels(QPainter& painter, const TimelinePaintState& state, int firstRow,
                                   int lastRow) {
    const int width = state.labelWidth;
    painter.fillRect(QRect(0, state.axisHeight, width, state.size.height()),
                     QColor(0xfa, 0xfa, 0xfa));
    painter.setClipRect(QRect(0, state.axisHeight, width, state.size.height() - state.axisHeight));
    QFont font = painter.font();
    for (int i = firstRow; i <= lastRow; ++i) {
        const DisplayRow& row = state.layout->rows()[static_cast<size_t>(i)];
        const int top = state.axisHeight + row.top - state.scrollY;
        const int indent = InterfaceScale::px(6 + row.depth * 12);
        QString text = QString::fromStdString(state.layout->label(row));
        const bool group = row.kind == DisplayRow::Kind::Group;
        if (group) {
            painter.fillRect(QRect(0, top, width, row.height), QColor(kGroupShade));
            text = (row.collapsed ? QStringLiteral("\u25b8 ") : QStringLiteral("\u25be ")) + text;
        }
        font.setBold(group);
        painter.setFont(font);
        painter.setPen(group ? QColor(0x22, 0x33, 0x55) : QColor(0x33, 0x33, 0x33));
        // Deep hierarchies indent far: a group that does not fit drops its "(16 NPUs)" before
        // being cut, so "node 0" stays readable ("node 0 (16 NPU" said neither well).
        const int room = width - indent - 4;
        const QFontMetrics metrics = painter.fontMetrics();
        if (group && metrics.elidedText(text, Qt::ElideRight, room) != text &&
            text.endsWith(QLatin1Char(')')))
            text = text.left(text.lastIndexOf(QStringLiteral(" ("))).trimmed();
        painter.drawText(QRect(indent, top, room, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                         metrics.elidedText(text, Qt::ElideRight, room));
    }
    font.setBold(false);
    painter.setFont(font);
    painter.setClipping(false);
    painter.setPen(QColor(0xbb, 0xbb, 0xbb));
    painter.drawLine(width - 1, state.axisHeight, width - 1, state.size.height());
}

void TimelineRenderer::paintAxis(QPainter& painter, const TimelinePaintState& state) {
    const int h = state.axisHeight;
    painter.fillRect(QRect(0, 0, state.size.width(), h), QColor(0xf0, 0xf0, 0xf0));
    painter.setPen(QColor(0x99, 0x99, 0x99));
    painter.drawLine(0, h - 1, state.size.width(), h - 1);
    painter.setPen(QColor(0x22, 0x22, 0x22));
    const TimeMapper& mapper = state.mapper;
    painter.drawText(QRect(6, 0, state.labelWidth - 8, h), Qt::AlignVCenter | Qt::AlignLeft,
                     QStringLiteral("span ") + QString::fromStdString(formatTime(mapper.spanPs())));
    painter.setClipRect(QRect(state.labelWidth, 0, state.size.width() - state.labelWidth, h));
    TickLabelPlacer labels(state.size.width());
    for (const TimeTick& tick : timeTicks(mapper, InterfaceScale::px(90))) {
        painter.drawLine(QPointF(tick.x, h - 6), QPointF(tick.x, h - 1));
        const QString label = QString::fromStdString(tick.label);
        const qreal textWidth = painter.fontMetrics().horizontalAdvance(label);
        const std::optional<double> left = labels.place(tick.x, textWidth);
        if (!left)
            continue;
        painter.drawText(QRectF(*left, 0, textWidth + 2, h - 4),
                         Qt::AlignBottom | (*left < tick.x ? Qt::AlignRight : Qt::AlignLeft),
                         label);
    }
    painter.setClipping(false);
}

} // namespace astrolabe::widgets
