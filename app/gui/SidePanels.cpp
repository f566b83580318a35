#include "gui/SidePanels.h"

#include "common/LogModel.h"
#include "gui/ProjectExplorer.h"
#include "gui/RunsPanel.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
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

QString runsDockTitle(const QString& projectPath) {
    if (projectPath.isEmpty())
        return QObject::tr("Runs");
    const QFileInfo project(projectPath);
    const QDir folder = project.dir();
    int projects = 0;
    for (const QFileInfo& file :
         folder.entryInfoList({QStringLiteral("*.yaml"), QStringLiteral("*.yml")}, QDir::Files)) {
        // A project has a platform (a sweep file, a model description do not).
        QFile in(file.filePath());
        if (file.size() > (8 << 20) || !in.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = in.read(file.size());
        if (text.startsWith("platform:") || text.contains("\nplatform:"))
            ++projects;
    }
    if (projects < 2)
        return QObject::tr("Runs");
    return QObject::tr("Runs \u00b7 shared by the %1 projects in %2/")
        .arg(projects)
        .arg(folder.dirName());
}

} // namespace astrolabe::gui
