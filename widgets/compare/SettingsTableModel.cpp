#include "compare/SettingsTableModel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace astrolabe::widgets {

void SettingsTableModel::setRuns(const CompareRuns& runs) {
    beginResetModel();
    m_names.clear();
    std::vector<SimulationSpec> specs;
    for (const CompareRun& r : runs) {
        m_names << r.name;
        specs.push_back(r.spec);
    }
    m_all = compareSettings(specs);
    rebuildVisible();
    endResetModel();
}

void SettingsTableModel::setOnlyDifferences(bool only) {
    if (only == m_onlyDifferences)
        return;
    beginResetModel();
    m_onlyDifferences = only;
    rebuildVisible();
    endResetModel();
}

void SettingsTableModel::rebuildVisible() {
    m_visible.clear();
    for (const SettingRow& row : m_all)
        if (!m_onlyDifferences || row.differs)
            m_visible.push_back(&row);
}

int SettingsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_visible.size());
}

int SettingsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 1 + static_cast<int>(m_names.size());
}

QVariant SettingsTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const SettingRow& row = *m_visible[static_cast<size_t>(index.row())];
    const int run = index.column() - 1;
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        if (run < 0)
            return role == Qt::ToolTipRole ? QString::fromStdString(row.key)
                                           : QString::fromStdString(row.label);
        return QString::fromStdString(row.texts[static_cast<size_t>(run)]);
    case Qt::FontRole:
        if (row.differs) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::BackgroundRole:
        if (row.differs)
            return QBrush(QColor(255, 236, 179)); // amber 100: "this is what changed"
        return {};
    case DiffersRole:
        return row.differs;
    case NumericRole:
        if (run >= 0 && row.numeric[static_cast<size_t>(run)])
            return *row.numeric[static_cast<size_t>(run)];
        return {};
    default:
        return {};
    }
}

QVariant SettingsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    if (section == 0)
        return tr("Setting");
    if (section >= 1 && section <= m_names.size())
        return headerName(m_names[section - 1]);
    return {};
}

int SettingsTableModel::rowOfKey(const std::string& key) const {
    for (size_t i = 0; i < m_visible.size(); ++i)
        if (m_visible[i]->key == key)
            return static_cast<int>(i);
    return -1;
}

} // namespace astrolabe::widgets
