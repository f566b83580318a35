// Opening a stored run in the views, headless: what the GUI does when a run is selected in the
// run list (app/gui/RunStoreController, TimelinePage). Times, one pass each (a bench, not a test):
//   load    ProjectDatabase::loadResult(id, false, true), the loading worker's read;
//   util    UtilizationView::setResult and a paint of each of its tabs;
//   source  DatabaseTimelineSource over the stored timeline (its worker's work);
//   paint   the timeline's first paint at 1920 x 1080, then 2x zoom steps in.
//   QT_QPA_PLATFORM=offscreen build/tests/bench/bench_open_stored_run --db FILE [--run ID]
//                                                                     [--dims 16,16,16,16]
#include "BenchMemory.h"
#include "spec/PlatformSpec.h"
#include "store/ProjectDatabase.h"
#include "timeline/DatabaseTimelineSource.h"
#include "timeline/TimelineWidget.h"
#include "utilization/UtilizationView.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QTabWidget>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {

double milliseconds(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void render(QWidget& widget) {
    QImage image(widget.size(), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    widget.render(&painter);
}

} // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    std::string path;
    int64_t runId = 0;
    std::vector<int> dims;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--db") == 0)
            path = argv[i + 1];
        else if (std::strcmp(argv[i], "--run") == 0)
            runId = std::atoll(argv[i + 1]);
        else if (std::strcmp(argv[i], "--dims") == 0) {
            std::stringstream list(argv[i + 1]);
            for (std::string size; std::getline(list, size, ',');)
                dims.push_back(std::atoi(size.c_str()));
        }
    }
    if (path.empty()) {
        std::fprintf(stderr, "usage: bench_open_stored_run --db FILE [--run ID] [--dims a,b,c]\n");
        return 2;
    }
    QApplication app(argc, argv);
    const double rss0 = bench::residentMiB();
    std::shared_ptr<const RunResult> result;
    const double loadMs = milliseconds([&] {
        const ProjectDatabase db(path);
        if (runId == 0)
            runId = db.listRuns().at(0).id;
        result = db.loadResult(runId, false, true);
    });
    std::printf("load    %8.1f ms  run %lld: %d NPUs, %zu links, %zu link series, %zu link "
                "groups; +%.0f MiB RSS\n",
                loadMs, static_cast<long long>(runId), result->npuCount, result->links.size(),
                result->linkSeries.size(), result->linkGroupSeries.size(),
                bench::residentMiB() - rss0);
    if (dims.empty())
        dims = {result->npuCount};

    UtilizationView utilization;
    utilization.resize(1600, 1000);
    utilization.show();
    QApplication::processEvents();
    const double utilMs = milliseconds([&] {
        utilization.setResult(result, PlatformSpec{});
        QApplication::processEvents();
        auto* tabs = utilization.findChild<QTabWidget*>();
        for (int t = 0; tabs && t < tabs->count(); ++t) {
            tabs->setCurrentIndex(t);
            QApplication::processEvents();
            render(utilization);
        }
    });
    std::printf("util    %8.1f ms  setResult + paint of every tab\n", utilMs);

    std::shared_ptr<const TimelineSource> source;
    const double sourceMs = milliseconds(
        [&] { source = std::make_shared<DatabaseTimelineSource>(path, runId, result); });
    std::printf("source  %8.1f ms  DatabaseTimelineSource, %d rows\n", sourceMs,
                source->rowCount());
    TimelineWidget timeline;
    timeline.resize(1920, 1080);
    timeline.show();
    QApplication::processEvents();
    const double firstPaintMs = milliseconds([&] {
        timeline.setSource(source, dims);
        QImage image(timeline.renderSize(), QImage::Format_ARGB32_Premultiplied);
        QPainter painter(&image);
        timeline.render(painter);
    });
    std::printf("paint   %8.1f ms  setSource + first paint\n", firstPaintMs);
    const double centre = 150 + (timeline.renderSize().width() - 150) / 2.0;
    for (int i = 0; i < 6; ++i) {
        const double zoomMs = milliseconds([&] {
            timeline.zoomBy(2.0, centre);
            QImage image(timeline.renderSize(), QImage::Format_ARGB32_Premultiplied);
            QPainter painter(&image);
            timeline.render(painter);
        });
        std::printf("zoom %d  %8.1f ms\n", i + 1, zoomMs);
    }
    const auto* database = dynamic_cast<const DatabaseTimelineSource*>(source.get());
    std::printf("timeline held %zu intervals after %d database reads; RSS %.0f MiB\n",
                database ? database->cachedIntervals() : 0, database ? database->queryCount() : 0,
                bench::residentMiB());
    return 0;
}
