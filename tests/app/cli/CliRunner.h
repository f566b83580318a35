#pragma once
// Runs astrolabe-cli in-process with captured streams.

#include "cli/Commands.h"

#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace clitest {

struct Result {
    int code;
    std::string out;
    std::string err;
};

/// Sets an environment variable for one scope.
struct ScopedEnv {
    ScopedEnv(const char* name, const std::string& value)
        : m_name(name) {
        setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() { unsetenv(m_name); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;
    const char* m_name;
};

inline Result cli(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    const int code = astrolabe::cli::runCli(args, out, err);
    return {code, out.str(), err.str()};
}

/// A folder for one test's outputs, created: <temp>/astrolabe-<name>-<pid>. Every such folder is
/// removed when the test process ends (ctest runs each test in a process of its own, so folders
/// left behind would pile up in the temp folder, one per test per run).
inline std::filesystem::path scratchDir(const std::string& name) {
    struct Folders {
        std::set<std::filesystem::path> paths;
        ~Folders() {
            for (const std::filesystem::path& p : paths) {
                std::error_code ignored;
                std::filesystem::remove_all(p, ignored);
            }
        }
    };
    static Folders folders;
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("astrolabe-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    folders.paths.insert(dir);
    return dir;
}

} // namespace clitest
