// Help: the user guide bundled as a resource (the same text as docs/user-guide.md), F1 on each
// panel opening it at that panel's section, the Help menu's entries, and the New Project
// wizard's gallery of presets and examples.
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/Examples.h"
#include "gui/HelpController.h"
#include "gui/HelpWindow.h"
#include "gui/MainWindow.h"
#include "gui/NewProjectWizard.h"
#include "gui/ProjectExplorer.h"
#include "gui/RunStore.h"
#include "gui/RunsPanel.h"

#include <QAbstractItemView>
#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSet>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QUrl>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

QString sourceFile(const QString& relative) {
    QFile file(QString::fromStdString(ASTROLABE_SOURCE_DIR + "/") + relative);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QMenu* menuNamed(QMainWindow& window, const QString& text) {
    for (QAction* action : window.menuBar()->actions())
        if (action->text() == text)
            return action->menu();
    return nullptr;
}

/// Whether the heading with this slug is on screen, in the upper part of the guide's view.
bool headingOnTop(HelpWindow* help, const QString& slug) {
    QTextBrowser* browser = help->browser();
    for (QTextBlock block = browser->document()->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0 || HelpWindow::slug(block.text()) != slug)
            continue;
        const QRectF rect = browser->document()->documentLayout()->blockBoundingRect(block);
        const double y = rect.top() - browser->verticalScrollBar()->value();
        return y >= 0 && y < browser->viewport()->height() / 2;
    }
    return false;
}

} // namespace

TEST(Help, GuideIsTheBundledDocsFileAndEveryLinkFindsASection) {
    const QString guide = HelpWindow::guideMarkdown();
    EXPECT_EQ(guide, sourceFile(QStringLiteral("docs/user-guide.md")));
    HelpWindow help;
    const QStringList sections = help.sections();
    EXPECT_GE(sections.size(), 12);
    EXPECT_EQ(help.contents()->topLevelItemCount(), 1); // the title, the sections beneath it
    static const QRegularExpression link(QStringLiteral("\\]\\(#([a-z0-9-]+)\\)"));
    int links = 0;
    for (auto it = link.globalMatch(guide); it.hasNext(); ++links) {
        const QString target = it.next().captured(1);
        EXPECT_TRUE(sections.contains(target)) << target.toStdString();
    }
    EXPECT_GE(links, 8);
    EXPECT_EQ(HelpWindow::slug(QStringLiteral("The Runs and Log panels")),
              QStringLiteral("the-runs-and-log-panels"));

    // Links to the other documents ("[planner.md](planner.md)", "real-traces.md#...") open in
    // the help window, at their section (a browser cannot open a relative path), and a link at
    // the top leads back.
    static const QRegularExpression other(
        QStringLiteral("\\]\\(([a-z0-9-]+\\.md)(#[a-z0-9-]+)?\\)"));
    int documents = 0;
    for (auto it = other.globalMatch(guide); it.hasNext(); ++documents) {
        const QRegularExpressionMatch m = it.next();
        emit help.browser()->anchorClicked(QUrl(m.captured(1) + m.captured(2)));
        EXPECT_EQ(help.currentDocument(), m.captured(1));
        if (!m.captured(2).isEmpty()) {
            EXPECT_EQ(help.currentSection(), m.captured(2).mid(1)) << m.captured(0).toStdString();
        }
        EXPECT_TRUE(help.browser()->toPlainText().startsWith(QStringLiteral("\u2190 User guide")));
        emit help.browser()->anchorClicked(QUrl(QStringLiteral("user-guide.md")));
        EXPECT_EQ(help.currentDocument(), QStringLiteral("user-guide.md"));
        EXPECT_EQ(help.sections(), sections);
    }
    EXPECT_GE(documents, 5);
}

