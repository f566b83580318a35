// GUI tests run headless: QT_QPA_PLATFORM defaults to offscreen when unset.
#include "gui/ProcessMemory.h"

#include <QApplication>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace {

// Qt wants a private runtime directory and warns on every start without one ("QStandardPaths:
// XDG_RUNTIME_DIR not set"), which a headless build or CI machine does not have: ctest's test
// discovery starts this executable during the build. Give it a fresh private directory.
// Returns the directory made, to be removed at exit, or an empty string.
std::string ensureRuntimeDirectory() {
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return {};
    std::string dir = "/tmp/astrolabe-tests-XXXXXX";
    if (::mkdtemp(dir.data()) == nullptr) // mode 0700, as Qt requires
        return {};
    ::setenv("XDG_RUNTIME_DIR", dir.c_str(), 1);
    return dir;
}

} // namespace

int main(int argc, char** argv) {
    astrolabe::gui::configureHeap(); // as the application does
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    const std::string runtimeDirectory = ensureRuntimeDirectory();
    int status = 0;
    {
        QApplication app(argc, argv);
        ::testing::InitGoogleTest(&argc, argv);
        status = RUN_ALL_TESTS();
    }
    if (!runtimeDirectory.empty()) {
        std::error_code ignored;
        std::filesystem::remove_all(runtimeDirectory, ignored);
    }
    return status;
}
