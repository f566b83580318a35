#pragma once
// The compared runs' settings side by side: one row per flattened setting (export/Comparison.h),
// one column per run. Rows whose values differ are bold on a tinted background.

#include "compare/CompareRun.h"
#include "export/Comparison.h"

#include <QAbstractTableModel>

namespace astrolabe::widgets {

class SettingsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// True for rows whose value differs between runs (Qt::UserRole).
    static constexpr int DiffersRole = Qt::UserRole;
    /// The numeric value when the setting is a number (Qt::UserRole + 1), else invalid.
    static constexpr int NumericRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;
    void setRuns(const CompareRuns& runs);
    /// Shows only the rows that differ (the table of a sweep is otherwise mostly equal rows).
    void setOnlyDifferences(bool only);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    const std::vector<SettingRow>& allRows() const { return m_all; }
    /// The row index of a setting key in the current view, or -1.
    int rowOfKey(const std::string& key) const;

private:
    void rebuildVisible();

    QStringList m_names;
    std::vector<SettingRow> m_all;
    std::vector<const SettingRow*> m_visible;
    bool m_onlyDifferences = false;
};

} // namespace astrolabe::widgets
