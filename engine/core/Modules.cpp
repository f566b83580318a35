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

namespace {

std::string dlErrorText() {
    const char* text = dlerror();
    return text != nullptr ? text : "unknown dlopen error";
}

/// Opens one candidate; empty on success (its entry point in `entry`), else why it failed.
std::string tryOpen(const std::string& path, const ModuleSymbols& symbols, void*& entry) {
    std::error_code error;
    if (!fs::is_regular_file(path, error))
        return "no such file";
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr)
        return dlErrorText();
    using AbiFn = int (*)();
    const auto abi = reinterpret_cast<AbiFn>(dlsym(handle, symbols.abiSymbol));
    void* found = dlsym(handle, symbols.entrySymbol);
    if (abi == nullptr || found == nullptr)
        return std::string("not a ") + symbols.kind + ": no " + symbols.abiSymbol + " or " +
               symbols.entrySymbol;
    if (abi() != symbols.abi)
        return "built for another version of Astrolabe (interface " + std::to_string(abi()) +
               ", this executable expects " + std::to_string(symbols.abi) + ")";
    entry = found;
    return {};
}

} // namespace

void* openModuleEntry(const std::vector<std::string>& candidates, const ModuleSymbols& symbols,
                      std::string& tried) {
    for (const std::string& path : candidates) {
        void* entry = nullptr;
        const std::string why = tryOpen(path, symbols, entry);
        if (entry != nullptr)
            return entry;
        tried += "\n  " + path + ": " + why;
    }
    return nullptr;
}

} // namespace astrolabe
