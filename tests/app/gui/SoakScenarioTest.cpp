// The GUI scenario over and over in a real X window (issue #54, item 17): each loop opens a fresh
// copy of the 2-D torus, runs it twice, clicks between the runs, runs a four-point sweep on two
// workers, compares the runs, zooms to 150 % and back, and opens a lesson. After the first loop
// (which loads fonts, charts and caches once), resident memory must grow by less than 10 %, and
// threads, open files and widgets must not grow: a leak of any of them grows with the loops.
//
// By default three loops (a check in the suite, about half a minute); ASTROLABE_SOAK_MINUTES=60
// loops for an hour. Each loop's figures are printed and written to soak.csv in the working
// folder (the curve for the report).
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "common/LogModel.h"
#include "gui/LessonsController.h"
#include "gui/MainWindow.h"
#include "gui/PresentationController.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "gui/SweepController.h"
#include "gui/SweepSettingDialog.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <malloc.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

struct Sample {
    int loop = 0;
    double seconds = 0;
    long rssKiB = 0;
    int threads = 0;
    int files = 0;
    int widgets = 0;
    int logRows = 0;
    long heapKiB = 0;
    int objects = 0;
};

long residentKiB() {
    std::ifstream status("/proc/self/status");
    std::string key;
    long value = 0;
    while (status >> key) {
        if (key == "VmRSS:") {
            status >> value;
            return value;
        }
        status.ignore(1 << 12, '\n');
    }
    return 0;
}

int entriesIn(const char* folder) {
    int n = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder))
        ++n;
    return n;
}

double soakMinutes() {
    const char* text = std::getenv("ASTROLABE_SOAK_MINUTES");
    return text ? std::atof(text) : 0.0;
}

} // namespace

TEST(GuiScenario, SoakLoopsLeakNeitherMemoryNorHandles) {
    ASTROLABE_SKIP_UNLESS_REAL_WINDOW();
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.resize(1440, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.lessons()->setCopyDirectory(dir.filePath(QStringLiteral("lessons")));
    const QString torus = QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects/torus-2d/");
    const QString lesson = QString::fromStdString(
        ASTROLABE_SOURCE_DIR + "/resources/lessons/02-latency-and-bandwidth/lesson.md");

    const double minutes = soakMinutes();
    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    std::vector<Sample> samples;
    std::ofstream csv("soak.csv");
    csv << "loop,seconds,rss_kib,threads,open_files,widgets\n";
    for (int loop = 1; loop <= 3 || elapsed() < minutes * 60; ++loop) {
        // A fresh copy each loop: the previous project and its database are closed.
        const QString folder = dir.filePath(QStringLiteral("loop-%1").arg(loop));
        ASSERT_TRUE(QDir().mkpath(folder));
        for (const char* file : {"project.yaml", "sweep.yaml"})
            ASSERT_TRUE(QFile::copy(torus + QLatin1String(file),
                                    folder + QLatin1Char('/') + QLatin1String(file)));
        const QString project = folder + QStringLiteral("/project.yaml");
        ASSERT_TRUE(window.openProject(project)) << loop;

        QSignalSpy stored(&window, &MainWindow::runStored);
        for (int run = 1; run <= 2; ++run) {
            ASSERT_GT(window.startRun(), 0);
            ASSERT_TRUE(test::waitUntil([&] { return stored.count() >= run; }, 60000)) << loop;
        }
        QTableView* runs = window.runsPanel()->view();
        for (int i = 0; i < 6; ++i) {
            window.tabs()->setCurrentIndex(i % 2 ? MainWindow::TimelineTab
                                                 : MainWindow::UtilizationTab);
            const QRect rect = runs->visualRect(runs->model()->index(i % 2, 0));
            QTest::mouseClick(runs->viewport(), Qt::LeftButton, {}, rect.center());
            QTest::qWait(30);
        }

        QSignalSpy finished(window.sweepController(), &SweepController::finished);
        const QString sweep = writeSettingSweep(project, QStringLiteral("system.chunks"),
                                                sweepRangeValues("1", "8", 4, true));
        ASSERT_TRUE(window.runSweep(sweep, 2)) << loop;
        ASSERT_TRUE(test::waitUntil([&] { return finished.size() == 1; }, 120000)) << loop;
        window.tabs()->setCurrentIndex(MainWindow::SweepTab);
        QTest::qWait(30);

        const RunStore* store = window.runsModel()->store();
        ASSERT_GE(store->count(), 2);
        window.compareRuns({store->at(0).id, store->at(1).id});
        QTest::qWait(30);

        window.presentation()->setScale(1.5);
        QTest::qWait(30);
        window.presentation()->setScale(1.0);
        QTest::qWait(30);

        ASSERT_TRUE(window.lessons()->openLesson(lesson)) << loop;
        QTest::qWait(30);
        test::closeErrorBoxes(window);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QCoreApplication::processEvents();

        const Sample s{loop,
                       elapsed(),
                       residentKiB(),
                       entriesIn("/proc/self/task"),
                       entriesIn("/proc/self/fd"),
                       static_cast<int>(QApplication::allWidgets().size()),
                       window.logModel()->rowCount(),
                       static_cast<long>(mallinfo2().uordblks / 1024),
                       static_cast<int>(window.findChildren<QObject*>().size())};
        samples.push_back(s);
        csv << s.loop << ',' << s.seconds << ',' << s.rssKiB << ',' << s.threads << ',' << s.files
            << ',' << s.widgets << '\n'
            << std::flush;
        std::cout << "[ soak ] loop " << s.loop << " at " << static_cast<int>(s.seconds)
                  << " s: " << s.rssKiB / 1024 << " MiB resident, " << s.threads << " threads, "
                  << s.files << " open files, " << s.widgets << " widgets, " << s.logRows
                  << " log rows, heap " << s.heapKiB << " KiB, " << s.objects << " objects\n";
    }

    ASSERT_GE(samples.size(), 3u);
    const Sample& first = samples.front();
    const Sample& last = samples.back();
    long highest = 0;
    for (const Sample& s : samples)
        highest = std::max(highest, s.rssKiB);
    std::cout << "[ soak ] " << samples.size() << " loops in " << static_cast<int>(last.seconds)
              << " s; resident after loop 1: " << first.rssKiB / 1024
              << " MiB, at the end: " << last.rssKiB / 1024 << " MiB ("
              << 100.0 * (last.rssKiB - first.rssKiB) / first.rssKiB << " %), highest "
              << highest / 1024 << " MiB\n";
    EXPECT_LT(last.rssKiB, first.rssKiB * 11 / 10) << "resident memory grew 10 % or more";
    // Qt's thread pool keeps idle workers for a while, so a few threads may come and go; a
    // leak adds some every loop.
    EXPECT_LE(last.threads, first.threads + 2);
    EXPECT_LE(last.files, first.files + 2);
    EXPECT_LE(last.widgets, first.widgets + 8);
}
