#include "topology/GraphView.h"

#include "core/SimTime.h"
#include "core/Units.h"
#include "topology/GraphLayout.h"
#include "topology/MemoryTierLayout.h"
#include "topology/MemoryTierMath.h"
#include "topology/MemoryTierPainter.h"
#include "topology/NetworkLayout.h"

#include <QGraphicsEllipseItem>
#include <QGraphicsLineItem>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSceneHoverEvent>
#include <QGraphicsSimpleTextItem>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

namespace {
constexpr int kIdKey = 0;
constexpr int kPenKey = 1; // a link's pen when not selected
constexpr double kNpuRadius = 8;
constexpr double kSwitchHalf = 9;

QString linkTip(const GraphSpec& g, const GraphLinkSpec& l, int index) {
    return QStringLiteral("link %1: %2 %3 %4\n%5, %6")
        .arg(index)
        .arg(QString::fromStdString(g.deviceName(l.from)))
        .arg(l.bidirectional ? QStringLiteral("\u2194") : QStringLiteral("\u2192"))
        .arg(QString::fromStdString(g.deviceName(l.to)))
        .arg(QString::fromStdString(units::formatBandwidth(l.bandwidthBytesPerSecond)))
        .arg(QString::fromStdString(units::formatTime(SimTime::fromNsRounded(l.latencyNs),
                                                      units::TimeSpelling::MicroSign)));
}
} // namespace

// The memory tier in scene units (the view's transform zooms it with the graph): links, boxes,
// fabric; hovering a part outlines it, rings the NPUs a box serves and names it in the tooltip.
class MemoryTierItem : public QGraphicsItem {
public:
    MemoryTierItem(const std::vector<QPointF>& positions, int npus,
                   const RemoteMemoryConfig& memory)
        : m_sites(NpuSites::of(positions, npus, devicesBounds(positions)))
        , m_tier(m_sites, memory) {
        setAcceptHoverEvents(true);
        setZValue(-2); // under the links (-1) and the devices
        for (const QLineF& l : m_tier.links())
            m_bounds = m_bounds.united(QRectF(l.p1(), l.p2()).normalized());
        m_bounds = m_bounds.united(m_tier.band()).adjusted(-4, -4, 4, 4);
    }
    const MemoryTierLayout& tier() const { return m_tier; }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        const NetworkViewState scene; // the painter is already in scene units
        paintMemoryLinks(*p, m_tier, scene);
        paintMemoryTier(*p, m_sites, m_tier, scene, m_bounds, false, m_hovered);
    }

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override {
        const MemoryTierLayout::Hit hit = m_tier.hitTest(m_sites, event->pos());
        if (hit == m_hovered)
            return;
        m_hovered = hit;
        setToolTip(describeMemoryHit(m_tier, hit, m_sites.count));
        update();
    }
    void hoverLeaveEvent(QGraphicsSceneHoverEvent*) override {
        m_hovered = {};
        update();
    }

private:
    static QRectF devicesBounds(const std::vector<QPointF>& positions) {
        return pointsBounds(positions).adjusted(-kSwitchHalf, -kSwitchHalf, kSwitchHalf,
                                                kSwitchHalf);
    }

    NpuSites m_sites;
    MemoryTierLayout m_tier;
    QRectF m_bounds;
    MemoryTierLayout::Hit m_hovered;
};

