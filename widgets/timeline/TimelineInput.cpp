// The timeline's interaction: what is under the pointer (hitTest), hover tooltips, wheel zoom,
// click to select, drag to zoom or pan, and the keyboard. Drawing and the view window are in
// TimelineWidget.cpp.
#include "timeline/TimelineText.h"
#include "timeline/TimelineWidget.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

namespace {
constexpr int kDragThreshold = 4;
constexpr int kWheelBurstMs = 600; ///< wheel steps closer than this are one history entry
} // namespace

TimelineHit TimelineWidget::hitTest(QPoint pos) const {
    TimelineHit hit;
    if (!m_source || pos.x() < labelWidth() || pos.y() < axisHeight())
        return hit;
    const int y = pos.y() - axisHeight() + verticalScrollBar()->value();
    hit.displayRow = m_layout.rowAt(y);
    if (hit.displayRow < 0)
        return hit;
    const DisplayRow& row = m_layout.rows()[hit.displayRow];
    if (row.kind != DisplayRow::Kind::Npu)
        return hit;
    hit.npu = row.firstNpu;
    const int lane = laneAt(row.top, row.height, y);
    if (lane < 0)
        return hit;
    hit.lane = static_cast<Lane>(lane);
    const int64_t t = m_mapper.xToTime(pos.x());
    const int64_t tolerance = m_mapper.pixelsToDuration(3);
    const PhaseWindow phases = m_source->phases(hit.npu, t - tolerance, t + tolerance + 1);
    if (hit.lane == Lane::Phase) {
        const int index = hitTestPhases(phases.items, t, tolerance);
        if (index >= 0) {
            hit.phase = phases.items[index];
            for (const ActivityInterval& a :
                 m_source->activities(hit.npu, hit.phase->start.ps(), hit.phase->end.ps()).items)
                if (a.nodeId == hit.phase->nodeId && a.kind == ActivityKind::Communication)
                    hit.activity = a;
        }
        return hit;
    }
    const ActivityWindow window = m_source->activities(hit.npu, t - tolerance, t + tolerance + 1);
    const int index = hitTestActivities(window.items, hit.lane, t, tolerance);
    if (index < 0)
        return hit;
    hit.activity = window.items[index];
    if (hit.lane == Lane::Communication) {
        for (const PhaseSpan& p : phases.items)
            if (p.nodeId == hit.activity->nodeId && p.start.ps() <= t && t < p.end.ps())
                hit.phase = p;
    }
    return hit;
}

void TimelineWidget::updateHover(QPoint pos) {
    const TimelineHit hit = hitTest(pos);
    TimelineMark mark;
    if (hit.activity) {
        const bool onPhase = hit.lane == Lane::Phase && hit.phase;
        mark = {true, hit.npu, onPhase ? hit.phase->start.ps() : hit.activity->start.ps(),
                onPhase ? hit.phase->end.ps() : hit.activity->end.ps(), hit.lane};
    }
    if (!(mark == m_hover)) {
        m_hover = mark;
        viewport()->update();
    }
    if (hit.activity)
        QToolTip::showText(viewport()->mapToGlobal(pos),
                           activityTooltip(*m_source, *hit.activity, hit.phase), viewport());
    else
        QToolTip::hideText();
}

void TimelineWidget::leaveEvent(QEvent* event) {
    m_hover = {};
    viewport()->update();
    QAbstractScrollArea::leaveEvent(event);
}

