#pragma once
// Paints the timeline from cached geometry onto any QPainter (the widget, a QImage for PNG
// export, a QSvgGenerator for SVG). Hover, selection and the rubber band are drawn live on top.

#include "timeline/RowLayout.h"
#include "timeline/TimeMapper.h"
#include "timeline/TimelineGeometry.h"

#include <QColor>
#include <QPen>
#include <QRect>
#include <QSize>

class QPainter;

namespace astrolabe::widgets {

class TimelineSource;

/// An interval drawn with an outline (hovered or selected).
struct TimelineMark {
    bool valid = false;
    int npu = -1;
    int64_t startPs = 0;
    int64_t endPs = 0;
    Lane lane = Lane::Work;
    bool operator==(const TimelineMark&) const = default;
};

struct TimelinePaintState {
    const TimelineSource* source = nullptr;
    const RowLayout* layout = nullptr;
    TimelineGeometryCache* cache = nullptr;
    const TimelineOverlay* overlay = nullptr;
    uint64_t overlayVersion = 0;
    TimeMapper mapper; ///< left = labelWidth, width = plot width
    QSize size;
    int scrollY = 0;
    int labelWidth = 150;
    int axisHeight = 30;
    TimelineMark hover;
    TimelineMark selection;
    QRect rubberBand;
};

class TimelineRenderer {
public:
    /// The critical path's outline: this many pixels, half outside the bar and half inside.
    static constexpr int kCriticalOutlineWidth = 2;
    static void paint(QPainter& painter, const TimelinePaintState& state);
    /// The y range of a row's lane on screen, given the state's scroll and axis.
    static QRect laneRect(const TimelinePaintState& state, int displayRow, Lane lane);

private:
    static void paintRow(QPainter& painter, const TimelinePaintState& state, int displayRow);
    static void paintAxis(QPainter& painter, const TimelinePaintState& state);
    static void paintLabels(QPainter& painter, const TimelinePaintState& state, int firstRow,
                            int lastRow);
    static void paintRunsAsRects(QPainter& painter, const RowGeometry& geometry, qreal x0,
                                 const LaneBand& work, const LaneBand& comm, const LaneBand& phase);
    static void rasterize(RowGeometry& geometry, int width, qreal left, qreal x0);
    static void paintMark(QPainter& painter, const TimelinePaintState& state,
                          const TimelineMark& mark, const QPen& pen, qreal offset);
    static void paintCriticalOutline(QPainter& painter, const TimelineRun& run, qreal left,
                                     const LaneBand& band);
};

} // namespace astrolabe::widgets
