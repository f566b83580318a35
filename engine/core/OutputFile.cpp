#include "core/OutputFile.h"

#include "core/Error.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace astrolabe {

namespace {

std::string reason(int error) {
    return error != 0 ? std::strerror(error) : "the write failed";
}

} // namespace

void writeOutputFile(const std::string& path, const std::string& what,
                     const std::function<void(std::ostream&)>& write) {
    const SourceLocation where{path, 0, 0, {}};
    errno = 0;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        throw Error(ErrorKind::Input, "cannot create " + what + ": " + reason(errno), where,
                    "check that the folder exists and is writable");
    // The first failing system call's errno says why (ENOSPC, EIO, ...): the stream itself
    // only says that something failed.
    errno = 0;
    write(out);
    int error = out.fail() ? errno : 0;
    errno = 0;
    out.flush();
    error = error ? error : errno;
    out.close();
    error = error ? error : errno;
    if (out.fail()) {
        // What it holds is a truncated file, nothing anyone should read; only a regular file
        // (the path may be a device: /dev/full).
        std::error_code ignored;
        if (std::filesystem::is_regular_file(path, ignored))
            std::filesystem::remove(path, ignored);
        throw Error(ErrorKind::Input, "cannot write " + what + ": " + reason(error), where,
                    "check the free space and the permissions");
    }
}

void makeOutputFolder(const std::string& folder, const std::string& what) {
    const SourceLocation where{folder, 0, 0, {}};
    std::error_code failed;
    if (std::filesystem::is_directory(folder, failed))
        return;
    if (std::filesystem::exists(folder, failed))
        throw Error(ErrorKind::Input, "cannot make the folder for " + what + ": a file of that "
                    "name is there", where, "name a folder, or remove the file");
    failed.clear();
    std::filesystem::create_directories(folder, failed);
    if (failed)
        throw Error(ErrorKind::Input,
                    "cannot make the folder for " + what + ": " + failed.message(), where,
                    "check that no file stands on its path and that its parent is writable");
}

OutputSet::~OutputSet() {
    for (const std::string& path : m_paths) {
        std::error_code ignored; // best effort: the error that brought us here is the one to tell
        if (std::filesystem::is_regular_file(path, ignored))
            std::filesystem::remove(path, ignored);
    }
}

} // namespace astrolabe
