#pragma once
// The runs list (a dock): name, date, simulated and wall time, key settings, status, tags, notes.
// Double-click a name, tag or note to edit it; the context menu renames, tags, annotates and
// deletes.

#include <QWidget>

class QPushButton;
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
    /// The ids of every selected row, in list order.
    QList<int> selectedRunIds() const;
    /// Asks to compare the selected runs (2 to 6 of them).
    void compareSelected();
    void selectRun(int id);
    /// Deletes the selected run after asking (no question when `ask` is false).
    void deleteSelected(bool ask = true);

signals:
    void runSelected(int id);
    void compareRequested(const QList<int>& ids);

private:
    void showContextMenu(const QPoint& pos);
    /// "Compare selected" is enabled for 2 to 6 selected runs.
    void updateCompare();
    void editColumn(int column);

    RunsTableModel* m_model;
    QTableView* m_view;
    QPushButton* m_compare;
};

} // namespace astrolabe::gui
