#include "gui/RunsTableModel.h"

#include "core/Units.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

namespace astrolabe::gui {

namespace {
QString wallText(double seconds) {
    if (seconds < 1)
        return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'f', 1);
    return QStringLiteral("%1 s").arg(seconds, 0, 'f', 2);
}
} // namespace

RunsTableModel::RunsTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void RunsTableModel::setStore(RunStore* store) {
    beginResetModel();
    m_store = store;
    endResetModel();
}

int RunsTableModel::addRun(RunRecord record) {
    if (!m_store)
        return 0;
    const int row = m_store->count();
    beginInsertRows({}, row, row);
    const int id = m_store->add(std::move(record));
    endInsertRows();
    return id;
}

bool RunsTableModel::removeRun(int id) {
    const int row = m_store ? m_store->rowOf(id) : -1;
    if (row < 0)
        return false;
    beginRemoveRows({}, row, row);
    m_store->remove(id);
    endRemoveRows();
    return true;
}

bool RunsTableModel::modify(int id, const std::function<void(RunRecord&)>& change) {
    const int row = m_store ? m_store->rowOf(id) : -1;
    if (row < 0)
        return false;
    RunRecord record = m_store->at(row);
    change(record);
    if (!m_store->update(record))
        return false;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    return true;
}

bool RunsTableModel::renameRun(int id, const QString& name) {
    if (name.trimmed().isEmpty())
        return false;
    return modify(id, [&](RunRecord& r) { r.name = name.trimmed(); });
}

bool RunsTableModel::setTags(int id, const QStringList& tags) {
    QStringList clean;
    for (const QString& t : tags)
        if (!t.trimmed().isEmpty() && !clean.contains(t.trimmed()))
            clean << t.trimmed();
    return modify(id, [&](RunRecord& r) { r.tags = clean; });
}

bool RunsTableModel::setNotes(int id, const QString& notes) {
    return modify(id, [&](RunRecord& r) { r.notes = notes; });
}

bool RunsTableModel::setResult(int id, std::shared_ptr<const RunResult> result) {
    return modify(id, [&](RunRecord& r) { r.result = std::move(result); });
}

const RunRecord* RunsTableModel::run(int id) const {
    const int row = m_store ? m_store->rowOf(id) : -1;
    return row < 0 ? nullptr : &m_store->at(row);
}

int RunsTableModel::idAt(int row) const {
    return m_store && row >= 0 && row < m_store->count() ? m_store->at(row).id : 0;
}

int RunsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_store ? 0 : m_store->count();
}

int RunsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunsTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
        !m_store)
        return {};
    const RunRecord& r = m_store->at(index.row());
    if (role == RunIdRole)
        return r.id;
    if (role == Qt::ForegroundRole && index.column() == Status) {
        if (r.status == RunStatus::Failed)
            return QBrush(QColor(0xc6, 0x28, 0x28));
        if (r.status == RunStatus::Cancelled)
            return QBrush(QColor(0x9a, 0x60, 0x00));
        return {};
    }
    if (role == Qt::ToolTipRole && index.column() == Status && !r.message.isEmpty())
        return r.message;
    if (role == Qt::TextAlignmentRole &&
        (index.column() == SimulatedTime || index.column() == WallTime))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    switch (index.column()) {
    case Name:
        return r.name;
    case Date:
        return role == Qt::EditRole
                   ? QVariant(r.started)
                   : QVariant(r.started.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    case SimulatedTime:
        return r.status == RunStatus::Finished
                   ? QString::fromStdString(
                         units::formatTime(r.simulatedTime, units::TimeSpelling::MicroSign))
                   : QStringLiteral("\u2014");
    case WallTime:
        return wallText(r.wallSeconds);
    case Settings:
        return keySettings(r.spec);
    case Status:
        return runStatusName(r.status); // the message is the cell's tooltip
    case Tags:
        return r.tags.join(QStringLiteral(", "));
    case Notes:
        return r.notes;
    default:
        return {};
    }
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Name");
    case Date:
        return tr("Date");
    case SimulatedTime:
        return tr("Simulated time");
    case WallTime:
        return tr("Wall time");
    case Settings:
        return tr("Key settings");
    case Status:
        return tr("Status");
    case Tags:
        return tr("Tags");
    case Notes:
        return tr("Notes");
    default:
        return {};
    }
}

Qt::ItemFlags RunsTableModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() &&
        (index.column() == Name || index.column() == Tags || index.column() == Notes))
        f |= Qt::ItemIsEditable;
    return f;
}

bool RunsTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const int id = idAt(index.row());
    switch (index.column()) {
    case Name:
        return renameRun(id, value.toString());
    case Tags:
        return setTags(id, value.toString().split(u','));
    case Notes:
        return setNotes(id, value.toString());
    default:
        return false;
    }
}

} // namespace astrolabe::gui
