#pragma once
// A fresh folder under the system temp folder for one test's files, removed when the object goes
// away: <temp>/astrolabe-<label>-<pid>-<n>, so tests running at once never share one.

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <unistd.h>

namespace astrolabe::test {

class TempDir {
public:
    explicit TempDir(const std::string& label = "test") {
        static std::atomic<int> counter{0};
        m_dir = std::filesystem::temp_directory_path() /
                ("astrolabe-" + label + "-" + std::to_string(::getpid()) + "-" +
                 std::to_string(counter++));
        std::filesystem::remove_all(m_dir);
        std::filesystem::create_directories(m_dir);
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(m_dir, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& dir() const { return m_dir; }
    /// The path of `name` inside the folder (the folder itself for "").
    std::string path(const std::string& name = {}) const { return (m_dir / name).string(); }
    /// Writes `text` to `name` (sub-folders created) and returns its path.
    std::string write(const std::string& name, const std::string& text) const {
        const std::filesystem::path file = m_dir / name;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file, std::ios::binary) << text;
        return file.string();
    }

private:
    std::filesystem::path m_dir;
};

} // namespace astrolabe::test