GraphView::GraphView(QWidget* parent)
    : QGraphicsView(parent) {
    setScene(new QGraphicsScene(this));
    setRenderHint(QPainter::Antialiasing);
    setDragMode(QGraphicsView::RubberBandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setBackgroundBrush(QColor(0xfb, 0xfc, 0xfd));
    connect(scene(), &QGraphicsScene::selectionChanged, this, &GraphView::selectionChanged);
    connect(this, &GraphView::selectionChanged, this, &GraphView::showSelection);
}

void GraphView::showSelection() {
    // Qt's dashed outline is hard to see on a thin line: selected items turn green.
    const QColor selected(0x27, 0xae, 0x60);
    for (QGraphicsItem* item : m_links) {
        auto* line = static_cast<QGraphicsPathItem*>(item);
        QPen pen = line->data(kPenKey).value<QPen>();
        if (line->isSelected()) {
            pen.setColor(selected);
            pen.setWidthF(pen.widthF() + 2);
        }
        line->setPen(pen);
    }
    for (QGraphicsItem* item : m_devices) {
        auto* shape = static_cast<QAbstractGraphicsShapeItem*>(item);
        shape->setPen(shape->isSelected() ? QPen(selected, 3) : QPen(QColor(0x2c, 0x3e, 0x50), 1));
    }
}

GraphView::~GraphView() {
    scene()->blockSignals(true);
}

void GraphView::setGraph(const GraphSpec& g, const std::vector<QPointF>& positions,
                         const std::set<int>& problemLinks, const std::vector<char>& wrap,
                         const RemoteMemoryConfig& memory) {
    m_memory = memory;
    setGraph(g, positions, problemLinks, wrap);
}

void GraphView::setGraph(const GraphSpec& g, const std::vector<QPointF>& positions,
                         const std::set<int>& problemLinks, const std::vector<char>& wrap) {
    const std::set<int> devices = selectedDevices(), links = selectedLinks();
    const QSignalBlocker block(scene());
    scene()->clear();
    m_rubberLink = nullptr;
    m_tier = nullptr;
    m_tierSummary = nullptr;
    m_devices.clear();
    m_links.clear();
    m_positions.clear();
    m_npus = 0;
    if (g.deviceCount() > kMaxDrawnDevices || g.links.size() > kMaxDrawnLinks) {
        // One item per device and link would stall the event loop for seconds.
        auto* text = scene()->addSimpleText(
            tr("Too many devices to draw (%1 devices, %2 links); the graph still runs and can be "
               "regenerated from the palette")
                .arg(g.deviceCount())
                .arg(g.links.size()));
        text->setBrush(QColor(0x7f, 0x8c, 0x8d));
        scene()->setSceneRect(text->boundingRect().adjusted(-20, -20, 20, 20));
        fit();
        return;
    }
    double low = 0, high = 0;
    for (const GraphLinkSpec& l : g.links)
        if (l.bandwidthBytesPerSecond > 0) {
            low = low > 0 ? std::min(low, l.bandwidthBytesPerSecond) : l.bandwidthBytesPerSecond;
            high = std::max(high, l.bandwidthBytesPerSecond);
        }
    const auto position = [&](int d) {
        return d >= 0 && d < static_cast<int>(positions.size()) ? positions[static_cast<size_t>(d)]
                                                                : QPointF();
    };
    for (size_t i = 0; i < g.links.size(); ++i) {
        const GraphLinkSpec& l = g.links[i];
        const bool bad = problemLinks.count(static_cast<int>(i)) > 0;
        const double t = high > low && l.bandwidthBytesPerSecond > 0
                             ? std::log(l.bandwidthBytesPerSecond / low) / std::log(high / low)
                             : 0.6; // one bandwidth throughout: a middle line
        const QColor light(0x9e, 0xc5, 0xe0), dark(0x08, 0x30, 0x6b);
        const auto mix = [t](int a, int b) { return static_cast<int>(a + (b - a) * t); };
        QPen pen(bad ? QColor(0xc0, 0x39, 0x2b)
                     : QColor(mix(light.red(), dark.red()), mix(light.green(), dark.green()),
                              mix(light.blue(), dark.blue())),
                 1.0 + 3.0 * t);
        if (bad || !l.bidirectional)
            pen.setStyle(bad ? Qt::DashLine : Qt::DotLine);
        QPainterPath path;
        if (i < wrap.size() && wrap[i]) {
            for (const QLineF& stub : NetworkLayout::wrapStubs(position(l.from), position(l.to))) {
                path.moveTo(stub.p1());
                path.lineTo(stub.p2());
            }
        } else {
            path.moveTo(position(l.from));
            path.lineTo(position(l.to));
        }
        auto* item = scene()->addPath(path, pen);
        item->setZValue(-1);
        item->setFlag(QGraphicsItem::ItemIsSelectable);
        item->setData(kIdKey, static_cast<int>(i));
        item->setData(kPenKey, QVariant::fromValue(pen));
        item->setToolTip(linkTip(g, l, static_cast<int>(i)));
        item->setSelected(links.count(static_cast<int>(i)) > 0);
        m_links.push_back(item);
    }
    const bool labels = g.deviceCount() <= 64;
    for (int d = 0; d < g.deviceCount(); ++d) {
        const bool isSwitch = d >= g.npus;
        QAbstractGraphicsShapeItem* item = nullptr;
        if (isSwitch)
            item = scene()->addRect(-kSwitchHalf, -kSwitchHalf, 2 * kSwitchHalf, 2 * kSwitchHalf);
        else
            item = scene()->addEllipse(-kNpuRadius, -kNpuRadius, 2 * kNpuRadius, 2 * kNpuRadius);
        item->setPos(position(d));
        item->setBrush(isSwitch ? QColor(0xf3, 0x9c, 0x12) : QColor(0x1f, 0x77, 0xb4));
        item->setPen(QPen(QColor(0x2c, 0x3e, 0x50), 1));
        item->setFlag(QGraphicsItem::ItemIsSelectable);
        item->setData(kIdKey, d);
        const QString name = QString::fromStdString(g.deviceName(d));
        item->setToolTip(name);
        item->setSelected(devices.count(d) > 0);
        if (labels) {
            auto* text = new QGraphicsSimpleTextItem(name, item);
            text->setFlag(QGraphicsItem::ItemIgnoresTransformations); // readable at any zoom
            text->setPos(kNpuRadius + 2, -kNpuRadius - 6);
            text->setBrush(QColor(0x2c, 0x3e, 0x50));
        }
        m_devices.push_back(item);
    }
    showSelection();
    m_positions.resize(static_cast<size_t>(g.deviceCount()));
    for (int d = 0; d < g.deviceCount(); ++d)
        m_positions[static_cast<size_t>(d)] = position(d);
    m_npus = g.npus;
    placeMemoryTier();
    fitSceneRect();
}

void GraphView::setMemory(const RemoteMemoryConfig& memory) {
    if (memory == m_memory)
        return;
    m_memory = memory;
    placeMemoryTier();
    fitSceneRect();
}

const MemoryTierLayout* GraphView::memoryTier() const {
    return m_tier ? &m_tier->tier() : nullptr;
}

void GraphView::placeMemoryTier() {
    delete m_tier;
    delete m_tierSummary;
    m_tier = nullptr;
    m_tierSummary = nullptr;
    if (m_npus <= 0 || !hasMemoryTier(m_memory))
        return;
    m_tier = new MemoryTierItem(m_positions, m_npus, m_memory);
    scene()->addItem(m_tier);
    auto* summary = scene()->addSimpleText(memoryTierSummary(m_memory, m_npus));
    summary->setFlag(QGraphicsItem::ItemIgnoresTransformations); // readable at any zoom
    summary->setBrush(memoryTierColor().darker(150));
    const QRectF band = m_tier->tier().band();
    summary->setPos(band.left(), band.bottom() + 6);
    m_tierSummary = summary;
}

void GraphView::fitSceneRect() {
    scene()->setSceneRect(scene()->itemsBoundingRect().adjusted(-kGraphPitch, -kGraphPitch,
                                                                kGraphPitch, kGraphPitch));
    if (!m_userZoomed)
        fit();
}

std::set<int> GraphView::selectedDevices() const {
    std::set<int> out;
    for (size_t i = 0; i < m_devices.size(); ++i)
        if (m_devices[i]->isSelected())
            out.insert(static_cast<int>(i));
    return out;
}

std::set<int> GraphView::selectedLinks() const {
    std::set<int> out;
    for (size_t i = 0; i < m_links.size(); ++i)
        if (m_links[i]->isSelected())
            out.insert(static_cast<int>(i));
    return out;
}

void GraphView::select(const std::set<int>& devices, const std::set<int>& links) {
    {
        const QSignalBlocker block(scene());
        for (size_t i = 0; i < m_devices.size(); ++i)
            m_devices[i]->setSelected(devices.count(static_cast<int>(i)) > 0);
        for (size_t i = 0; i < m_links.size(); ++i)
            m_links[i]->setSelected(links.count(static_cast<int>(i)) > 0);
    }
    emit selectionChanged();
}

QGraphicsItem* GraphView::deviceItem(int device) const {
    return device >= 0 && device < static_cast<int>(m_devices.size())
               ? m_devices[static_cast<size_t>(device)]
               : nullptr;
}

QGraphicsItem* GraphView::linkItem(int link) const {
    return link >= 0 && link < static_cast<int>(m_links.size()) ? m_links[static_cast<size_t>(link)]
                                                                : nullptr;
}

void GraphView::fit() {
    fitInView(sceneRect(), Qt::KeepAspectRatio);
    // Small graphs are not blown up past twice their natural size.
    if (transform().m11() > 2)
        setTransform(QTransform::fromScale(2, 2));
}

int GraphView::deviceAt(QPoint viewPos) const {
    for (QGraphicsItem* item : items(viewPos)) {
        while (item->parentItem())
            item = item->parentItem();
        const auto it = std::find(m_devices.begin(), m_devices.end(), item);
        if (it != m_devices.end())
            return static_cast<int>(it - m_devices.begin());
    }
    return -1;
}

void GraphView::mousePressEvent(QMouseEvent* event) {
    const int device =
        event->button() == Qt::LeftButton ? deviceAt(event->position().toPoint()) : -1;
    if (device < 0) {
        QGraphicsView::mousePressEvent(event);
        return;
    }
    m_dragFrom = device;
    m_moving = event->modifiers() & Qt::ShiftModifier;
    if (m_moving)
        return;
    const QPointF from = m_devices[static_cast<size_t>(device)]->pos();
    m_rubberLink =
        scene()->addLine(QLineF(from, from), QPen(QColor(0x27, 0xae, 0x60), 2, Qt::DashLine));
    m_rubberLink->setZValue(-0.5);
}

void GraphView::mouseMoveEvent(QMouseEvent* event) {
    if (m_dragFrom >= 0 && m_moving) {
        m_devices[static_cast<size_t>(m_dragFrom)]->setPos(mapToScene(event->position().toPoint()));
        return;
    }
    if (m_dragFrom >= 0 && m_rubberLink) {
        QLineF line = m_rubberLink->line();
        line.setP2(mapToScene(event->position().toPoint()));
        m_rubberLink->setLine(line);
        return;
    }
    QGraphicsView::mouseMoveEvent(event);
}

void GraphView::mouseReleaseEvent(QMouseEvent* event) {
    if (m_dragFrom < 0) {
        QGraphicsView::mouseReleaseEvent(event);
        return;
    }
    const int from = m_dragFrom;
    m_dragFrom = -1;
    if (m_moving) {
        m_moving = false;
        emit deviceMoved(from, mapToScene(event->position().toPoint()));
        return;
    }
    delete m_rubberLink;
    m_rubberLink = nullptr;
    const int to = deviceAt(event->position().toPoint());
    if (to >= 0 && to != from) {
        emit linkDragged(from, to);
        return;
    }
    // A click: select the device (Ctrl toggles it into the selection).
    QGraphicsItem* item = m_devices[static_cast<size_t>(from)];
    if (event->modifiers() & Qt::ControlModifier) {
        item->setSelected(!item->isSelected());
    } else {
        const QSignalBlocker block(scene());
        scene()->clearSelection();
        item->setSelected(true);
        emit selectionChanged();
    }
}

int GraphView::linkAt(QPoint viewPos) const {
    // A thin line is hard to hit exactly: a few pixels around the pointer count.
    const QRect around(viewPos - QPoint(3, 3), QSize(7, 7));
    for (QGraphicsItem* item : items(around)) {
        const auto it = std::find(m_links.begin(), m_links.end(), item);
        if (it != m_links.end())
            return static_cast<int>(it - m_links.begin());
    }
    return -1;
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event) {
    const QPoint at = event->position().toPoint();
    const int link = event->button() == Qt::LeftButton && deviceAt(at) < 0 ? linkAt(at) : -1;
    if (link < 0) {
        QGraphicsView::mouseDoubleClickEvent(event);
        return;
    }
    select({}, {link});
    emit linkDoubleClicked(link, at);
    event->accept();
}

void GraphView::wheelEvent(QWheelEvent* event) {
    const double factor = std::pow(1.0015, event->angleDelta().y());
    scale(factor, factor);
    m_userZoomed = true;
    event->accept();
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    if (!m_userZoomed)
        fit();
}

} // namespace astrolabe::widgets
