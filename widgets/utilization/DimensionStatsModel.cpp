#include "utilization/DimensionStatsModel.h"

#include "core/Units.h"
#include "spec/SystemConfig.h"
#include "timeline/TimeAxis.h"
#include "utilization/Oversubscribed.h"
#include "utilization/UtilizationData.h"

#include <cmath>

namespace astrolabe::widgets {

DimensionStatsModel::DimensionStatsModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void DimensionStatsModel::setResult(std::shared_ptr<const RunResult> result) {
    beginResetModel();
    m_result = std::move(result);
    m_inNetwork.clear();
    if (m_result)
        for (const PhaseSpan& p : m_result->phases)
            if (p.dimension >= 0 && p.algorithm == static_cast<uint8_t>(AlgorithmKind::InSwitch)) {
                if (m_inNetwork.size() <= static_cast<size_t>(p.dimension))
                    m_inNetwork.resize(static_cast<size_t>(p.dimension) + 1, false);
                m_inNetwork[static_cast<size_t>(p.dimension)] = true;
            }
    endResetModel();
}

bool DimensionStatsModel::reducedInNetwork(int dimension) const {
    return dimension >= 0 && static_cast<size_t>(dimension) < m_inNetwork.size() &&
           m_inNetwork[static_cast<size_t>(dimension)];
}

int DimensionStatsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_result ? 0 : static_cast<int>(m_result->dimensions.size());
}

int DimensionStatsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double DimensionStatsModel::value(int row, int column) const {
    const DimensionStats& d = m_result->dimensions[static_cast<size_t>(row)];
    const double achieved = achievedBandwidth(d, m_result->endTime);
    switch (column) {
    case Dimension:
        return d.dimension;
    case Bytes:
        return static_cast<double>(d.bytes);
    case Busy:
        return d.busy.seconds();
    case Utilization:
        return 100.0 * d.utilization;
    case Achieved:
        return achieved;
    case Peak:
        return d.peakBandwidthBytesPerSecond;
    case PercentOfPeak:
        return d.peakBandwidthBytesPerSecond > 0 ? 100.0 * achieved / d.peakBandwidthBytesPerSecond
                                                 : 0.0;
    default:
        return 0;
    }
}

QVariant DimensionStatsModel::data(const QModelIndex& index, int role) const {
    if (!m_result || !index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const double v = value(index.row(), index.column());
    if (role == Qt::UserRole)
        return v;
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (index.column() == Utilization || index.column() == PercentOfPeak)
        if (QVariant over = oversubscribedCell(v, role); over.isValid())
            return over;
    const bool inNetwork = index.column() == Dimension && reducedInNetwork(static_cast<int>(v));
    if (role == Qt::ToolTipRole && inNetwork)
        return tr("The switches of this dimension reduced in the network (inSwitch): each NPU "
                  "sent its data up once and received the result once, about half the link "
                  "traffic of a ring.");
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Dimension:
        return inNetwork ? tr("%1 · in-switch").arg(static_cast<int>(v))
                         : QVariant(static_cast<int>(v));
    case Bytes:
        return QString::fromStdString(units::formatSize(static_cast<uint64_t>(std::llround(v))));
    case Busy:
        return QString::fromStdString(formatTime(std::llround(v * 1e12)));
    case Utilization:
    case PercentOfPeak:
        return QStringLiteral("%1 %").arg(v, 0, 'f', 1);
    case Achieved: // in the family of the peak it is read against (GiB/s beside GiB/s); a
                   // derived figure, so 4 significant digits (7.922 TiB/s, not 7.92179)
        return QString::fromStdString(units::formatBandwidth(v, value(index.row(), Peak), 4));
    case Peak:
        return QString::fromStdString(units::formatBandwidth(v));
    default:
        return {};
    }
}

QVariant DimensionStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        // What the totals are over: every link of the dimension, each direction its own link,
        // so a collective that uses one direction reaches half.
        switch (section) {
        case Utilization:
        case PercentOfPeak:
            return tr("Over all the dimension's links, both directions of each: a collective that "
                      "sends one way round a ring uses half of them.");
        case Peak:
            return tr("The sum over the dimension's links, both directions of each (a ring of 8 "
                      "NPUs has 16 links).");
        case Busy:
            return tr("The mean busy time of the dimension's links, both directions of each.");
        default:
            return {};
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* names[] = {"Dim",      "Bytes", "Busy (mean)", "Utilization",
                                  "Achieved", "Peak",  "% of peak"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace astrolabe::widgets
