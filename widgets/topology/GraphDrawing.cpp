#include "topology/GraphDrawing.h"

#include "common/InterfaceScale.h"
#include "core/Error.h"
#include "topology/GraphLayout.h"
#include "topology/NetworkLayout.h"
#include "topology/NetworkPainter.h"
#include "topology/Topology.h"

#include <QFont>
#include <QPainter>
#include <QStringList>
#include <algorithm>
#include <set>
#include <utility>

namespace astrolabe::widgets {

GraphDrawing::GraphDrawing() = default;
GraphDrawing::~GraphDrawing() = default;
GraphDrawing::GraphDrawing(GraphDrawing&&) noexcept = default;
GraphDrawing& GraphDrawing::operator=(GraphDrawing&&) noexcept = default;

GraphDrawing::GraphDrawing(const PlatformSpec& platform) {
    if (!platform.graph || platform.graph->deviceCount() == 0)
        return;
    m_platform = platform;
    m_graph = *platform.graph;
    m_npus = m_graph.npus;
    m_positions =
        m_graph.hasPositions() ? givenPositions(m_graph) : layoutGraph(platform).positions;
    if (m_positions.size() != static_cast<size_t>(m_graph.deviceCount())) {
        m_positions.clear();
        return;
    }
    const auto at = [&](int d) { return m_positions[static_cast<size_t>(d)]; };
    const std::vector<char> wraps = wrapLinks(m_graph, m_positions);
    std::set<std::pair<int, int>> drawn;
    for (size_t i = 0; i < m_graph.links.size(); ++i) {
        const GraphLinkSpec& l = m_graph.links[i];
        if (l.from < 0 || l.to < 0 || l.from >= deviceCount() || l.to >= deviceCount() ||
            !drawn.emplace(std::min(l.from, l.to), std::max(l.from, l.to)).second)
            continue;
        if (i < wraps.size() && wraps[i]) {
            for (const QLineF& stub : NetworkLayout::wrapStubs(at(l.from), at(l.to)))
                m_segments.push_back(stub);
        } else {
            m_segments.emplace_back(at(l.from), at(l.to));
        }
    }
    const double r = 1.5 * kDeviceRadius;
    m_bounds = pointsBounds(m_positions).adjusted(-r, -r, r, r);
    for (const QLineF& s : m_segments)
        m_bounds = m_bounds.united(QRectF(s.p1(), s.p2()).normalized());
}

const Topology* GraphDrawing::topology() const {
    if (!m_topologyTried && !empty()) {
        m_topologyTried = true;
        try {
            m_topology = std::make_unique<Topology>(m_platform);
        } catch (const Error&) {
            // A graph the engine refuses has no run to replay; it is still drawn.
        }
    }
    return m_topology.get();
}

std::vector<int> GraphDrawing::devicesOf(int from, const std::vector<int32_t>& links) const {
    std::vector<int> devices{from};
    for (const int32_t id : links)
        devices.push_back(topology()->link(id).dst);
    return devices;
}

std::vector<int> GraphDrawing::route(int src, int dst) const {
    const Topology* t = topology();
    if (!t || src == dst)
        return {src, dst};
    std::vector<int32_t> links;
    t->appendRoute(src, dst, links);
    if (links.empty())
        return {src, dst};
    return devicesOf(src, links);
}

std::vector<int> GraphDrawing::switchRoute(int npu, int dimension, bool up) const {
    const Topology* t = topology();
    if (!t || dimension < 0 || dimension >= t->dimensionCount())
        return {};
    try {
        std::vector<int32_t> links;
        t->appendSwitchRoute(npu, dimension, up, links);
        if (links.empty())
            return {};
        return devicesOf(up ? npu : t->link(links.front()).src, links);
    } catch (const Error&) {
        return {}; // no switch reaches the whole line
    }
}

int GraphDrawing::deviceAt(QPointF p) const {
    int best = -1;
    double bestDistance = kDeviceRadius * kDeviceRadius * 1.6;
    for (int d = 0; d < deviceCount(); ++d) {
        const QPointF v = position(d) - p;
        const double distance = QPointF::dotProduct(v, v);
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = d;
        }
    }
    return best;
}

QString GraphDrawing::describeDevice(int device) const {
    if (device < 0 || device >= deviceCount())
        return {};
    std::set<int> peers;
    for (const GraphLinkSpec& l : m_graph.links) {
        if (l.from == device)
            peers.insert(l.to);
        else if (l.to == device)
            peers.insert(l.from);
    }
    QStringList names;
    for (const int peer : peers)
        names << QString::fromStdString(m_graph.deviceName(peer));
    constexpr qsizetype kShown = 12;
    const qsizetype count = names.size();
    if (count > kShown) {
        names = names.mid(0, kShown);
        names << QStringLiteral("\u2026");
    }
    return QStringLiteral("%1 \u2014 %2 %3: %4")
        .arg(QString::fromStdString(m_graph.deviceName(device)))
        .arg(count)
        .arg(count == 1 ? QStringLiteral("neighbour") : QStringLiteral("neighbours"))
        .arg(names.join(QStringLiteral(", ")));
}

void GraphDrawing::paint(QPainter& p, const NetworkViewState& state) const {
    const auto toWidget = [&](QPointF scene) { return scene * state.scale + state.offset; };
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    QPen linkPen(QColor(0x5b, 0x8d, 0xb8), std::clamp(1.2 * state.scale, 1.0, 3.0));
    p.setPen(linkPen);
    std::vector<QLineF> lines;
    lines.reserve(m_segments.size());
    for (const QLineF& s : m_segments)
        lines.emplace_back(toWidget(s.p1()), toWidget(s.p2()));
    p.drawLines(lines.data(), static_cast<int>(lines.size()));
    const double r = std::max(1.5, kDeviceRadius * state.scale);
    p.setPen(QPen(QColor(0x2c, 0x3e, 0x50), r > 3 ? 1 : 0));
    for (int d = 0; d < deviceCount(); ++d) {
        const QPointF c = toWidget(position(d));
        if (d >= m_npus) {
            p.setBrush(QColor(0xf3, 0x9c, 0x12));
            p.drawRect(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r));
        } else {
            p.setBrush(QColor(0x1f, 0x77, 0xb4));
            p.drawEllipse(c, r, r);
        }
    }
    // Names where they fit: NPU numbers inside the disks, switches as sw0, sw1 beside them.
    if (2 * r >= 18) {
        QFont font = p.font();
        font.setPixelSize(
            std::clamp(static_cast<int>(r * 0.8), InterfaceScale::px(8), InterfaceScale::px(14)));
        p.setFont(font);
        for (int d = 0; d < deviceCount(); ++d) {
            const QPointF c = toWidget(position(d));
            const bool npu = d < m_npus;
            p.setPen(npu ? Qt::white : QColor(0x22, 0x22, 0x22));
            const QRectF box = npu ? QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)
                                   : QRectF(c.x() + r + 2, c.y() - r, 6 * r, 2 * r);
            p.drawText(box, npu ? Qt::AlignCenter : (Qt::AlignLeft | Qt::AlignVCenter),
                       npu ? QString::number(d) : QString::fromStdString(m_graph.deviceName(d)));
        }
    }
    p.restore();
}

} // namespace astrolabe::widgets
