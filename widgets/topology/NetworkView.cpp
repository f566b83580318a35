#include "topology/NetworkView.h"

#include "topology/MemoryTierPainter.h"
#include "topology/NetworkDescription.h"
#include "topology/TopologyMath.h"

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

namespace {
constexpr double kMaxScale = 6.0; // an NPU at most ~72 px wide
constexpr int kMargin = 16;
} // namespace

NetworkView::NetworkView(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(QString());
}

void NetworkView::setPlatform(const PlatformSpec& platform) {
    // Bandwidth and latency edits keep the user's zoom; a new shape is fitted afresh.
    const auto shape = [](const PlatformSpec& p) {
        std::vector<std::pair<int, int>> s;
        for (const DimensionSpec& d : p.dimensions)
            s.emplace_back(static_cast<int>(d.kind), d.size);
        return s;
    };
    const bool sameShape =
        shape(m_platform) == shape(platform) && m_platform.graph == platform.graph;
    m_platform = platform;
    m_layout = NetworkLayout(platform);
    if (!sameShape || platform.graph)
        m_graph = platform.graph ? GraphDrawing(platform) : GraphDrawing();
    m_hoveredDevice = -1;
    m_tier = MemoryTierLayout(m_layout, m_tier.memory());
    m_memoryHovered = {};
    if (m_state.selectedDimension >= m_layout.dimensionCount())
        m_state.selectedDimension = -1;
    if (sameShape) {
        update();
        return;
    }
    m_state.hovered = {};
    m_state.selectedGroup = {};
    m_userMoved = false;
    fitToView();
}

void NetworkView::setMemory(const RemoteMemoryConfig& memory) {
    if (memory == m_tier.memory())
        return;
    const QRectF before = drawingBounds();
    m_tier = MemoryTierLayout(m_layout, memory);
    m_memoryHovered = {};
    if (!m_tier.present())
        m_memorySelected = false;
    // A bandwidth edit keeps the view; a tier that changes the drawing's extent is refitted.
    if (!m_userMoved && drawingBounds() != before)
        fitToView();
    else
        update();
}

void NetworkView::setMemorySelected(bool selected) {
    selected = selected && m_tier.present();
    if (selected == m_memorySelected)
        return;
    m_memorySelected = selected;
    update();
}

QRectF NetworkView::drawingBounds() const {
    if (!m_graph.empty())
        return m_graph.bounds();
    return m_layout.drawable() ? m_tier.bounds() : QRectF();
}

void NetworkView::setSelectedDimension(int dimension) {
    if (dimension == m_state.selectedDimension)
        return;
    m_state.selectedDimension = dimension;
    if (m_state.selectedGroup.level != dimension + 1)
        m_state.selectedGroup = {};
    update();
}

QRectF NetworkView::fitArea() const {
    // The legend sits top-left; the drawing is fitted below it, or right of it when that gives
    // the larger drawing (a wide, low view: the serving tab's), so that it covers nothing at
    // fit. Only a view too small for either takes the whole rectangle.
    const QFontMetrics fm(font());
    const QRect legend = legendBox(legendText(), font());
    // Room under the drawing for the memory tier's labels (two lines for pooled).
    const int labels = m_tier.present() ? 2 * (fm.height() + 2) : 0;
    const QRectF below =
        QRectF(rect()).adjusted(kMargin, legend.bottom() + kMargin, -kMargin, -kMargin - labels);
    const QRectF beside =
        QRectF(rect()).adjusted(legend.right() + kMargin, kMargin, -kMargin, -kMargin - labels);
    const QRectF b = drawingBounds();
    const auto scaleIn = [&](const QRectF& area) {
        if (area.width() < 40 || area.height() < 40 || b.width() <= 0 || b.height() <= 0)
            return 0.0;
        return std::min(area.width() / b.width(), area.height() / b.height());
    };
    const double underScale = scaleIn(below), besideScale = scaleIn(beside);
    if (underScale <= 0 && besideScale <= 0)
        return QRectF(rect()).adjusted(kMargin, kMargin, -kMargin, -kMargin);
    return besideScale > underScale ? beside : below;
}

double NetworkView::fitScale() const {
    if (!m_layout.drawable() && m_graph.empty())
        return 1;
    const QRectF b = drawingBounds();
    const QRectF area = fitArea();
    return std::clamp(std::min(area.width() / b.width(), area.height() / b.height()), 1e-4,
                      m_maxFitScale);
}

