#include "core/OutputFile.h"

#include "core/Error.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace astrolabe {

namespace {

std::string reason(int error) {
    return error != 0 ? std::strerror(error) : "the write failed";
}

/// Whether two paths name one file: the same file on disk when both exist, else the same path
/// once made absolute and normal (an input that does not exist yet, such as a new database).
bool sameFile(const std::string& a, const std::string& b) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec)) {
        const bool same = fs::equivalent(a, b, ec);
        return !ec && same;
    }
    const fs::path x = fs::weakly_canonical(fs::absolute(a, ec), ec);
    const fs::path y = fs::weakly_canonical(fs::absolute(b, ec), ec);
    return !ec && x == y;
}

} // namespace

void writeOutputFile(const std::string& path, const std::string& what,
                     const std::function<void(std::ostream&)>& write) {
    namespace fs = std::filesystem;
    const SourceLocation where{path, 0, 0, {}};
    // A new or regular file is written beside it and renamed over it when whole, so that a
    // failed write (a full disk) leaves the old file as it was, never a truncated one: a
    // calibrated project rewritten in place must survive it. A device, a pipe or a link is
    // written as it is (renaming over /dev/full would replace the device).
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(path, ec);
    const bool inPlace = fs::exists(status) && !fs::is_regular_file(status);
    std::string target = inPlace ? path : path + ".astrolabe-" + std::to_string(::getpid());
    errno = 0;
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    if (!out && !inPlace) { // a folder we may not create files in, around a file we may write
        target = path;
        errno = 0;
        out.open(target, std::ios::binary | std::ios::trunc);
    }
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
    const bool beside = target != path;
    if (out.fail()) {
        if (beside)
            fs::remove(target, ec);
        throw Error(ErrorKind::Input, "cannot write " + what + ": " + reason(error), where,
                    "check the free space and the permissions");
    }
    if (beside) {
        fs::rename(target, path, ec);
        if (ec) {
            fs::remove(target, ec);
            throw Error(ErrorKind::Input, "cannot replace " + what + ": " + ec.message(), where,
                        "check that the path is not a folder and is writable");
        }
    }
}

void checkDistinctOutputs(const std::vector<NamedInput>& outputs) {
    for (size_t i = 0; i < outputs.size(); ++i)
        for (size_t j = i + 1; j < outputs.size(); ++j)
            if (!outputs[i].path.empty() && !outputs[j].path.empty() &&
                sameFile(outputs[i].path, outputs[j].path))
                throw Error(ErrorKind::Input,
                            "cannot write " + outputs[i].what + " and " + outputs[j].what +
                                " to one file (" + outputs[j].path +
                                "): the second would replace the first",
                            SourceLocation{outputs[j].path, 0, 0, {}},
                            "name another file for " + outputs[j].what);
}

void checkOutputPath(const std::string& path, const std::string& what,
                     const std::vector<NamedInput>& inputs) {
    namespace fs = std::filesystem;
    const SourceLocation where{path, 0, 0, {}};
    for (const NamedInput& input : inputs)
        if (!input.path.empty() && sameFile(path, input.path))
            throw Error(ErrorKind::Input,
                        "cannot write " + what + " there: it is " + input.what + " (" + input.path +
                            "), which this command reads and writing would destroy",
                        where, "name another file for " + what);
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw Error(ErrorKind::Input, "cannot write " + what + ": the path is a folder", where,
                    "name a file");
    const fs::path parent = fs::path(path).parent_path();
    const std::string folder = parent.empty() ? std::string(".") : parent.string();
    if (!fs::is_directory(folder, ec))
        throw Error(ErrorKind::Input,
                    "cannot write " + what + ": its folder " + folder + " does not exist", where,
                    "make the folder first, or name another file");
    if (::access(folder.c_str(), W_OK) != 0 && ::access(path.c_str(), W_OK) != 0)
        throw Error(ErrorKind::Input, "cannot write " + what + ": " + reason(errno), where,
                    "check the permissions of " + folder);
}

void makeOutputFolder(const std::string& folder, const std::string& what) {
    const SourceLocation where{folder, 0, 0, {}};
    std::error_code failed;
    if (std::filesystem::is_directory(folder, failed))
        return;
    if (std::filesystem::exists(folder, failed))
        throw Error(ErrorKind::Input,
                    "cannot make the folder for " + what + ": a file of that name is there", where,
                    "name a folder, or remove the file");
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
