#include "core/Modules.h"

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <system_error>

// Set by engine/core/CMakeLists.txt: the modules' folder in the build tree, and the installed
// modules' folder relative to the installed executables' (e.g. "../lib/astrolabe").
#ifndef ASTROLABE_MODULE_BUILD_DIR
#define ASTROLABE_MODULE_BUILD_DIR ""
#endif
#ifndef ASTROLABE_MODULE_INSTALL_DIR
#define ASTROLABE_MODULE_INSTALL_DIR "../lib/astrolabe"
#endif

namespace astrolabe {

namespace fs = std::filesystem;

std::vector<std::string> moduleCandidates(const std::string& fileName,
                                          const char* overrideVariable) {
    if (const char* forced = std::getenv(overrideVariable); forced != nullptr && *forced)
        return {forced};
    std::vector<std::string> paths;
    const auto add = [&paths](const fs::path& path) {
        const std::string text = path.lexically_normal().string();
        for (const std::string& seen : paths)
            if (seen == text)
                return;
        paths.push_back(text);
    };
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    if (!error) {
        add(self.parent_path() / fileName);
        add(self.parent_path() / ASTROLABE_MODULE_INSTALL_DIR / fileName);
    }
    if (*ASTROLABE_MODULE_BUILD_DIR)
        add(fs::path(ASTROLABE_MODULE_BUILD_DIR) / fileName);
    return paths;
}

std::string dlErrorText() {
    const char* text = dlerror();
    return text != nullptr ? text : "unknown dlopen error";
}

} // namespace astrolabe