void NetworkView::setMaxFitScale(double scale) {
    m_maxFitScale = std::clamp(scale, 1.0, kMaxScale);
    if (!m_userMoved)
        fitToView();
}

void NetworkView::fitToView() {
    m_state.scale = fitScale();
    const QRectF b = drawingBounds();
    m_state.offset = fitArea().center() - b.center() * m_state.scale;
    updateCollapseLevel();
    update();
}

void NetworkView::zoomBy(double factor, QPointF anchor) {
    const QPointF scenePoint = widgetToScene(anchor);
    const double minScale = fitScale() * 0.25;
    m_state.scale = std::clamp(m_state.scale * factor, minScale, std::max(minScale, kMaxScale));
    m_state.offset = anchor - scenePoint * m_state.scale;
    m_userMoved = true;
    updateCollapseLevel();
    update();
}

void NetworkView::panBy(QPointF delta) {
    m_state.offset += delta;
    m_userMoved = true;
    update();
}

QPointF NetworkView::widgetToScene(QPointF pos) const {
    return (pos - m_state.offset) / m_state.scale;
}

QPointF NetworkView::sceneToWidget(QPointF pos) const {
    return pos * m_state.scale + m_state.offset;
}

void NetworkView::updateCollapseLevel() {
    if (!m_graph.empty())
        m_state.collapseLevel = 0; // every device is drawn
    if (!m_layout.drawable() || !m_graph.empty())
        return;
    const int level = NetworkPainter::collapseLevelFor(m_layout, m_state.scale);
    if (level != m_state.collapseLevel)
        m_state.hovered = {};
    m_state.collapseLevel = level;
}

QString NetworkView::describeNpu(int id) const {
    return describeNetworkNpu(m_layout, m_platform, m_tier, id);
}

QString NetworkView::describeGroup(const NetworkLayout::Hit& group) const {
    return describeNetworkGroup(m_layout, m_platform, group);
}

void NetworkView::setOverlay(const NetworkOverlay* overlay) {
    m_overlay = overlay;
    update();
}

void NetworkView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(0xfb, 0xfc, 0xfd));
    if (m_graph.empty() && !m_layout.drawable()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter,
                   m_platform.dimensions.empty()
                       ? tr("No dimension yet: drop a building block on the stack")
                       : tr("Too many NPUs to draw (%1); the figures still apply")
                             .arg(npuCount64(m_platform)));
        return;
    }
    if (!m_graph.empty()) {
        m_graph.paint(p, m_state);
        m_stats = {0, 0, m_graph.deviceCount(), static_cast<int>(m_graph.segments().size())};
    } else {
        const NetworkPainter painter(m_layout, m_platform);
        paintMemoryLinks(p, m_tier, m_state);
        m_stats = painter.paint(p, QRectF(rect()), m_state);
        m_memoryBoxes = paintMemoryTier(p, m_layout, m_tier, m_state, QRectF(rect()),
                                        m_memorySelected, m_memoryHovered);
        paintMemoryTierLabels(p, m_tier, m_layout.npuCount(), m_state, QRectF(rect()));
    }
    if (m_overlay) {
        p.save();
        p.resetTransform();
        m_overlay->paint(p, *this);
        p.restore();
    }
    paintLegend(p);
    if (!m_graph.empty()) {
        if (m_hoveredDevice >= 0)
            paintInfo(p, m_graph.describeDevice(m_hoveredDevice));
    } else if (m_memoryHovered.part != MemoryTierLayout::Hit::Part::None)
        paintInfo(p, describeMemoryHit(m_tier, m_memoryHovered, m_layout.npuCount()));
    else if (m_state.hovered.level == 0)
        paintInfo(p, describeNpu(m_state.hovered.firstId));
    else if (m_state.hovered.level >= 1)
        paintInfo(p, describeGroup(m_state.hovered));
    else if (m_state.selectedGroup.level >= 1)
        paintInfo(p, describeGroup(m_state.selectedGroup));
}

void NetworkView::resizeEvent(QResizeEvent*) {
    if (!m_userMoved)
        fitToView();
}

void NetworkView::wheelEvent(QWheelEvent* event) {
    zoomBy(std::pow(1.0015, event->angleDelta().y()), event->position());
    event->accept();
}

void NetworkView::mousePressEvent(QMouseEvent* event) {
    m_pressPos = m_lastPos = event->position();
    m_dragging = false;
    setFocus(Qt::MouseFocusReason);
}

