#include "utilization/HottestLinksModel.h"

#include "core/Units.h"
#include "timeline/TimeAxis.h"
#include "utilization/Oversubscribed.h"
#include "utilization/UtilizationData.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace astrolabe::widgets {

HottestLinksModel::HottestLinksModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void HottestLinksModel::setResult(std::shared_ptr<const RunResult> result) {
    beginResetModel();
    m_result = std::move(result);
    m_order.clear();
    if (m_result) {
        m_order.resize(m_result->links.size());
        std::iota(m_order.begin(), m_order.end(), 0);
    }
    endResetModel();
    sort(Bytes, Qt::DescendingOrder);
}

int HottestLinksModel::linkAt(int row) const {
    return row >= 0 && row < static_cast<int>(m_order.size()) ? m_order[row] : -1;
}

int HottestLinksModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_order.size());
}

int HottestLinksModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString HottestLinksModel::deviceName(int device) const {
    return device < m_result->npuCount
               ? QStringLiteral("NPU %1").arg(device)
               : QStringLiteral("switch %1").arg(device - m_result->npuCount);
}

double HottestLinksModel::value(int link, int column) const {
    const LinkInfo& info = m_result->links[link];
    const LinkStats stats = static_cast<size_t>(link) < m_result->linkStats.size()
                                ? m_result->linkStats[link]
                                : LinkStats{};
    const double end = m_result->endTime.seconds();
    switch (column) {
    case Link:
        return link;
    case From:
        return info.src;
    case To:
        return info.dst;
    case Dimension:
        return info.dimension;
    case Bytes:
        return static_cast<double>(stats.bytes);
    case Busy:
        return stats.busy.seconds();
    case Utilization:
        return end > 0 ? 100.0 * stats.busy.seconds() / end : 0.0;
    case Achieved:
        return end > 0 ? static_cast<double>(stats.bytes) / end : 0.0;
    case Peak:
        return info.bandwidthBytesPerSecond;
    default:
        return 0;
    }
}

QVariant HottestLinksModel::data(const QModelIndex& index, int role) const {
    if (!m_result || !index.isValid() || index.row() >= static_cast<int>(m_order.size()) ||
        index.column() >= ColumnCount)
        return {};
    const int link = m_order[index.row()];
    const double v = value(link, index.column());
    if (role == Qt::UserRole)
        return v;
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Bytes ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (index.column() == Utilization)
        if (QVariant over = oversubscribedCell(v, role); over.isValid())
            return over;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case From:
        return deviceName(m_result->links[link].src);
    case To:
        return deviceName(m_result->links[link].dst);
    case Bytes:
        return QString::fromStdString(units::formatSize(static_cast<uint64_t>(std::llround(v))));
    case Busy:
        return QString::fromStdString(formatTime(std::llround(v * 1e12)));
    case Utilization:
        return QStringLiteral("%1 %").arg(v, 0, 'f', 1);
    case Achieved: // in the family of the peak it is read against (GiB/s beside GiB/s); a
                   // derived figure, so 4 significant digits (7.922 TiB/s, not 7.92179)
        return QString::fromStdString(units::formatBandwidth(v, value(link, Peak), 4));
    case Peak:
        return QString::fromStdString(units::formatBandwidth(v));
    default:
        return static_cast<qlonglong>(v);
    }
}

QVariant HottestLinksModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* names[] = {"Link", "From",        "To",       "Dim", "Bytes",
                                  "Busy", "Utilization", "Achieved", "Peak"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

void HottestLinksModel::sort(int column, Qt::SortOrder order) {
    if (!m_result || column < 0 || column >= ColumnCount)
        return;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<int> linksBefore;
    for (const QModelIndex& index : before)
        linksBefore.push_back(m_order[index.row()]);
    // One key per link, computed once: a 16^4 torus has 524,288 links, and calling value() in
    // the comparison would compute each key about log2(n) = 19 times, on the GUI thread.
    std::vector<double> key(m_result->links.size());
    for (size_t link = 0; link < key.size(); ++link)
        key[link] = value(static_cast<int>(link), column);
    std::stable_sort(m_order.begin(), m_order.end(), [&](int a, int b) {
        return order == Qt::AscendingOrder ? key[a] < key[b] : key[a] > key[b];
    });
    std::vector<int> rowOfLink(m_order.size());
    for (size_t row = 0; row < m_order.size(); ++row)
        rowOfLink[m_order[row]] = static_cast<int>(row);
    QModelIndexList after;
    for (size_t i = 0; i < linksBefore.size(); ++i)
        after << index(rowOfLink[linksBefore[i]], before[i].column());
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace astrolabe::widgets
