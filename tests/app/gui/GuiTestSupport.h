#pragma once
// Helpers shared by the GUI tests: fake run functions, isolated settings, screenshots.

#include "TestPaths.h"
#include "common/LogModel.h"
#include "core/Error.h"
#include "gui/GuiServices.h"
#include "gui/MainWindow.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QMessageBox>
#include <QString>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace astrolabe::gui::test {

/// A stand-in for the engine: busy-loops for `duration` of wall time (the GUI thread must stay
/// responsive meanwhile), reports progress about every millisecond, and throws Cancelled within
/// about a millisecond of the token firing. Simulated time advances 1 ns per "event".
inline RunController::RunFunction busyRun(std::chrono::milliseconds duration) {
    return [duration](const SimulationSpec& spec, ProgressSink* sink,
                      const CancelToken* cancel) -> std::shared_ptr<const RunResult> {
        using Clock = std::chrono::steady_clock;
        const Clock::time_point start = Clock::now();
        uint64_t events = 0;
        volatile uint64_t sink_ = 0;
        for (;;) {
            const Clock::time_point now = Clock::now();
            const double seconds = std::chrono::duration<double>(now - start).count();
            if (now - start >= duration)
                break;
            if (cancel && cancel->cancelled())
                throw Error(ErrorKind::Cancelled, "the run was cancelled");
            for (int i = 0; i < 20000; ++i)
                sink_ = sink_ + static_cast<uint64_t>(i);
            events += 1000;
            if (sink)
                sink->onProgress(Progress{SimTime::fromNs(static_cast<int64_t>(events)), events, 7,
                                          seconds, seconds > 0 ? events / seconds : 0});
        }
        auto result = std::make_shared<RunResult>();
        result->name = spec.name;
        result->npuCount = spec.platform.npuCount();
        result->endTime = SimTime::fromNs(static_cast<int64_t>(events));
        // As the engine's: one summary per NPU (a stored run without them reads as damaged).
        for (int npu = 0; npu < result->npuCount; ++npu) {
            NpuSummary summary;
            summary.npu = npu;
            summary.finished = true;
            summary.finish = result->endTime;
            result->npus.push_back(summary);
        }
        result->events = events;
        return result;
    };
}

/// Fails at once with a validation error naming a key path, like the engine on bad input.
inline RunController::RunFunction failingRun(const std::string& keyPath) {
    return [keyPath](const SimulationSpec&, ProgressSink*,
                     const CancelToken*) -> std::shared_ptr<const RunResult> {
        throw Error(ErrorKind::Validation, "endpoint delay must be at most 1000 ns, found 5000",
                    SourceLocation{"project.yaml", 12, 3, keyPath}, "lower it");
    };
}

/// Project files kept in memory: save stores the spec under the path, load returns it.
struct MemoryFiles {
    std::map<std::string, SimulationSpec> files;
    std::map<std::string, std::string> warnings; ///< what loading a file warns about
    int saves = 0;
};

inline ProjectIo memoryIo(std::shared_ptr<MemoryFiles> files) {
    ProjectIo io;
    io.load = [files](const std::string& path, std::vector<std::string>* warnings) {
        const auto it = files->files.find(path);
        if (it == files->files.end())
            throw Error(ErrorKind::Input, "cannot open \"" + path + "\": no such file",
                        SourceLocation{path, 0, 0, {}});
        if (const auto w = files->warnings.find(path); w != files->warnings.end() && warnings)
            warnings->push_back(w->second);
        return it->second;
    };
    io.save = [files](const SimulationSpec& spec, const std::string& path) {
        files->files[path] = spec;
        ++files->saves;
    };
    io.importAstra = [](const AstraImportRequest&) -> SimulationSpec {
        throw Error(ErrorKind::Input, "network.yml:3:1: npus_count: expected a list",
                    SourceLocation{"network.yml", 3, 1, "npus_count"});
    };
    return io;
}

/// Services with settings in a private file, so tests never touch the user's settings.
inline GuiServices testServices(const QTemporaryDir& dir, RunController::RunFunction run = {},
                                std::shared_ptr<MemoryFiles> files = {}) {
    GuiServices s = defaultGuiServices();
    s.run = std::move(run);
    s.settingsFile = dir.filePath(QStringLiteral("settings.ini"));
    if (files)
        s.io = memoryIo(std::move(files));
    return s;
}

/// Copies the bundled projects/<project>/project.yaml into dir/<folder>/ (so its database is
/// made there); returns the copy's path, or an empty string when the copy failed.
inline QString copyBundledProject(const QTemporaryDir& dir, const QString& project,
                                  const QString& folder) {
    const QString from = QString::fromStdString(ASTROLABE_SOURCE_DIR) +
                         QStringLiteral("/projects/") + project + QStringLiteral("/project.yaml");
    const QString to = dir.filePath(folder + QStringLiteral("/project.yaml"));
    QDir().mkpath(dir.filePath(folder));
    return QFile::copy(from, to) ? to : QString();
}

/// The set-up many window tests share: a main window over a copy of the bundled quick-start
/// project in `dir` (settings there too), asking nothing before it closes. Null when the copy
/// or the open failed.
inline std::unique_ptr<MainWindow> openQuickStartWindow(const QTemporaryDir& dir) {
    const QString project =
        copyBundledProject(dir, QStringLiteral("quickstart"), QStringLiteral("quickstart"));
    if (project.isEmpty())
        return nullptr;
    auto window = std::make_unique<MainWindow>(testServices(dir));
    window->setAskBeforeDiscarding(false);
    return window->openProject(project) ? std::move(window) : nullptr;
}

/// Processes events until `condition` holds or `timeoutMs` passes; returns the condition.
/// (QTRY_* macros must not be used under GoogleTest: on failure they return silently.)
inline bool waitUntil(const std::function<bool()>& condition, int timeoutMs = 5000) {
    QElapsedTimer clock;
    clock.start();
    while (!condition()) {
        if (clock.elapsed() > timeoutMs)
            return false;
        QTest::qWait(5);
    }
    return true;
}

/// Saves a screenshot under screenshots/ in the working directory; returns its path.
/// Pending layout requests are processed first, so the picture shows what a user would see.
inline QString saveScreenshot(QWidget& widget, const QString& name) {
    QTest::qWait(30);
    QDir().mkpath(QStringLiteral("screenshots"));
    const QString path = QDir(QStringLiteral("screenshots")).absoluteFilePath(name);
    widget.grab().save(path);
    return path;
}

/// Whether any line of the log contains `text`.
inline bool logContains(const widgets::LogModel* log, const QString& text) {
    for (int row = 0; row < log->rowCount(); ++row)
        if (log->index(row).data().toString().contains(text))
            return true;
    return false;
}

/// Closes the non-modal error boxes the window has shown.
inline void closeErrorBoxes(QWidget& window) {
    for (QMessageBox* box : window.findChildren<QMessageBox*>(QStringLiteral("errorBox")))
        box->close();
}

} // namespace astrolabe::gui::test

/// Skips a whole-scenario test unless it runs in a real X window (ctest runs those executables
/// under xvfb-run): they measure the event loop and paint as a person sees it.
#define ASTROLABE_SKIP_UNLESS_REAL_WINDOW()                                                        \
    if (QGuiApplication::platformName() == QStringLiteral("xcb")) {                                \
    } else                                                                                         \
        GTEST_SKIP() << "needs a real X window (ctest runs this under xvfb-run); platform is "     \
                     << QGuiApplication::platformName().toStdString()
