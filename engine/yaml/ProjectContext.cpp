#include "yaml/ProjectContext.h"

#include <filesystem>

namespace astrolabe::config {

namespace fs = std::filesystem;

std::string ProjectContext::resolve(const std::string& path) const {
    const fs::path p(path);
    return (p.is_absolute() ? p : fs::path(directory) / p).lexically_normal().string();
}

} // namespace astrolabe::config
