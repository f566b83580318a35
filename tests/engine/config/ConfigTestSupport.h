#pragma once
// Helpers for config tests: a scratch folder that removes itself, and access to the shared
// reference inputs (tests skip when ../shared is absent).

#include "TestPaths.h"
#include "core/Error.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace astrolabe::configtest {

class ScratchDir {
public:
    ScratchDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_path = std::filesystem::temp_directory_path() /
                 ("astrolabe-config-" + std::string(info ? info->name() : "x") + "-" +
                  std::to_string(::getpid()));
        std::filesystem::remove_all(m_path);
        std::filesystem::create_directories(m_path);
    }
    ~ScratchDir() { std::filesystem::remove_all(m_path); }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    /// Writes `text` to `name` (sub-folders created) and returns the full path.
    std::string write(const std::string& name, const std::string& text) const {
        const std::filesystem::path file = m_path / name;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file, std::ios::binary) << text;
        return file.string();
    }
    std::string path(const std::string& name = {}) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};

inline std::filesystem::path sharedReference() {
    return std::filesystem::path(ASTROLABE_SHARED_DIR) / "reference";
}

/// The message of the error `load` throws (every line of an ErrorList), or "" if none.
inline std::string errorText(const std::function<void()>& load) {
    try {
        load();
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

} // namespace astrolabe::configtest

#define ASTROLABE_REQUIRE_SHARED()                                                                 \
    do {                                                                                           \
        if (!std::filesystem::is_directory(astrolabe::configtest::sharedReference() /              \
                                           "astra-sim"))                                           \
            GTEST_SKIP() << "reference inputs not found at "                                       \
                         << astrolabe::configtest::sharedReference();                              \
    } while (0)