TEST(Help, F1OnEachPanelOpensTheGuideAtThatPanelsSection) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.resize(1280, 800);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));

    // F1 with the focus on `focus`: the section the guide opened at.
    const auto f1 = [&](QWidget* focus) -> QString {
        focus->setFocus(Qt::OtherFocusReason);
        QApplication::processEvents();
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &window,
                        Qt::Key_F1);
        QPointer<HelpWindow> help = window.help()->helpWindow();
        if (!help || !help->isVisible())
            return {};
        const QString section = help->currentSection();
        help->close(); // the next F1 comes from the main window again
        QApplication::processEvents();
        window.activateWindow();
        return QTest::qWaitForWindowActive(&window) ? section : QString();
    };

    // Before a project: the welcome page.
    window.setFocus();
    QPointer<HelpWindow> help = window.help()->showGuide();
    ASSERT_TRUE(help);
    help->close();
    QApplication::processEvents();
    EXPECT_EQ(window.help()->sectionFor(nullptr), QStringLiteral("getting-started"));
    window.activateWindow(); // F1 is a shortcut of the main window: it must be active
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));

    window.newProjectFromPreset(QStringLiteral("quickstart"));
    const std::pair<int, const char*> tabs[] = {
        {MainWindow::TopologyTab, "the-topology-tab"},
        {MainWindow::ConfigurationTab, "the-configuration-tab"},
        {MainWindow::TimelineTab, "the-timeline-tab"},
        {MainWindow::UtilizationTab, "the-utilization-tab"},
        {MainWindow::CompareTab, "the-compare-tab"},
        {MainWindow::WorkloadTab, "the-workload-tab"},
        {MainWindow::SweepTab, "the-sweep-tab"},
        {MainWindow::BandwidthTab, "the-bandwidth-tab"},
        {MainWindow::WatchTab, "watch-a-collective"},
        {MainWindow::ServingTab, "the-serving-tab"},
    };
    for (const auto& [tab, section] : tabs) {
        window.tabs()->setCurrentIndex(tab);
        QWidget* page = window.tabs()->widget(tab);
        // A focusable widget inside the page when it has one, else the page itself.
        QWidget* focus = page;
        for (QWidget* child : page->findChildren<QWidget*>())
            if (child->isVisible() && child->focusPolicy() != Qt::NoFocus) {
                focus = child;
                break;
            }
        page->setFocusPolicy(page->focusPolicy() == Qt::NoFocus ? Qt::ClickFocus
                                                                : page->focusPolicy());
        // Open the guide without closing it, to look at where it scrolled.
        focus->setFocus(Qt::OtherFocusReason);
        QApplication::processEvents();
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &window,
                        Qt::Key_F1);
        HelpWindow* shown = window.help()->helpWindow();
        ASSERT_NE(shown, nullptr) << section;
        EXPECT_TRUE(shown->isVisible());
        EXPECT_EQ(shown->currentSection(), QString::fromLatin1(section));
        EXPECT_TRUE(headingOnTop(shown, QString::fromLatin1(section))) << section;
        EXPECT_EQ(shown->contents()->currentItem()->text(0).toLower(),
                  QString::fromLatin1(section).replace(QLatin1Char('-'), QLatin1Char(' ')));
        shown->close();
        QApplication::processEvents();
        window.activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    }

    // The docks: the runs list and the project explorer.
    window.tabs()->setCurrentIndex(MainWindow::TopologyTab);
    QAbstractItemView* runs = window.runsPanel()->findChild<QAbstractItemView*>();
    ASSERT_NE(runs, nullptr);
    EXPECT_EQ(f1(runs), QStringLiteral("the-runs-and-log-panels"));
    EXPECT_EQ(f1(window.explorer()), QStringLiteral("the-project-panel"));
}

