#include "serving/RequestTimeline.h"

#include "timeline/TimeAxis.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {
namespace {
constexpr int kAxisHeight = 22;
constexpr int kWheelBurstMs = 400;
} // namespace

RequestTimeline::RequestTimeline(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(false);
    setFocusPolicy(Qt::ClickFocus);
    setAttribute(Qt::WA_OpaquePaintEvent); // the picture and the axis cover every pixel
    setMinimumHeight(120);
    m_mapper.setMinSpan(1000); // 1 ns
}

QRect RequestTimeline::plotRect() const {
    return rect().adjusted(0, kAxisHeight, 0, 0);
}

double RequestTimeline::runEnd() const {
    if (!m_result)
        return 0;
    const serving::ServingResult& r = *m_result;
    double end = 0;
    if (!r.requests.empty())
        end = r.requests.front().arrival + r.summary.durationSeconds;
    if (!r.occupancy.empty())
        end = std::max(end, r.occupancy.back().seconds);
    return end;
}

void RequestTimeline::setResult(std::shared_ptr<const serving::ServingResult> result) {
    m_result = std::move(result);
    m_history.clear();
    m_selected = -1;
    m_pictureValid = false;
    const int64_t end = std::max<int64_t>(secondsToPs(runEnd()), 1000);
    m_mapper = TimeMapper(0, end, 0, std::max(1, plotRect().width()));
    m_mapper.setMinSpan(1000);
    m_mapper.setLimits(0, end);
    m_mapper.showAll();
    m_rows = RowWindow{0, m_result ? std::max<int>(1, int(m_result->requests.size())) : 1};
    update();
    emit windowChanged();
}

void RequestTimeline::select(int request) {
    m_selected = request;
    update();
}

void RequestTimeline::applyWindow(int64_t t0, int64_t t1) {
    m_mapper.setWindow(t0, t1);
    update();
    emit windowChanged();
}

void RequestTimeline::setWindow(int64_t t0Ps, int64_t t1Ps) {
    m_history.visit({m_mapper.t0(), m_mapper.t1()});
    applyWindow(t0Ps, t1Ps);
}

void RequestTimeline::setRows(const RowWindow& rows) {
    const int total = m_result ? std::max<int>(1, int(m_result->requests.size())) : 1;
    RowWindow r = rows;
    r.count = std::clamp(r.count, 1, total);
    r.first = std::clamp(r.first, 0, total - r.count);
    if (r == m_rows)
        return;
    m_rows = r;
    update();
    emit windowChanged();
}

void RequestTimeline::zoomAround(double x, double factor) {
    TimeMapper next = m_mapper;
    next.zoomAround(x - plotRect().left(), factor);
    applyWindow(next.t0(), next.t1());
}

void RequestTimeline::showAll() {
    setWindow(m_mapper.limitBegin(), m_mapper.limitEnd());
    setRows(RowWindow{0, m_result ? int(m_result->requests.size()) : 1});
}

bool RequestTimeline::back() {
    if (!m_history.canGoBack())
        return false;
    const auto [t0, t1] = m_history.back({m_mapper.t0(), m_mapper.t1()});
    applyWindow(t0, t1);
    return true;
}

bool RequestTimeline::forward() {
    if (!m_history.canGoForward())
        return false;
    const auto [t0, t1] = m_history.forward({m_mapper.t0(), m_mapper.t1()});
    applyWindow(t0, t1);
    return true;
}

void RequestTimeline::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    m_mapper.setWidth(0, std::max(1, plotRect().width()));
}

void RequestTimeline::rebuildIfStale() {
    const QRect plot = plotRect();
    const QSize size(std::max(1, plot.width()), std::max(1, plot.height()));
    if (m_pictureValid && m_picture.size() == size && m_pictureMapper == m_mapper &&
        m_pictureRows == m_rows)
        return;
    if (m_picture.size() != size)
        m_picture = QImage(size, QImage::Format_RGB32); // opaque: drawn without blending
    const QColor background = palette().color(QPalette::Base);
    if (m_result)
        paintRequestRows(m_result->requests, runEnd(), m_mapper, m_rows, m_picture, background);
    else
        m_picture.fill(background);
    m_pictureMapper = m_mapper;
    m_pictureRows = m_rows;
    m_pictureValid = true;
    ++m_rebuilds;
}

