#include "timeline/TimelineText.h"

#include "core/Units.h"
#include "spec/SystemConfig.h"
#include "timeline/TimeAxis.h"

namespace astrolabe::widgets {

QString formatBytes(uint64_t bytes) {
    return QString::fromStdString(units::formatSize(bytes));
}

QString timeText(int64_t ps) {
    return QString::fromStdString(formatTime(ps));
}

QString activityTooltip(const TimelineSource& source, const ActivityInterval& a,
                        const std::optional<PhaseSpan>& phase) {
    const auto& names = source.names();
    const QString name = a.nameIndex < names.size() ? QString::fromStdString(names[a.nameIndex])
                                                    : QStringLiteral("node %1").arg(a.nodeId);
    QString text = QStringLiteral("<b>%1</b><br>NPU %2 &middot; node %3 &middot; %4")
                       .arg(name.toHtmlEscaped())
                       .arg(a.npu)
                       .arg(a.nodeId)
                       .arg(QString::fromLatin1(nodeTypeName(a.nodeType)));
    if (const CollectiveSpan* c = source.collective(a.npu, a.nodeId))
        text += QStringLiteral("<br>%1 of %2, %3 chunks")
                    .arg(QString::fromLatin1(collectiveTypeName(c->type)))
                    .arg(formatBytes(c->sizeBytes))
                    .arg(c->chunks);
    else if (a.bytes > 0)
        text += QStringLiteral("<br>size %1").arg(formatBytes(a.bytes));
    text += QStringLiteral("<br>start %1 &middot; duration %2")
                .arg(timeText(a.start.ps()), timeText((a.end - a.start).ps()));
    if (phase) {
        text +=
            QStringLiteral("<br>chunk %1 &middot; phase %2 (%3) &middot; %4")
                .arg(phase->chunk)
                .arg(phase->phase)
                .arg(QString::fromLatin1(
                    collectiveKindName(static_cast<CollectiveKind>(phase->phaseKind))))
                .arg(phase->dimension < 0 ? QStringLiteral("all dimensions")
                                          : QStringLiteral("dimension %1").arg(phase->dimension));
    }
    if (criticalPathIndex(source, a.npu, a.nodeId) >= 0)
        text += QStringLiteral("<br><span style='color:#d62728'>on the critical path</span>");
    return text;
}

int criticalPathIndex(const TimelineSource& source, int npu, uint64_t nodeId) {
    const auto& path = source.criticalPath();
    for (size_t i = 0; i < path.size(); ++i)
        if (path[i].first == npu && path[i].second == nodeId)
            return static_cast<int>(i);
    return -1;
}

} // namespace astrolabe::widgets
