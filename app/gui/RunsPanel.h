#pragma once
// The runs list (a dock): name, date, simulated and wall time, key settings, status, tags, notes.
// Double-click a name, tag or note to edit it; the context menu renames, tags, annotates and
// deletes.

#include <QWidget>

class QTableView;

namespace astrolabe::gui {

class RunsTableModel;

class RunsPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunsPanel(RunsTableModel* model, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    /// The selected run's id, or 0.
    int selectedRunId() const;
    void selectRun(int id);
    /// Deletes the selected run after asking (no question when `ask` is false).
    void deleteSelected(bool ask = true);

signals:
    void runSelected(int id);

private:
    void showContextMenu(const QPoint& pos);
    void editColumn(int column);

    RunsTableModel* m_model;
    QTableView* m_view;
};

} // namespace astrolabe::gui