void RequestTimeline::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRect plot = plotRect();
    rebuildIfStale();
    painter.fillRect(QRect(0, 0, width(), kAxisHeight + 1), palette().color(QPalette::Window));
    painter.drawImage(plot.topLeft(), m_picture);
    // The axis: the training timeline's ticks and labels.
    painter.setPen(palette().color(QPalette::WindowText));
    const QFontMetrics metrics = painter.fontMetrics();
    TickLabelPlacer labels(plot.right());
    for (const TimeTick& tick : timeTicks(m_mapper, 90)) {
        const int x = plot.left() + int(std::lround(tick.x));
        painter.drawLine(x, kAxisHeight - 5, x, kAxisHeight);
        const QString label = QString::fromStdString(tick.label);
        if (const auto left = labels.place(x, metrics.horizontalAdvance(label)))
            painter.drawText(int(std::lround(*left)), kAxisHeight - 7, label);
    }
    painter.drawLine(plot.left(), kAxisHeight, plot.right(), kAxisHeight);
    if (m_result && m_selected >= 0 && m_selected < int(m_result->requests.size()) &&
        m_selected >= m_rows.first && m_selected < m_rows.first + m_rows.count) {
        const serving::RequestRecord& r = m_result->requests[size_t(m_selected)];
        const auto [top, bottom] = m_rows.pixels(m_selected, plot.height());
        const double x0 = m_mapper.timeToX(secondsToPs(r.arrival));
        const double x1 =
            m_mapper.timeToX(secondsToPs(phaseSpan(r, RequestPhase::Decode, runEnd()).end));
        painter.setPen(QPen(Qt::black, 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(plot.left() + x0 - 1, plot.top() + top - 2,
                                std::max(2.0, x1 - x0 + 2), bottom - top + 3));
    }
}

void RequestTimeline::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || !m_result)
        return;
    const QRect plot = plotRect();
    if (event->modifiers() & Qt::ShiftModifier) {
        const int rowsPerStep = std::max(1, m_rows.count / 10);
        setRows(RowWindow{m_rows.first - int(std::lround(steps * rowsPerStep)), m_rows.count});
    } else if (event->modifiers() & Qt::ControlModifier) {
        // The row position under the pointer (fractional: rows are height / count pixels)
        // stays under it. The window is kept in fractional rows between steps and rounded only
        // for drawing, so that rounding does not drift it.
        if (RowWindow{int(std::lround(m_exactFirst)), int(std::lround(m_exactCount))} != m_rows) {
            m_exactFirst = m_rows.first;
            m_exactCount = m_rows.count;
        }
        const double y = std::clamp(event->position().y() - plot.top(), 0.0, double(plot.height()));
        const double fraction = y / std::max(1, plot.height());
        const double under = m_exactFirst + fraction * m_exactCount;
        const double total = double(std::max<size_t>(1, m_result->requests.size()));
        const double count = std::clamp(m_exactCount / std::pow(1.25, steps), 1.0, total);
        const double first = std::clamp(under - fraction * count, 0.0, total - count);
        setRows(RowWindow{int(std::lround(first)), int(std::lround(count))});
        m_exactFirst = first;
        m_exactCount = count;
    } else {
        if (!m_lastWheel.isValid() || m_lastWheel.elapsed() > kWheelBurstMs)
            m_history.visit({m_mapper.t0(), m_mapper.t1()});
        m_lastWheel.start();
        zoomAround(event->position().x(), std::pow(1.25, steps));
    }
    event->accept();
}

void RequestTimeline::mousePressEvent(QMouseEvent* event) {
    m_pressPos = m_lastPos = event->position().toPoint();
    m_moved = false;
}

void RequestTimeline::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (!(event->buttons() & Qt::LeftButton))
        return;
    if (!m_moved && (pos - m_pressPos).manhattanLength() < 4)
        return;
    if (!m_moved)
        m_history.visit({m_mapper.t0(), m_mapper.t1()});
    m_moved = true;
    TimeMapper next = m_mapper;
    next.panPixels(double(m_lastPos.x() - pos.x()));
    m_lastPos = pos;
    applyWindow(next.t0(), next.t1());
}

void RequestTimeline::mouseReleaseEvent(QMouseEvent* event) {
    if (m_moved || event->button() != Qt::LeftButton || !m_result)
        return;
    const QRect plot = plotRect();
    const QPoint pos = event->position().toPoint();
    const int request = requestAt(m_result->requests, runEnd(), m_mapper, m_rows, plot.height(),
                                  pos.x() - plot.left(), pos.y() - plot.top());
    if (request < 0)
        return;
    select(request);
    emit requestClicked(request);
}

} // namespace astrolabe::widgets
