#include "topology/BlockMime.h"

#include "topology/UnitChoices.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMimeData>
#include <QStringList>

namespace astrolabe::widgets {

QByteArray encodeDimensions(const std::vector<DimensionSpec>& dimensions) {
    QJsonArray array;
    for (const DimensionSpec& d : dimensions) {
        QJsonObject o;
        o[QStringLiteral("kind")] = QString::fromLatin1(blockKindName(d.kind));
        o[QStringLiteral("size")] = d.size;
        o[QStringLiteral("bandwidthBytesPerSecond")] = d.bandwidthBytesPerSecond;
        o[QStringLiteral("latencyNs")] = d.latencyNs;
        array.append(o);
    }
    return QJsonDocument(array).toJson(QJsonDocument::Compact);
}

std::vector<DimensionSpec> decodeDimensions(const QByteArray& payload) {
    const QJsonDocument doc = QJsonDocument::fromJson(payload);
    if (!doc.isArray())
        return {};
    std::vector<DimensionSpec> dimensions;
    for (const QJsonValue& v : doc.array()) {
        const QJsonObject o = v.toObject();
        const QString kind = o.value(QStringLiteral("kind")).toString();
        DimensionSpec d;
        bool known = false;
        for (BlockKind k : {BlockKind::Ring, BlockKind::FullyConnected, BlockKind::Switch}) {
            if (kind == QLatin1String(blockKindName(k))) {
                d.kind = k;
                known = true;
            }
        }
        if (!known)
            return {};
        d.size = o.value(QStringLiteral("size")).toInt(0);
        d.bandwidthBytesPerSecond = o.value(QStringLiteral("bandwidthBytesPerSecond")).toDouble();
        d.latencyNs = o.value(QStringLiteral("latencyNs")).toDouble();
        dimensions.push_back(d);
    }
    return dimensions;
}

QMimeData* makeBlockMimeData(const std::vector<DimensionSpec>& dimensions) {
    auto* mime = new QMimeData;
    mime->setData(QString::fromLatin1(kBlockMimeType), encodeDimensions(dimensions));
    QStringList lines;
    for (const DimensionSpec& d : dimensions)
        lines << describeDimension(d);
    mime->setText(lines.join(QLatin1Char('\n')));
    return mime;
}

std::vector<DimensionSpec> dimensionsFromMimeData(const QMimeData* mime) {
    if (!mime || !mime->hasFormat(QString::fromLatin1(kBlockMimeType)))
        return {};
    return decodeDimensions(mime->data(QString::fromLatin1(kBlockMimeType)));
}

QString describeDimension(const DimensionSpec& d) {
    const UnitChoice& bw = bandwidthUnits()[preferredBandwidthUnit(d.bandwidthBytesPerSecond)];
    return QStringLiteral("%1 %2 @ %3 %4, %5 ns")
        .arg(QString::fromLatin1(blockKindName(d.kind)))
        .arg(d.size)
        .arg(d.bandwidthBytesPerSecond / bw.factor, 0, 'g', 6)
        .arg(bw.name)
        .arg(d.latencyNs, 0, 'g', 8);
}

} // namespace astrolabe::widgets
