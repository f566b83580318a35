#include "core/OutputFile.h"

#include "core/Error.h"

#include <cerrno>
#include <cstring>
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
    if (out.fail())
        throw Error(ErrorKind::Input, "cannot write " + what + ": " + reason(error), where,
                    "check the free space and the permissions");
}

} // namespace astrolabe
