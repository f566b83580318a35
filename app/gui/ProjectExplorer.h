#pragma once
// The project explorer: a tree of the project's parts (platform, system, memory, workload) and
// its runs. Selecting an item asks the main window to show the matching tab.

#include "spec/SimulationSpec.h"

#include <QTreeView>

class QStandardItem;
class QStandardItemModel;

namespace astrolabe::gui {

class RunStore;

class ProjectExplorer : public QTreeView {
    Q_OBJECT
public:
    /// What an item stands for (Qt::UserRole on every item).
    enum class Part { Project, Platform, System, Memory, Workload, Runs, Run };
    enum Role { PartRole = Qt::UserRole + 1, RunIdRole, KeyRole };

    explicit ProjectExplorer(QWidget* parent = nullptr);

    /// A hint instead of a tree, while no project is open.
    void showEmpty();
    void showProject(const QString& name, const SimulationSpec& spec);
    void showRuns(const RunStore* store);
    QStandardItemModel* treeModel() const { return m_model; }

signals:
    void partActivated(astrolabe::gui::ProjectExplorer::Part part, int runId, const QString& key);

private:
    QStandardItem* addGroup(const QString& title, Part part);
    void addDetail(QStandardItem* group, const QString& text, const QString& key = {});

    QStandardItemModel* m_model;
    QStandardItem* m_runs = nullptr;
};

} // namespace astrolabe::gui
