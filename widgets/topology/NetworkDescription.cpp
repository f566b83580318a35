#include "topology/NetworkDescription.h"

#include "topology/MemoryTierPainter.h"
#include "topology/NetworkPainter.h"
#include "topology/UnitChoices.h"

#include <QObject>
#include <QStringList>

namespace astrolabe::widgets {

namespace {

QString idList(const std::vector<int>& ids) {
    QStringList parts;
    for (size_t i = 0; i < ids.size() && i < 8; ++i)
        parts << QString::number(ids[i]);
    if (ids.size() > 8)
        parts << QStringLiteral("\u2026 (%1 in all)").arg(ids.size());
    return parts.join(QStringLiteral(", "));
}

} // namespace

QString describeNetworkNpu(const NetworkLayout& layout, const PlatformSpec& platform,
                           const MemoryTierLayout& tier, int id) {
    const std::vector<int> c = layout.coordinates(id);
    QStringList coords;
    for (int a : c)
        coords << QString::number(a);
    QStringList lines{QObject::tr("NPU %1 at (%2)").arg(id).arg(coords.join(QStringLiteral(", ")))};
    const NetworkPainter painter(layout, platform);
    for (int d = 0; d < layout.dimensionCount(); ++d) {
        const DimensionSpec& dim = platform.dimensions[static_cast<size_t>(d)];
        const QString head = QStringLiteral("d%1 %2 %3: ")
                                 .arg(d)
                                 .arg(QLatin1String(blockKindName(dim.kind)))
                                 .arg(dim.size);
        const QString peers = idList(painter.neighbours(id, d));
        const QString bw = describeBandwidth(dim.bandwidthBytesPerSecond);
        if (dim.kind == BlockKind::Switch)
            lines << head + QObject::tr("1 link to its switch (with %1), %2").arg(peers, bw);
        else
            lines << head + QStringLiteral("\u2194 %1, %2").arg(peers, bw);
    }
    const QString memory = describeNpuMemory(tier.memory(), layout.npuCount(), id);
    if (tier.present() && !memory.isEmpty())
        lines << memory;
    return lines.join(QLatin1Char('\n'));
}

QString describeNetworkGroup(const NetworkLayout& layout, const PlatformSpec& platform,
                             const NetworkLayout::Hit& group) {
    if (group.level < 1)
        return {};
    const int per = layout.level(group.level).npusPerGroup;
    const std::vector<int> c = layout.coordinates(group.firstId);
    QStringList coords;
    for (size_t d = 0; d < c.size(); ++d)
        coords << (static_cast<int>(d) < group.level ? QStringLiteral("*") : QString::number(c[d]));
    const int d = group.level - 1;
    const DimensionSpec& dim = platform.dimensions[static_cast<size_t>(d)];
    return QObject::tr("Group of %L1 NPUs (ids %2\u2013%3) at (%4)\nbuilt by d%5: %6 %7")
        .arg(per)
        .arg(group.firstId)
        .arg(group.firstId + per - 1)
        .arg(coords.join(QStringLiteral(", ")))
        .arg(d)
        .arg(QLatin1String(blockKindName(dim.kind)))
        .arg(dim.size);
}

} // namespace astrolabe::widgets
