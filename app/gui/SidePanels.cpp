#include "gui/SidePanels.h"

#include "common/LogModel.h"
#include "gui/ProjectExplorer.h"
#include "gui/RunsPanel.h"

#include <QDockWidget>
#include <QListView>
#include <QMainWindow>

namespace astrolabe::gui {

SidePanels createSidePanels(QMainWindow& window, RunsTableModel* runs, widgets::LogModel* log) {
    window.setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks |
                          QMainWindow::AllowNestedDocks);
    auto dock = [&window](const QString& title, const QString& name, Qt::DockWidgetArea area) {
        auto* dock = new QDockWidget(title, &window);
        dock->setObjectName(name);
        window.addDockWidget(area, dock);
        return dock;
    };
    SidePanels panels;
    QDockWidget* explorerDock =
        dock(QObject::tr("Project"), QStringLiteral("projectDock"), Qt::LeftDockWidgetArea);
    panels.explorer = new ProjectExplorer(explorerDock);
    explorerDock->setWidget(panels.explorer);
    QDockWidget* runsDock =
        dock(QObject::tr("Runs"), QStringLiteral("runsDock"), Qt::BottomDockWidgetArea);
    panels.runs = new RunsPanel(runs, runsDock);
    runsDock->setWidget(panels.runs);
    QDockWidget* logDock =
        dock(QObject::tr("Log"), QStringLiteral("logDock"), Qt::BottomDockWidgetArea);
    auto* logView = new QListView(logDock);
    logView->setModel(log);
    logView->setWordWrap(true);
    logDock->setWidget(logView);
    QObject::connect(log, &QAbstractItemModel::rowsInserted, logView, &QListView::scrollToBottom);
    window.splitDockWidget(runsDock, logDock, Qt::Horizontal);
    window.resizeDocks({explorerDock}, {260}, Qt::Horizontal);
    window.resizeDocks({runsDock, logDock}, {900, 380}, Qt::Horizontal);
    window.resizeDocks({runsDock}, {190}, Qt::Vertical);
    return panels;
}

} // namespace astrolabe::gui