void NetworkView::mouseMoveEvent(QMouseEvent* event) {
    if (event->buttons() & (Qt::LeftButton | Qt::MiddleButton)) {
        if (!m_dragging &&
            (event->position() - m_pressPos).manhattanLength() >= QApplication::startDragDistance())
            m_dragging = true;
        if (m_dragging) {
            panBy(event->position() - m_lastPos);
            setCursor(Qt::ClosedHandCursor);
        }
        m_lastPos = event->position();
        return;
    }
    setHover(event->position());
}

void NetworkView::mouseReleaseEvent(QMouseEvent* event) {
    if (!m_dragging && event->button() == Qt::LeftButton)
        selectAt(event->position());
    m_dragging = false;
    unsetCursor();
}

void NetworkView::mouseDoubleClickEvent(QMouseEvent*) {
    m_userMoved = false;
    fitToView();
}

void NetworkView::leaveEvent(QEvent*) {
    if (m_state.hovered.level >= 0 || m_hoveredDevice >= 0) {
        m_hoveredDevice = -1;
        m_state.hovered = {};
        update();
        emit hoveredChanged();
    }
}

void NetworkView::keyPressEvent(QKeyEvent* event) {
    const QPointF centre(width() / 2.0, height() / 2.0);
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25, centre);
        break;
    case Qt::Key_Minus:
        zoomBy(0.8, centre);
        break;
    case Qt::Key_0:
        m_userMoved = false;
        fitToView();
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

void NetworkView::setHover(QPointF widgetPos) {
    if (!m_graph.empty()) {
        const int device = m_graph.deviceAt(widgetToScene(widgetPos));
        if (device != m_hoveredDevice) {
            m_hoveredDevice = device;
            update();
            emit hoveredChanged();
        }
        return;
    }
    const MemoryTierLayout::Hit memory =
        m_tier.hitTest(m_layout, widgetToScene(widgetPos), m_state.collapseLevel);
    if (memory != m_memoryHovered) {
        m_memoryHovered = memory;
        update();
    }
    const NetworkLayout::Hit hit =
        m_layout.hitTest(widgetToScene(widgetPos), m_state.collapseLevel);
    // The whole platform is not worth a hover box: it is what the legend describes.
    const NetworkLayout::Hit shown = hit.level == m_layout.topLevel() ? NetworkLayout::Hit{} : hit;
    if (shown == m_state.hovered)
        return;
    m_state.hovered = shown;
    update();
    emit hoveredChanged();
}

void NetworkView::selectAt(QPointF widgetPos) {
    // A legend row selects its dimension (every group of it is then highlighted).
    for (size_t d = 0; d < m_legendRows.size(); ++d) {
        if (m_legendRows[d].contains(widgetPos.toPoint())) {
            m_state.selectedGroup = {};
            m_state.selectedDimension = static_cast<int>(d);
            update();
            emit dimensionClicked(m_state.selectedDimension);
            return;
        }
    }
    if (!m_graph.empty())
        return; // a graph has no groups to select: its dimensions are logical
    const QPointF scenePoint = widgetToScene(widgetPos);
    if (m_memoryLegendRow.contains(widgetPos.toPoint()) ||
        m_tier.hitTest(m_layout, scenePoint, m_state.collapseLevel).part !=
            MemoryTierLayout::Hit::Part::None) {
        m_state.selectedGroup = {};
        m_state.selectedDimension = -1;
        m_memorySelected = true;
        update();
        emit memoryClicked();
        return;
    }
    m_memorySelected = false;
    NetworkLayout::Hit hit = m_layout.hitTest(scenePoint, std::max(1, m_state.collapseLevel));
    const NetworkLayout::Hit sel = m_state.selectedGroup;
    if (hit.level >= 1 && sel.level >= hit.level && sel.level < m_layout.topLevel() &&
        m_layout.groupContains(sel.level, m_layout.groupCentre(sel.level, sel.firstId),
                               scenePoint)) {
        // A second click on a selected group selects the group around it.
        const int level = sel.level + 1;
        const int per = m_layout.level(level).npusPerGroup;
        hit = {level, sel.firstId - sel.firstId % per};
    }
    m_state.selectedGroup = hit.level >= 1 ? hit : NetworkLayout::Hit{};
    m_state.selectedDimension = hit.level >= 1 ? hit.level - 1 : -1;
    update();
    emit dimensionClicked(m_state.selectedDimension);
}

} // namespace astrolabe::widgets