void TimelineWidget::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ShiftModifier || event->position().x() < labelWidth()) {
        verticalScrollBar()->setValue(verticalScrollBar()->value() -
                                      static_cast<int>(steps * 3 * m_layout.npuRowHeight()));
        return;
    }
    if (steps == 0)
        return;
    // A burst of wheel steps is one history entry.
    if (!m_lastWheel.isValid() || m_lastWheel.elapsed() > kWheelBurstMs)
        m_history.visit({m_mapper.t0(), m_mapper.t1()});
    m_lastWheel.start();
    TimeMapper next = m_mapper;
    next.zoomAround(event->position().x(), std::pow(1.25, steps));
    applyWindow(next.t0(), next.t1());
    emit historyChanged();
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* event) {
    setFocus();
    m_pressPos = m_lastPos = event->position().toPoint();
    m_moved = false;
    if (event->button() != Qt::LeftButton)
        return;
    if (m_pressPos.x() < labelWidth()) {
        const int row =
            m_layout.rowAt(m_pressPos.y() - axisHeight() + verticalScrollBar()->value());
        if (row >= 0 && m_pressPos.y() >= axisHeight()) {
            m_layout.toggle(row);
            updateScrollBars();
            viewport()->update();
        }
        m_drag = Drag::None;
        return;
    }
    if (m_pressPos.y() < axisHeight()) {
        // The time axis is the cursor's track: press and drag there to move it.
        m_drag = Drag::Cursor;
        moveCursorTo(m_pressPos.x());
        return;
    }
    m_drag = (event->modifiers() & Qt::ControlModifier) ? Drag::RubberBand : Drag::Pan;
    m_panStartWindow = {m_mapper.t0(), m_mapper.t1()};
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (m_drag == Drag::None) {
        updateHover(pos);
        return;
    }
    if (m_drag == Drag::Cursor) {
        moveCursorTo(pos.x());
        return;
    }
    if ((pos - m_pressPos).manhattanLength() >= kDragThreshold)
        m_moved = true;
    if (!m_moved)
        return;
    if (m_drag == Drag::Pan) {
        const QPoint delta = pos - m_lastPos;
        TimeMapper next = m_mapper;
        next.panPixels(-delta.x());
        m_mapper = next;
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
        viewport()->update();
        emit windowChanged(m_mapper.t0(), m_mapper.t1());
    } else {
        m_rubberBand =
            QRect(QPoint(std::max(std::min(m_pressPos.x(), pos.x()), labelWidth()), axisHeight()),
                  QPoint(std::max(m_pressPos.x(), pos.x()), viewport()->height()));
        viewport()->update();
    }
    m_lastPos = pos;
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event) {
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (drag == Drag::RubberBand && m_moved && m_rubberBand.width() > 2) {
        const int64_t t0 = m_mapper.xToTime(m_rubberBand.left());
        const int64_t t1 = m_mapper.xToTime(m_rubberBand.right());
        m_rubberBand = {};
        setWindow(t0, t1);
        return;
    }
    m_rubberBand = {};
    if (drag == Drag::Cursor)
        return;
    if (drag == Drag::Pan && m_moved) {
        // One history entry per drag: the window before it started.
        m_history.visit(m_panStartWindow);
        emit historyChanged();
        return;
    }
    if (drag != Drag::None && !m_moved) {
        const TimelineHit hit = hitTest(event->position().toPoint());
        if (hit.activity)
            selectActivity(hit.npu, *hit.activity, false);
        else
            clearSelection();
    }
    viewport()->update();
}

void TimelineWidget::keyPressEvent(QKeyEvent* event) {
    const double centre = labelWidth() + m_mapper.width() / 2;
    const bool alt = event->modifiers() & Qt::AltModifier;
    switch (event->key()) {
    case Qt::Key_Left:
        if (alt)
            goBack();
        else
            setWindow(m_mapper.t0() - m_mapper.spanPs() / 10,
                      m_mapper.t1() - m_mapper.spanPs() / 10, false);
        break;
    case Qt::Key_Right:
        if (alt)
            goForward();
        else
            setWindow(m_mapper.t0() + m_mapper.spanPs() / 10,
                      m_mapper.t1() + m_mapper.spanPs() / 10, false);
        break;
    case Qt::Key_Up:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepSub);
        break;
    case Qt::Key_Down:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepAdd);
        break;
    case Qt::Key_PageUp:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepSub);
        break;
    case Qt::Key_PageDown:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepAdd);
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(2.0, centre);
        break;
    case Qt::Key_Minus:
        zoomBy(0.5, centre);
        break;
    case Qt::Key_Home:
        showAll();
        break;
    case Qt::Key_Backspace:
        goBack();
        break;
    case Qt::Key_Escape:
        clearSelection();
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

} // namespace astrolabe::widgets
