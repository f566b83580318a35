// Opening a stored run in the whole main window, as a user does: open the project, click its
// first run, look at the Utilization tab (every sub-tab), then the Timeline, wheel-zoom in six
// notches and out again, and scroll down the NPU rows. Each step is timed to its painted result
// (QWidget::repaint paints synchronously), and a 5 ms timer on the GUI thread records the longest
// time the event loop could not answer (wall clock, and the GUI thread's own CPU time).
// Run it in a real window: xvfb-run -s "-screen 0 1920x1080x24"
// build/tests/bench/bench_gui_open_run
//                          --project P.yaml [--shots DIR]
// (bench_open_stored_run times the same views one by one, without the window.)
#include "BenchMemory.h"
#include "GapMeter.h"
#include "gui/MainWindow.h"
#include "gui/RunStore.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "gui/TimelinePage.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QWheelEvent>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

double milliseconds(const std::function<void()>& step) {
    QElapsedTimer clock;
    clock.start();
    step();
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

/// Waits (serving the event loop) until done() or the timeout; false on timeout.
bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs)
            return false;
        QTest::qWait(5);
    }
    return true;
}

void wheel(QWidget* target, QPoint at, int notches, Qt::KeyboardModifiers modifiers = {}) {
    QWheelEvent event(at, target->mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton,
                      modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &event);
}

} // namespace

int main(int argc, char** argv) {
    QString project;
    QString shots;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--project") == 0)
            project = QString::fromLocal8Bit(argv[i + 1]);
        else if (std::strcmp(argv[i], "--shots") == 0)
            shots = QString::fromLocal8Bit(argv[i + 1]);
    }
    if (project.isEmpty()) {
        std::fprintf(stderr, "usage: bench_gui_open_run --project P.yaml [--shots DIR]\n"
                             "  (the project's astrolabe.db must hold at least one run)\n");
        return 2;
    }
    QApplication app(argc, argv);
    MainWindow window;
    window.setAskBeforeDiscarding(false);
    window.resize(1920, 1080);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 1;
    const auto shot = [&](const char* name) {
        if (!shots.isEmpty()) {
            QDir().mkpath(shots);
            window.grab().save(QDir(shots).filePath(QString::fromLatin1(name)));
        }
    };

    const double openMs = milliseconds([&] { window.openProject(project); });
    if (window.runsModel()->rowCount() == 0) {
        std::fprintf(stderr, "%s: its project database holds no run\n", qPrintable(project));
        return 1;
    }
    std::printf("open project  %8.1f ms  %d runs listed\n", openMs, window.runsModel()->rowCount());
    window.tabs()->setCurrentIndex(MainWindow::ConfigurationTab);
    QTest::qWait(200);

    astrolabe::gui::test::GapMeter meter;
    QSignalSpy loaded(&window, &MainWindow::resultLoaded);
    const int id = window.runsModel()->store()->at(0).id;
    const double selectMs = milliseconds([&] {
        window.runsPanel()->selectRun(id);
        waitUntil([&] { return loaded.count() > 0; }, 120000);
    });
    const RunRecord& run = window.runsModel()->store()->at(0);
    std::printf("load run      %8.1f ms  %d NPUs, %llu intervals (worker; GUI gap so far %lld ms, "
                "GUI CPU %.1f ms)\n",
                selectMs, run.result ? run.result->npuCount : 0,
                static_cast<unsigned long long>(run.activityCount), meter.maxGapMs(),
                meter.maxCpuGapMs());

    auto* utilization = window.tabs()->widget(MainWindow::UtilizationTab);
    const double utilMs = milliseconds([&] {
        window.tabs()->setCurrentIndex(MainWindow::UtilizationTab);
        window.repaint();
    });
    std::printf("utilization   %8.1f ms  first paint\n", utilMs);
    QTest::qWait(500); // the charts lay out their axes on a later pass
    shot("gui-open-utilization.png");
    meter.skip();
    if (auto* pages = utilization->findChild<QTabWidget*>()) {
        for (int t = 1; t < pages->count(); ++t) {
            const double pageMs = milliseconds([&] {
                pages->setCurrentIndex(t);
                window.repaint();
            });
            std::printf("  %-11s %8.1f ms\n", qPrintable(pages->tabText(t).left(11)), pageMs);
        }
        pages->setCurrentIndex(0);
    }

    window.tabs()->setCurrentIndex(MainWindow::TimelineTab);
    auto* page = qobject_cast<TimelinePage*>(window.tabs()->currentWidget());
    const double readyMs = milliseconds([&] { waitUntil([&] { return page->isReady(); }, 60000); });
    widgets::TimelineWidget* timeline = page->view()->timeline();
    const double paintMs = milliseconds([&] { window.repaint(); });
    std::printf("timeline      %8.1f ms  source ready (worker), first paint %.1f ms\n", readyMs,
                paintMs);
    shot("gui-open-timeline.png");
    meter.skip();

    QWidget* viewport = timeline->viewport();
    const QPoint centre(viewport->width() * 3 / 5, viewport->height() / 3);
    double slowest = 0;
    for (int notch = 0; notch < 12; ++notch) {
        const double stepMs = milliseconds([&] {
            wheel(viewport, centre, notch < 6 ? 1 : -1);
            timeline->repaint();
            QApplication::processEvents();
        });
        slowest = std::max(slowest, stepMs);
        std::printf("  zoom %s %2d  %8.1f ms\n", notch < 6 ? "in " : "out", notch % 6 + 1, stepMs);
        if (notch == 5)
            shot("gui-open-timeline-zoomed.png");
        QTest::qWait(20); // a new wheel burst, and the block reads the zoom asked for
    }
    for (int step = 0; step < 6; ++step) {
        const double stepMs = milliseconds([&] {
            wheel(viewport, centre, -3, Qt::ShiftModifier); // scroll the rows down
            timeline->repaint();
            QApplication::processEvents();
        });
        slowest = std::max(slowest, stepMs);
        std::printf("  scroll %d    %8.1f ms  (row scroll %d)\n", step + 1, stepMs,
                    timeline->verticalScrollBar()->value());
        QTest::qWait(20);
    }
    QTest::qWait(300); // blocks read behind the last steps arrive and paint
    shot("gui-open-timeline-scrolled.png");
    std::printf("slowest zoom/scroll step %.1f ms; %s; RSS %.0f MiB\n", slowest,
                meter.describe().c_str(), bench::residentMiB());
    return 0;
}
