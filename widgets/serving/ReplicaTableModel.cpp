#include "serving/ReplicaTableModel.h"

namespace astrolabe::widgets {

void ReplicaTableModel::setResult(std::shared_ptr<const serving::ServingResult> result) {
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

int ReplicaTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_result ? 0 : int(m_result->replicas.size());
}

int ReplicaTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReplicaTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !m_result || index.row() >= rowCount())
        return {};
    const serving::ReplicaStats& s = m_result->replicas[size_t(index.row())];
    const double duration = m_result->summary.durationSeconds;
    const double busy = duration > 0 ? s.busySeconds / duration : 0;
    if (role == Qt::TextAlignmentRole)
        return index.column() == Pool ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole && index.column() == Busy)
        return busy;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Replica:
        return index.row();
    case Pool:
        return QString::fromLatin1(serving::poolRoleName(s.role));
    case Gpus:
        return s.gpus;
    case Busy:
        return QString::number(busy * 100, 'f', 1) + QLatin1Char('%');
    case Iterations:
        return qlonglong(s.iterations);
    case Requests:
        return qlonglong(s.requests);
    case Tokens:
        return qlonglong(s.tokens);
    default:
        return {};
    }
}

QVariant ReplicaTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* names[] = {"Replica",    "Pool",     "GPUs",  "Busy",
                                  "Iterations", "Requests", "Tokens"};
    return section >= 0 && section < ColumnCount ? QVariant(tr(names[section])) : QVariant();
}

} // namespace astrolabe::widgets
