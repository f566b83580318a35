#pragma once
// A fresh directory under the system temp folder, removed when the test ends.

#include <filesystem>
#include <string>
#include <unistd.h>

namespace astrolabe::test {

class TempDir {
public:
    explicit TempDir(const std::string& name)
        : m_path(std::filesystem::temp_directory_path() /
                 ("astrolabe_" + name + "_" + std::to_string(::getpid()))) {
        std::filesystem::remove_all(m_path);
        std::filesystem::create_directories(m_path);
    }
    ~TempDir() { std::filesystem::remove_all(m_path); }
    std::string file(const std::string& name) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};

} // namespace astrolabe::test
