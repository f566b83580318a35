#pragma once
// The runs list: one row per stored run. The model is the only writer of its RunStore while it
// is attached, so every change is announced to views correctly.

#include "gui/RunStore.h"

#include <QAbstractTableModel>

namespace astrolabe::gui {

class RunsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Date, SimulatedTime, WallTime, Settings, Status, Tags, Notes, ColumnCount };
    enum Role { RunIdRole = Qt::UserRole + 1 };

    explicit RunsTableModel(QObject* parent = nullptr);

    /// Attaches a store (not owned; it must outlive the model or be replaced first).
    void setStore(RunStore* store);
    RunStore* store() const { return m_store; }

    int addRun(RunRecord record);
    bool removeRun(int id);
    bool renameRun(int id, const QString& name);
    bool setTags(int id, const QStringList& tags);
    bool setNotes(int id, const QString& notes);
    /// Attaches (or with nullptr drops) a stored run's loaded result.
    bool setResult(int id, std::shared_ptr<const RunResult> result);
    /// The record of a run id, or nullptr.
    const RunRecord* run(int id) const;
    int idAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

private:
    bool modify(int id, const std::function<void(RunRecord&)>& change);

    RunStore* m_store = nullptr;
};

} // namespace astrolabe::gui
