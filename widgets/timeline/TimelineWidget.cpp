// The timeline widget: its source, the view window (zoom, history, scroll bars), rows,
// search and selection, and painting. Interaction with mouse and keys is in TimelineInput.cpp.
#include "timeline/TimelineWidget.h"

#include "common/InterfaceScale.h"
#include "timeline/TimelineText.h"

#include <QPainter>
#include <QScrollBar>
#include <algorithm>

namespace astrolabe::widgets {

TimelineWidget::TimelineWidget(QWidget* parent)
    : QAbstractScrollArea(parent) {
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(400, 200);
    m_mapper.setLimits(0, 1);
    m_layout.setScale(InterfaceScale::factor());
    connect(&InterfaceScale::instance(), &InterfaceScale::changed, this,
            &TimelineWidget::applyInterfaceScale);
}

int TimelineWidget::labelWidth() const {
    return InterfaceScale::px(kLabelWidth);
}

int TimelineWidget::axisHeight() const {
    return InterfaceScale::px(kAxisHeight);
}

void TimelineWidget::applyInterfaceScale() {
    m_layout.setScale(InterfaceScale::factor());
    m_cache.clear();
    ++m_overlayVersion;
    updateMapperWidth();
    updateScrollBars();
    viewport()->update();
}

void TimelineWidget::setSource(std::shared_ptr<const TimelineSource> source,
                               const std::vector<int>& dimensionSizes) {
    m_source = std::move(source);
    m_cache.clear();
    m_history.clear();
    m_hover = {};
    m_selection = {};
    m_selected.reset();
    m_overlay = {};
    const int rows = m_source ? m_source->rowCount() : 0;
    m_layout.setDimensions(dimensionSizes, rows);
    rebuildCriticalOverlay();
    if (m_source) {
        m_mapper.setLimits(m_source->beginPs(), m_source->endPs());
        // The shortest useful window: 100 ps across the plot.
        m_mapper.setMinSpan(100);
        updateMapperWidth();
        m_mapper.showAll();
    }
    verticalScrollBar()->setValue(0);
    updateScrollBars();
    viewport()->update();
    emit historyChanged();
    emit windowChanged(m_mapper.t0(), m_mapper.t1());
}

void TimelineWidget::rebuildCriticalOverlay() {
    m_overlay.criticalByNpu.clear();
    if (m_source) {
        m_overlay.criticalByNpu.resize(static_cast<size_t>(m_source->rowCount()));
        for (const auto& [npu, nodeId] : m_source->criticalPath())
            if (npu >= 0 && npu < m_source->rowCount())
                m_overlay.criticalByNpu[npu].push_back(nodeId);
        for (auto& ids : m_overlay.criticalByNpu)
            std::sort(ids.begin(), ids.end());
    }
    ++m_overlayVersion;
}

void TimelineWidget::setShowCriticalPath(bool show) {
    m_overlay.showCritical = show;
    ++m_overlayVersion;
    viewport()->update();
}

TimelinePaintState TimelineWidget::paintState() const {
    TimelinePaintState state;
    state.source = m_source.get();
    state.layout = &m_layout;
    state.cache = &m_cache;
    state.overlay = &m_overlay;
    state.overlayVersion = m_overlayVersion;
    state.mapper = m_mapper;
    state.size = viewport()->size();
    state.scrollY = verticalScrollBar()->value();
    state.labelWidth = labelWidth();
    state.axisHeight = axisHeight();
    state.hover = m_hover;
    state.selection = m_selection;
    state.rubberBand = m_rubberBand;
    return state;
}

void TimelineWidget::render(QPainter& painter) const {
    TimelineRenderer::paint(painter, paintState());
}

QSize TimelineWidget::renderSize() const {
    return viewport()->size();
}

void TimelineWidget::paintEvent(QPaintEvent*) {
    QPainter painter(viewport());
    TimelineRenderer::paint(painter, paintState());
    paintCursor(painter);
}

void TimelineWidget::setCursorTime(std::optional<int64_t> ps) {
    if (m_cursor == ps)
        return;
    m_cursor = ps;
    viewport()->update();
}

void TimelineWidget::moveCursorTo(int x) {
    const int64_t t = std::clamp(m_mapper.xToTime(std::max(x, labelWidth())), m_mapper.limitBegin(),
                                 m_mapper.limitEnd());
    setCursorTime(t);
    emit cursorMoved(t);
}

void TimelineWidget::paintCursor(QPainter& painter) const {
    if (!m_cursor || *m_cursor < m_mapper.t0() || *m_cursor > m_mapper.t1())
        return;
    const double x = m_mapper.timeToX(*m_cursor);
    painter.save();
    painter.setPen(QPen(QColor(0xd6, 0x27, 0x28), 2));
    painter.drawLine(QPointF(x, 0), QPointF(x, viewport()->height()));
    painter.restore();
}

void TimelineWidget::updateMapperWidth() {
    m_mapper.setWidth(labelWidth(), std::max(1, viewport()->width() - labelWidth()));
}

void TimelineWidget::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    updateMapperWidth();
    updateScrollBars();
}

