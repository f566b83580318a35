#include "gui/RunsPanel.h"

#include "gui/RunsTableModel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace astrolabe::gui {

RunsPanel::RunsPanel(RunsTableModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_view(new QTableView(this))
    , m_compare(new QPushButton(tr("Compare selected"), this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_view);
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(2, 0, 2, 2);
    m_compare->setToolTip(tr("Select 2 to 6 runs (Ctrl+click, Shift+click) to compare them"));
    m_compare->setEnabled(false);
    connect(m_compare, &QPushButton::clicked, this, &RunsPanel::compareSelected);
    buttons->addWidget(m_compare);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    m_view->setModel(model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    QHeaderView* header = m_view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    header->resizeSection(RunsTableModel::Name, 125);
    header->resizeSection(RunsTableModel::Date, 145);
    header->resizeSection(RunsTableModel::SimulatedTime, 105);
    header->resizeSection(RunsTableModel::WallTime, 70);
    header->resizeSection(RunsTableModel::Settings, 215);
    header->resizeSection(RunsTableModel::Status, 110);
    header->resizeSection(RunsTableModel::Tags, 70);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &RunsPanel::showContextMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { emit runSelected(m_model->idAt(current.row())); });
    // A reset (another project, runs reloaded) clears the selection without a selectionChanged.
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RunsPanel::updateCompare);
    connect(model, &QAbstractItemModel::modelReset, this, &RunsPanel::updateCompare);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &RunsPanel::updateCompare);
    auto* del = new QAction(tr("Delete Run"), this);
    del->setShortcut(QKeySequence::Delete);
    del->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(del, &QAction::triggered, this, [this] { deleteSelected(); });
    addAction(del);
}

int RunsPanel::selectedRunId() const {
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? m_model->idAt(current.row()) : 0;
}

QList<int> RunsPanel::selectedRunIds() const {
    QList<int> ids;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        ids << m_model->idAt(index.row());
    std::sort(ids.begin(), ids.end(), [this](int a, int b) {
        return m_model->store()->rowOf(a) < m_model->store()->rowOf(b);
    });
    return ids;
}

void RunsPanel::updateCompare() {
    const auto n = selectedRunIds().size();
    m_compare->setEnabled(n >= 2 && n <= 6);
}

void RunsPanel::compareSelected() {
    const QList<int> ids = selectedRunIds();
    if (ids.size() >= 2 && ids.size() <= 6)
        emit compareRequested(ids);
}

void RunsPanel::selectRun(int id) {
    const int row = m_model->store() ? m_model->store()->rowOf(id) : -1;
    if (row >= 0)
        m_view->setCurrentIndex(m_model->index(row, RunsTableModel::Name));
}

void RunsPanel::editColumn(int column) {
    const QModelIndex current = m_view->currentIndex();
    if (current.isValid())
        m_view->edit(m_model->index(current.row(), column));
}

void RunsPanel::deleteSelected(bool ask) {
    const int id = selectedRunId();
    const RunRecord* run = m_model->run(id);
    if (!run)
        return;
    if (ask &&
        QMessageBox::question(this, tr("Delete Run"),
                              tr("Delete the run \"%1\"? This cannot be undone.").arg(run->name)) !=
            QMessageBox::Yes)
        return;
    m_model->removeRun(id);
}

void RunsPanel::showContextMenu(const QPoint& pos) {
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid())
        return;
    // Right-clicking inside a multi-row selection keeps it (for "Compare selected").
    if (m_view->selectionModel()->isRowSelected(index.row()))
        m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::NoUpdate);
    else
        m_view->setCurrentIndex(index);
    QMenu menu(this);
    const auto selected = selectedRunIds().size();
    QAction* compare = menu.addAction(tr("Compare Selected"), this, &RunsPanel::compareSelected);
    compare->setEnabled(selected >= 2 && selected <= 6);
    menu.addSeparator();
    menu.addAction(tr("Rename"), this, [this] { editColumn(RunsTableModel::Name); });
    menu.addAction(tr("Edit Tags"), this, [this] { editColumn(RunsTableModel::Tags); });
    menu.addAction(tr("Edit Notes"), this, [this] { editColumn(RunsTableModel::Notes); });
    menu.addSeparator();
    menu.addAction(tr("Delete"), this, [this] { deleteSelected(); });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace astrolabe::gui
