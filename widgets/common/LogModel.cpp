#include "common/LogModel.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>

namespace astrolabe::widgets {

LogModel::LogModel(QObject* parent)
    : QAbstractListModel(parent) {}

void LogModel::append(Severity severity, const QString& message) {
    if (m_entries.size() >= kMaxRows) {
        beginRemoveRows({}, 0, kDropRows - 1);
        m_entries.remove(0, kDropRows);
        endRemoveRows();
    }
    const int row = static_cast<int>(m_entries.size());
    beginInsertRows({}, row, row);
    QByteArray utf8 = message.toUtf8();
    utf8.squeeze(); // toUtf8 reserves three bytes a character
    m_entries.push_back({QDateTime::currentMSecsSinceEpoch(), severity, std::move(utf8)});
    endInsertRows();
}

void LogModel::clear() {
    beginResetModel();
    m_entries.clear();
    endResetModel();
}

int LogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

QVariant LogModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() < 0 || index.row() >= m_entries.size())
        return {};
    const Entry& e = m_entries[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return QDateTime::fromMSecsSinceEpoch(e.msecsSinceEpoch)
                   .toString(QStringLiteral("HH:mm:ss  ")) +
               QString::fromUtf8(e.utf8);
    case Qt::ForegroundRole:
        if (e.severity == Severity::Error)
            return QBrush(QColor(0xb0, 0x20, 0x20));
        if (e.severity == Severity::Warning)
            return QBrush(QColor(0x9a, 0x60, 0x00));
        return {};
    case SeverityRole:
        return static_cast<int>(e.severity);
    case TimestampRole:
        return QDateTime::fromMSecsSinceEpoch(e.msecsSinceEpoch);
    default:
        return {};
    }
}

} // namespace astrolabe::widgets