void TimelineWidget::updateScrollBars() {
    const int visible = std::max(0, viewport()->height() - axisHeight());
    verticalScrollBar()->setRange(0, std::max(0, m_layout.totalHeight() - visible));
    verticalScrollBar()->setPageStep(visible);
    verticalScrollBar()->setSingleStep(m_layout.npuRowHeight());
}

void TimelineWidget::scrollContentsBy(int, int) {
    viewport()->update();
}

void TimelineWidget::applyWindow(int64_t t0, int64_t t1) {
    m_mapper.setWindow(t0, t1);
    viewport()->update();
    emit windowChanged(m_mapper.t0(), m_mapper.t1());
}

void TimelineWidget::setWindow(int64_t t0Ps, int64_t t1Ps, bool recordHistory) {
    if (recordHistory)
        m_history.visit({m_mapper.t0(), m_mapper.t1()});
    applyWindow(t0Ps, t1Ps);
    emit historyChanged();
}

void TimelineWidget::setTimeLimits(int64_t beginPs, int64_t endPs) {
    m_mapper.setLimits(beginPs, std::max(endPs, beginPs + 1));
    m_history.clear();
    updateScrollBars();
    applyWindow(m_mapper.limitBegin(), m_mapper.limitEnd());
    emit historyChanged();
}

void TimelineWidget::zoomBy(double factor, double x) {
    TimeMapper next = m_mapper;
    next.zoomAround(x, factor);
    setWindow(next.t0(), next.t1());
}

void TimelineWidget::showAll() {
    setWindow(m_mapper.limitBegin(), m_mapper.limitEnd());
}

void TimelineWidget::goBack() {
    const auto target = m_history.back({m_mapper.t0(), m_mapper.t1()});
    applyWindow(target.first, target.second);
    emit historyChanged();
}

void TimelineWidget::goForward() {
    const auto target = m_history.forward({m_mapper.t0(), m_mapper.t1()});
    applyWindow(target.first, target.second);
    emit historyChanged();
}

void TimelineWidget::collapseAll(bool collapsed) {
    m_layout.setAllCollapsed(collapsed);
    updateScrollBars();
    viewport()->update();
}

void TimelineWidget::collapseLevel(int level, bool collapsed) {
    m_layout.setAllCollapsed(collapsed, level);
    updateScrollBars();
    viewport()->update();
}

void TimelineWidget::ensureRowVisible(int row) {
    if (row < 0 || row >= static_cast<int>(m_layout.rows().size()))
        return;
    const DisplayRow& r = m_layout.rows()[row];
    const int visible = viewport()->height() - axisHeight();
    QScrollBar* bar = verticalScrollBar();
    if (r.top < bar->value())
        bar->setValue(r.top);
    else if (r.top + r.height > bar->value() + visible)
        bar->setValue(r.top + r.height - visible + m_layout.npuRowHeight());
}

int TimelineWidget::setSearchText(const QString& text) {
    m_overlay.nameMatches.clear();
    int count = 0;
    if (m_source && !text.isEmpty()) {
        const auto& names = m_source->names();
        m_overlay.nameMatches.resize(names.size());
        for (size_t i = 0; i < names.size(); ++i) {
            const bool match = QString::fromStdString(names[i]).contains(text, Qt::CaseInsensitive);
            m_overlay.nameMatches[i] = match;
            count += match;
        }
    }
    ++m_overlayVersion;
    viewport()->update();
    return count;
}

bool TimelineWidget::findNext() {
    if (!m_source || m_overlay.nameMatches.empty())
        return false;
    ActivityRef from;
    if (m_selected)
        from = {m_selected->npu, m_selected->start.ps(), m_selected->nodeId};
    const std::optional<ActivityRef> next = m_source->findNext(m_overlay.nameMatches, from);
    if (!next)
        return false;
    for (const ActivityInterval& a :
         m_source->activities(next->row, next->startPs, next->startPs + 1).items) {
        if (a.start.ps() == next->startPs && a.nodeId == next->nodeId) {
            selectActivity(next->row, a, true);
            return true;
        }
    }
    return false;
}

void TimelineWidget::selectActivity(int npu, const ActivityInterval& activity, bool scrollTo) {
    m_selected = activity;
    m_selection = {true, npu, activity.start.ps(), activity.end.ps(), laneOf(activity)};
    if (scrollTo) {
        m_layout.reveal(npu);
        updateScrollBars();
        ensureRowVisible(m_layout.rowOfNpu(npu));
        const int64_t duration = (activity.end - activity.start).ps();
        const int64_t span = m_mapper.spanPs();
        if (activity.start.ps() < m_mapper.t0() || activity.end.ps() > m_mapper.t1()) {
            // Keep the zoom unless the item does not fit; centre it.
            const int64_t newSpan = std::max(span, duration * 5 / 4);
            const int64_t centre = activity.start.ps() + duration / 2;
            setWindow(centre - newSpan / 2, centre - newSpan / 2 + newSpan);
        }
    }
    viewport()->update();
    emit activitySelected(activity);
}

void TimelineWidget::clearSelection() {
    if (!m_selected)
        return;
    m_selected.reset();
    m_selection = {};
    viewport()->update();
    emit selectionCleared();
}

} // namespace astrolabe::widgets