TEST(Help, HelpMenuHasTheGuideTheExamplesAndAbout) {
    QTemporaryDir dir;
    GuiServices services = test::testServices(dir);
    // The examples open from the source tree: their runs stay in memory, not beside them.
    services.openRunStore = [](const QString&) { return std::make_unique<InMemoryRunStore>(); };
    MainWindow window(services);
    window.setAskBeforeDiscarding(false);
    QMenu* help = menuNamed(window, QStringLiteral("&Help"));
    ASSERT_NE(help, nullptr);
    QStringList texts;
    QMenu* examples = nullptr;
    for (QAction* action : help->actions()) {
        texts << action->text();
        if (action->menu())
            examples = action->menu();
    }
    for (const char* entry :
         {"&User Guide", "&Help on This Panel", "&Examples", "&About Astrolabe", "About &Qt"})
        EXPECT_TRUE(texts.contains(QString::fromLatin1(entry))) << entry;

    // Every example project, no sweep file.
    const QStringList projects =
        examples::projects(QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects"));
    EXPECT_GE(projects.size(), 5);
    for (const QString& path : projects)
        EXPECT_FALSE(path.contains(QStringLiteral("sweep"))) << path.toStdString();
    ASSERT_NE(examples, nullptr);
    // Each once, a folder of several under its heading, the quick start first; names as YAML
    // reads them (no quotes).
    QStringList items, headings;
    for (QAction* action : examples->actions()) {
        if (action->isSeparator())
            continue;
        if (QMenu* sub = action->menu()) {
            headings << action->text();
            for (QAction* inner : sub->actions())
                items << inner->text();
        } else {
            items << action->text();
        }
    }
    EXPECT_EQ(items.size(), projects.size()) << items.join(u',').toStdString();
    for (const QString& item : items)
        EXPECT_FALSE(item.startsWith(u'"')) << item.toStdString();
    for (const char* heading : {"Case studies", "Serving", "Validation against measurements",
                                "LIBRA bandwidth allocation"})
        EXPECT_TRUE(headings.contains(QString::fromLatin1(heading))) << heading;
    QAction* quickstart = examples->actions().first();
    ASSERT_EQ(quickstart->text(), QStringLiteral("Quick start"));
    quickstart->trigger();
    EXPECT_TRUE(window.hasProject());
    EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("Quick start")));

    QAction* guide = help->actions().first();
    guide->trigger();
    ASSERT_NE(window.help()->helpWindow(), nullptr);
    EXPECT_TRUE(window.help()->helpWindow()->isVisible());
    EXPECT_EQ(window.help()->helpWindow()->currentSection(),
              QStringLiteral("astrolabe-user-guide"));
    window.help()->helpWindow()->close();
}

TEST(Help, NewProjectWizardIsAGalleryOfPresetsAndExamplesWithPictures) {
    NewProjectWizard wizard;
    const QStringList projects =
        examples::projects(QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects"));
    EXPECT_EQ(wizard.choiceCount(), 3 + projects.size()) << "the presets, then every example";
    auto* gallery = wizard.findChild<QListWidget*>(QStringLiteral("presetGallery"));
    ASSERT_NE(gallery, nullptr);
    EXPECT_EQ(gallery->viewMode(), QListView::IconMode);
    for (int row = 0; row < gallery->count(); ++row) {
        // Each picture shows a network: more than one colour on the white.
        const QImage image = gallery->item(row)->icon().pixmap(gallery->iconSize()).toImage();
        ASSERT_FALSE(image.isNull()) << row;
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                colours.insert(image.pixel(x, y));
        EXPECT_GT(colours.size(), 3) << gallery->item(row)->text().toStdString();
    }
    // An example is read from its file, as File > Open would.
    ASSERT_TRUE(wizard.selectPreset(QStringLiteral("example:torus-2d/project.yaml")));
    EXPECT_EQ(wizard.spec().platform.npuCount(), 16);
    EXPECT_EQ(wizard.spec().name, "2-D torus (4 x 4)");
    EXPECT_TRUE(wizard.selectPreset(QStringLiteral("example:in-switch/project.yaml")));
    EXPECT_EQ(wizard.spec().platform.npuCount(), 64);
    EXPECT_TRUE(wizard.selectPreset(QStringLiteral("quickstart")));
    EXPECT_EQ(wizard.spec().platform.npuCount(), 8);
    wizard.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&wizard));
    test::saveScreenshot(wizard, QStringLiteral("help-new-project-gallery.png"));
}
