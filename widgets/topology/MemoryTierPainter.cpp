#include "topology/MemoryTierPainter.h"

#include "common/InterfaceScale.h"
#include "core/Units.h"
#include "topology/DimensionColors.h"
#include "topology/MemoryTierMath.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainter>
#include <algorithm>

namespace astrolabe::widgets {

namespace {

QString bandwidthText(uint64_t bytesPerNs) {
    return QString::fromStdString(units::formatBandwidth(static_cast<double>(bytesPerNs) * 1e9));
}

QString latencyText(uint64_t ns) {
    return QString::fromStdString(units::formatTime(SimTime::fromNs(static_cast<int64_t>(ns)),
                                                    units::TimeSpelling::MicroSign));
}

QString range(const char* noun, int64_t first, int64_t count) {
    return count == 1 ? QStringLiteral("%1 %2").arg(QLatin1String(noun)).arg(first)
                      : QStringLiteral("%1s %2\u2013%3")
                            .arg(QLatin1String(noun))
                            .arg(first)
                            .arg(first + count - 1);
}

QRectF toWidget(const QRectF& r, const NetworkViewState& s) {
    return QRectF(r.topLeft() * s.scale + s.offset, r.size() * s.scale);
}

// The text written in a box when it is wide enough: "g3", "g0–7", "n2", "pool".
QString boxLabel(const MemoryTierLayout& tier, const MemoryTierLayout::Box& b) {
    const RemoteMemoryType type = tier.memory().type;
    if (type == RemoteMemoryType::MemoryPool)
        return QObject::tr("pool");
    const QString prefix =
        type == RemoteMemoryType::Pooled ? QStringLiteral("g") : QStringLiteral("n");
    return b.count == 1
               ? prefix + QString::number(b.first)
               : QStringLiteral("%1%2\u2013%3").arg(prefix).arg(b.first).arg(b.first + b.count - 1);
}

// The lines written under the band.
QStringList bandLabels(const RemoteMemoryConfig& m, int64_t npus) {
    const QString bw = bandwidthText(m.bandwidthBytesPerNs);
    const QString lat = latencyText(m.latencyNs);
    switch (m.type) {
    case RemoteMemoryType::PerNpuMemoryExpansion:
        return {QObject::tr("memory per NPU: %1, %2 each").arg(bw, lat)};
    case RemoteMemoryType::PerNodeMemoryExpansion:
        return {QObject::tr("%1 nodes \u00d7 %2 NPUs: one memory per node, %3, %4")
                    .arg(m.numNodes)
                    .arg(m.numNpusPerNode)
                    .arg(bw, lat)};
    case RemoteMemoryType::MemoryPool:
        return {QObject::tr("one memory pool for %L1 NPUs: %2, %3").arg(npus).arg(bw, lat)};
    case RemoteMemoryType::Pooled:
        return {QObject::tr("in-node pooled fabric: %1 NPU ports \u00d7 %2")
                    .arg(npus)
                    .arg(bandwidthText(m.fabricBytesPerNs)),
                QObject::tr("%1 memory groups \u00d7 %2, %3 \u00b7 NPU r \u2192 group r mod %1")
                    .arg(m.groups)
                    .arg(bw, lat)};
    case RemoteMemoryType::NoMemoryExpansion:
        break;
    }
    return {};
}

// Hovering a box shows whom it serves: a ring around each of its NPUs and their links drawn over
// the network (up to kMaxNpuLinks NPUs, in the scene transform).
void paintServedNpus(QPainter& p, const NpuSites& sites, const MemoryTierLayout& tier,
                     const MemoryTierLayout::Box& box) {
    const int64_t npus = sites.count;
    if (npus > MemoryTierLayout::kMaxNpuLinks)
        return;
    QPen pen(memoryTierColor().darker(120), InterfaceScale::penWidth(2));
    pen.setCosmetic(true);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    const double r = 1.5 * NetworkLayout::kNodeRadius;
    const bool pooled = tier.memory().type == RemoteMemoryType::Pooled;
    for (int64_t id = 0; id < npus; ++id) {
        const int64_t device = memoryDeviceOf(tier.memory(), npus, id);
        if (device < box.first || device >= box.first + box.count)
            continue;
        const QPointF at = sites.at(id);
        const QPointF to = pooled ? QPointF(at.x(), tier.fabric().top())
                                  : QPointF(box.rect.center().x(), box.rect.top());
        const QLineF link(at, to);
        p.drawEllipse(at, r, r);
        if (link.length() > r)
            p.drawLine(link.pointAt(r / link.length()), to);
    }
}

} // namespace

QColor memoryTierColor() {
    return QColor(0xc2, 0x3b, 0x8a);
}

QString memoryTierSummary(const RemoteMemoryConfig& m, int64_t npus) {
    const QString type = QString::fromStdString(memoryTypeLabel(m.type));
    const QString bw = bandwidthText(m.bandwidthBytesPerNs);
    const QString lat = latencyText(m.latencyNs);
    switch (m.type) {
    case RemoteMemoryType::NoMemoryExpansion:
        return QObject::tr("no memory tier");
    case RemoteMemoryType::PerNpuMemoryExpansion:
    case RemoteMemoryType::MemoryPool:
        return QStringLiteral("%1: %2, %3").arg(type, bw, lat);
    case RemoteMemoryType::PerNodeMemoryExpansion:
        return QObject::tr("%1: %2 \u00d7 %3 NPUs, %4, %5")
            .arg(type)
            .arg(m.numNodes)
            .arg(m.numNpusPerNode)
            .arg(bw, lat);
    case RemoteMemoryType::Pooled: {
        const QString summary = QObject::tr("%1: %2 groups \u00d7 %3, ports %4, %5")
                                    .arg(type)
                                    .arg(m.groups)
                                    .arg(bw, bandwidthText(m.fabricBytesPerNs), lat);
        return m.switchDimension < 0 ? summary
                                     : QObject::tr("%1, through dimension %2's switches")
                                           .arg(summary)
                                           .arg(m.switchDimension);
    }
    }
    Q_UNUSED(npus);
    return type;
}

QString describeNpuMemory(const RemoteMemoryConfig& m, int64_t npus, int npu) {
    if (!hasMemoryTier(m))
        return {};
    const int64_t device = memoryDeviceOf(m, npus, npu);
    switch (m.type) {
    case RemoteMemoryType::PerNpuMemoryExpansion:
        return QObject::tr("memory: its own, %1").arg(bandwidthText(m.bandwidthBytesPerNs));
    case RemoteMemoryType::PerNodeMemoryExpansion:
        return device < 0 ? QObject::tr("memory: none (beyond the nodes' NPUs)")
                          : QObject::tr("memory: node %1's (%2 / %3)")
                                .arg(device)
                                .arg(npu)
                                .arg(m.numNpusPerNode);
    case RemoteMemoryType::MemoryPool:
        return QObject::tr("memory: the shared pool");
    case RemoteMemoryType::Pooled:
        return device < 0 ? QString()
                          : QObject::tr("memory: group %1 (%2 mod %3) through its %4 port")
                                .arg(device)
                                .arg(npu)
                                .arg(m.groups)
                                .arg(bandwidthText(m.fabricBytesPerNs));
    case RemoteMemoryType::NoMemoryExpansion:
        break;
    }
    return {};
}

QString describeMemoryHit(const MemoryTierLayout& tier, const MemoryTierLayout::Hit& hit,
                          int64_t npus) {
    using Part = MemoryTierLayout::Hit::Part;
    const RemoteMemoryConfig& m = tier.memory();
    const QString bw = bandwidthText(m.bandwidthBytesPerNs);
    const QString lat = latencyText(m.latencyNs);
    switch (hit.part) {
    case Part::None:
        return {};
    case Part::Fabric:
        return QObject::tr("In-node pooled fabric: one port per NPU (%1 ports) at %2;\nan NPU's "
                           "accesses pass its port one at a time")
            .arg(npus)
            .arg(bandwidthText(m.fabricBytesPerNs));
    case Part::NpuMemory:
        return QObject::tr("Memory of NPU %1: %2, %3").arg(hit.index).arg(bw, lat);
    case Part::Box:
        break;
    }
    const MemoryTierLayout::Box& b = tier.boxes().at(static_cast<size_t>(hit.index));
    switch (m.type) {
    case RemoteMemoryType::PerNodeMemoryExpansion: {
        const int64_t p = std::max(m.numNpusPerNode, 1);
        const int64_t firstNpu = b.first * p;
        const int64_t lastNpu = std::min<int64_t>((b.first + b.count) * p, npus) - 1;
        return QObject::tr("%1: one memory each, %2, %3\nserves NPUs %4\u2013%5 (in arrival order)")
            .arg(range("Node", b.first, b.count), bw, lat)
            .arg(firstNpu)
            .arg(lastNpu);
    }
    case RemoteMemoryType::MemoryPool:
        return QObject::tr("Shared memory pool: %1, %2\nserves all %3 NPUs, one access at a time")
            .arg(bw, lat)
            .arg(npus);
    case RemoteMemoryType::Pooled: {
        QString serves;
        if (b.count == 1 && m.groups > 0) {
            QStringList ids;
            for (int64_t r = b.first; r < npus && ids.size() < 6; r += m.groups)
                ids << QString::number(r);
            const int64_t total = b.first < npus ? (npus - 1 - b.first) / m.groups + 1 : 0;
            serves = total == 0
                         ? QObject::tr("serves no NPU (more groups than NPUs)")
                         : QObject::tr("serves NPUs %1%2 (r mod %3 = %4)")
                               .arg(ids.join(QStringLiteral(", ")))
                               .arg(total > ids.size() ? QStringLiteral(", \u2026") : QString())
                               .arg(m.groups)
                               .arg(b.first);
        } else {
            serves = QObject::tr("NPU r is served by group r mod %1").arg(m.groups);
        }
        return QObject::tr("Memory %1: %2 each, %3\n%4")
            .arg(range("group", b.first, b.count), bw, lat, serves);
    }
    default:
        return {};
    }
}

void paintMemoryLinks(QPainter& p, const MemoryTierLayout& tier, const NetworkViewState& state) {
    if (!tier.present() || tier.links().empty())
        return;
    p.save();
    p.translate(state.offset);
    p.scale(state.scale, state.scale);
    p.setRenderHint(QPainter::Antialiasing, true);
    QPen pen(tint(memoryTierColor(), 0.55), InterfaceScale::penWidth(1.2));
    pen.setCosmetic(true);
    p.setPen(pen);
    p.drawLines(tier.links().data(), static_cast<int>(tier.links().size()));
    p.restore();
}

namespace {

QRectF visibleScene(const QRectF& widgetRect, const NetworkViewState& state) {
    const double s = state.scale;
    return QRectF((widgetRect.left() - state.offset.x()) / s,
                  (widgetRect.top() - state.offset.y()) / s, widgetRect.width() / s,
                  widgetRect.height() / s);
}

// Everything of the tier but its labels and links, in scene units: per-npu the given boxes
// (one per NPU, or per collapsed tile), otherwise the fabric and the band's boxes; the hovered
// part outlined and, for a box, the NPUs it serves ringed.
int paintTierShapes(QPainter& p, const NpuSites& sites, const MemoryTierLayout& tier,
                    const std::vector<QRectF>& npuBoxes, const NetworkViewState& state,
                    const QRectF& widgetRect, bool selected, const MemoryTierLayout::Hit& hovered) {
    const QColor color = memoryTierColor();
    const double s = state.scale;
    const QRectF visible = visibleScene(widgetRect, state);
    p.save();
    p.translate(state.offset);
    p.scale(s, s);
    p.setRenderHint(QPainter::Antialiasing, true);
    QPen outline(color.darker(130), InterfaceScale::penWidth(selected ? 2.5 : 1));
    outline.setCosmetic(true);
    int drawn = 0;
    if (tier.memory().type == RemoteMemoryType::PerNpuMemoryExpansion) {
        const bool detailed = npuBoxes.empty() || npuBoxes.front().height() * s >= 4;
        p.setBrush(selected ? color.darker(115) : color);
        if (detailed) {
            p.setPen(outline);
        } else {
            p.setPen(Qt::NoPen);
            p.setRenderHint(QPainter::Antialiasing, false);
        }
        p.drawRects(npuBoxes.data(), static_cast<int>(npuBoxes.size()));
        drawn = static_cast<int>(npuBoxes.size());
    } else {
        if (!tier.fabric().isEmpty()) {
            p.setPen(outline);
            p.setBrush(tint(color, 0.35));
            p.drawRoundedRect(tier.fabric(), 3, 3);
        }
        p.setPen(outline);
        p.setBrush(tint(color, 0.8));
        for (const MemoryTierLayout::Box& b : tier.boxes()) {
            if (!visible.intersects(b.rect))
                continue;
            p.drawRoundedRect(b.rect, 2, 2);
            ++drawn;
        }
        if (selected) {
            QPen red(QColor(0xe7, 0x4c, 0x3c), InterfaceScale::penWidth(2));
            red.setCosmetic(true);
            p.setPen(red);
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(tier.band().adjusted(-4, -4, 4, 4), 4, 4);
        }
    }
    using Part = MemoryTierLayout::Hit::Part;
    if (hovered.part == Part::Box)
        paintServedNpus(p, sites, tier, tier.boxes().at(static_cast<size_t>(hovered.index)));
    if (hovered.part == Part::Box || hovered.part == Part::Fabric) {
        QPen pen(QColor(0x2c, 0x3e, 0x50), InterfaceScale::penWidth(1.5));
        pen.setCosmetic(true);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(hovered.part == Part::Fabric
                       ? tier.fabric()
                       : tier.boxes().at(static_cast<size_t>(hovered.index)).rect);
    }
    p.restore();
    return drawn;
}

} // namespace

int paintMemoryTier(QPainter& p, const NetworkLayout& layout, const MemoryTierLayout& tier,
                    const NetworkViewState& state, const QRectF& widgetRect, bool selected,
                    const MemoryTierLayout::Hit& hovered) {
    if (!tier.present())
        return 0;
    std::vector<QRectF> npuBoxes;
    if (tier.memory().type == RemoteMemoryType::PerNpuMemoryExpansion) {
        // Aggregated as the NPUs are: one box per NPU at detail, one bar per collapsed tile.
        const QRectF visible = visibleScene(widgetRect, state);
        const int level = state.collapseLevel;
        const int per = layout.level(level).npusPerGroup;
        for (int first = 0; first < layout.npuCount(); first += per) {
            const QPointF centre = layout.groupCentre(level, first);
            const QRectF r =
                level == 0 ? MemoryTierLayout::npuMemoryRect(centre)
                           : MemoryTierLayout::tileMemoryRect(layout.groupRect(level, centre));
            if (visible.intersects(r))
                npuBoxes.push_back(r);
        }
    }
    return paintTierShapes(p, NpuSites::of(layout), tier, npuBoxes, state, widgetRect, selected,
                           hovered);
}

int paintMemoryTier(QPainter& p, const NpuSites& sites, const MemoryTierLayout& tier,
                    const NetworkViewState& state, const QRectF& widgetRect, bool selected,
                    const MemoryTierLayout::Hit& hovered) {
    if (!tier.present())
        return 0;
    std::vector<QRectF> npuBoxes;
    if (tier.memory().type == RemoteMemoryType::PerNpuMemoryExpansion) {
        const QRectF visible = visibleScene(widgetRect, state);
        for (int64_t id = 0; id < sites.count; ++id)
            if (const QRectF r = MemoryTierLayout::npuMemoryRect(sites.at(id));
                visible.intersects(r))
                npuBoxes.push_back(r);
    }
    return paintTierShapes(p, sites, tier, npuBoxes, state, widgetRect, selected, hovered);
}

void paintMemoryTierLabels(QPainter& p, const MemoryTierLayout& tier, int64_t npus,
                           const NetworkViewState& state, const QRectF& widgetRect) {
    if (!tier.present())
        return;
    // In widget coordinates, at the legend's size at every zoom.
    const QColor color = memoryTierColor();
    p.save();
    QFont font = p.font();
    font.setPixelSize(InterfaceScale::px(11));
    p.setFont(font);
    const QFontMetricsF fm(font);
    p.setPen(InterfaceScale::pick(color.darker(170), Qt::black));
    for (const MemoryTierLayout::Box& b : tier.boxes()) {
        const QRectF r = toWidget(b.rect, state);
        const QString text = boxLabel(tier, b);
        if (r.width() >= fm.horizontalAdvance(text) + 4 && r.height() >= fm.height() &&
            widgetRect.intersects(r))
            p.drawText(r, Qt::AlignCenter, text);
    }
    const QRectF band = toWidget(tier.band(), state);
    double y = band.bottom() + 3;
    for (const QString& line : bandLabels(tier.memory(), npus)) {
        const double w = fm.horizontalAdvance(line) + 4;
        p.drawText(QRectF(band.center().x() - w / 2, y, w, fm.height()), Qt::AlignCenter, line);
        y += fm.height() + 1;
    }
    p.restore();
}

} // namespace astrolabe::widgets
