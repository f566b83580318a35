#include "gui/HelpController.h"

#include "gui/About.h"
#include "gui/Examples.h"
#include "gui/HelpWindow.h"
#include "gui/ProjectController.h"
#include "gui/WorkspaceTabs.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QMap>
#include <QMenu>
#include <QMessageBox>
#include <QScreen>
#include <algorithm>

namespace astrolabe::gui {

namespace {

/// The guide's section for each central tab (WorkspaceTabs::Tab order) and dock.
QString tabSection(int tab) {
    switch (tab) {
    case WorkspaceTabs::TopologyTab:
        return QStringLiteral("the-topology-tab");
    case WorkspaceTabs::ConfigurationTab:
        return QStringLiteral("the-configuration-tab");
    case WorkspaceTabs::TimelineTab:
        return QStringLiteral("the-timeline-tab");
    case WorkspaceTabs::UtilizationTab:
        return QStringLiteral("the-utilization-tab");
    case WorkspaceTabs::CompareTab:
        return QStringLiteral("the-compare-tab");
    case WorkspaceTabs::WorkloadTab:
        return QStringLiteral("the-workload-tab");
    case WorkspaceTabs::SweepTab:
        return QStringLiteral("the-sweep-tab");
    case WorkspaceTabs::BandwidthTab:
        return QStringLiteral("the-bandwidth-tab");
    case WorkspaceTabs::WatchTab:
        return QStringLiteral("watch-a-collective");
    case WorkspaceTabs::ServingTab:
        return QStringLiteral("the-serving-tab");
    default:
        return QStringLiteral("getting-started");
    }
}

QString dockSection(const QString& objectName) {
    if (objectName == QLatin1String("projectDock"))
        return QStringLiteral("the-project-panel");
    if (objectName == QLatin1String("runsDock") || objectName == QLatin1String("logDock"))
        return QStringLiteral("the-runs-and-log-panels");
    if (objectName == QLatin1String("lessonsDock"))
        return QStringLiteral("lessons");
    return {};
}

} // namespace

HelpController::HelpController(QMainWindow* window, WorkspaceTabs* tabs, ProjectController* project)
    : QObject(window)
    , m_window(window)
    , m_tabs(tabs)
    , m_project(project) {
    m_contextHelp = new QAction(tr("&Help on This Panel"), this);
    m_contextHelp->setShortcut(QKeySequence::HelpContents); // F1
    connect(m_contextHelp, &QAction::triggered, this, &HelpController::showContextHelp);
    window->addAction(m_contextHelp); // F1 also works while the menu bar is hidden
}

void HelpController::attachHelpMenu(QMenu* help, QAction* lessons) {
    help->addAction(tr("&User Guide"), this, [this] { showGuide(); });
    help->addAction(m_contextHelp);
    if (lessons)
        help->addAction(lessons);
    QMenu* examples = help->addMenu(tr("&Examples"));
    examples->setObjectName(QStringLiteral("examplesMenu"));
    // A folder of several examples is a submenu under its heading; one alone is an item. The
    // quick start comes first, where a class starts.
    const QString directory = examples::directory();
    const QStringList projects = examples::projects(directory);
    QMap<QString, QStringList> groups;
    for (const QString& path : projects)
        groups[examples::groupTitle(directory, path)] << path;
    const auto addExample = [this](QMenu* menu, const QString& path) {
        menu->addAction(examples::title(path), this, [this, path] { m_project->open(path); })
            ->setToolTip(path);
    };
    const auto quickstart = std::find_if(projects.begin(), projects.end(), [](const QString& p) {
        return p.endsWith(QLatin1String("quickstart/project.yaml"));
    });
    if (quickstart != projects.end()) {
        addExample(examples, *quickstart);
        examples->addSeparator();
    }
    for (auto group = groups.begin(); group != groups.end(); ++group) {
        QStringList paths = group.value();
        paths.removeAll(quickstart != projects.end() ? *quickstart : QString());
        std::sort(paths.begin(), paths.end(), [](const QString& a, const QString& b) {
            return examples::title(a).localeAwareCompare(examples::title(b)) < 0;
        });
        if (paths.isEmpty())
            continue;
        if (paths.size() == 1) {
            addExample(examples, paths.front());
            continue;
        }
        QMenu* sub = examples->addMenu(group.key());
        for (const QString& path : paths)
            addExample(sub, path);
    }
    examples->setEnabled(!projects.isEmpty());
    help->addSeparator();
    help->addAction(tr("&About Astrolabe"), this,
                    [this] { QMessageBox::about(m_window, tr("About Astrolabe"), aboutText()); });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QString HelpController::sectionFor(const QWidget* widget) const {
    for (const QWidget* w = widget; w; w = w->parentWidget()) {
        if (const auto* dock = qobject_cast<const QDockWidget*>(w))
            if (QString section = dockSection(dock->objectName()); !section.isEmpty())
                return section;
        if (w->parentWidget() && m_tabs->indexOf(const_cast<QWidget*>(w)) >= 0)
            return tabSection(m_tabs->indexOf(const_cast<QWidget*>(w)));
        if (w == m_window)
            break;
    }
    return m_tabs->isVisible() ? tabSection(m_tabs->currentIndex())
                               : QStringLiteral("getting-started");
}

HelpWindow* HelpController::helpWindow() const {
    return m_help.data();
}

HelpWindow* HelpController::showGuide(const QString& section) {
    if (!m_help) {
        m_help = new HelpWindow(m_window);
        m_help->setAttribute(Qt::WA_DeleteOnClose);
        // Over the main window, and whole on its screen, wherever the window manager would
        // have put it.
        const QRect screen = m_window->screen()->availableGeometry();
        QRect frame(QPoint(), m_help->size());
        frame.moveCenter(m_window->frameGeometry().center());
        frame.moveTop(std::max(frame.top(), screen.top()));
        frame.moveLeft(std::max(frame.left(), screen.left()));
        frame.moveBottom(std::min(frame.bottom(), screen.bottom()));
        frame.moveRight(std::min(frame.right(), screen.right()));
        m_help->move(frame.topLeft());
    }
    // F1 and Help > User Guide show the guide, also after a link opened another document.
    m_help->showDocument(QStringLiteral("user-guide.md"));
    m_help->show();
    m_help->raise();
    m_help->activateWindow();
    if (section.isEmpty())
        m_help->showSection(m_help->sections().value(0));
    else
        m_help->showSection(section);
    return m_help;
}

void HelpController::showContextHelp() {
    QWidget* focus = QApplication::focusWidget();
    if (focus && focus->window() != m_window)
        focus = nullptr; // the help window itself, a dialog
    showGuide(sectionFor(focus));
}

} // namespace astrolabe::gui
