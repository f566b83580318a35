#include "sweep/SweepLock.h"

#include "core/Error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace astrolabe {

std::string SweepLock::lockPath(const std::string& databasePath, const std::string& identity) {
    return databasePath + ".sweep-" + identity + ".lock";
}

SweepLock::SweepLock(const std::string& databasePath, const std::string& identity)
    : m_path(lockPath(databasePath, identity)) {
    // The holder removes the file when it lets go; a process that opened it just before must
    // not lock the removed file, so the lock counts only while the path still names it.
    for (;;) {
        m_fd = ::open(m_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (m_fd < 0)
            throw Error(ErrorKind::Input, "cannot create the sweep's lock file " + m_path + ": " +
                                              std::strerror(errno));
        if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
            char holder[32] = {};
            const ssize_t n = ::pread(m_fd, holder, sizeof holder - 1, 0);
            ::close(m_fd);
            m_fd = -1;
            const std::string pid = n > 0 ? std::string(holder, static_cast<size_t>(n)) : "?";
            throw Error(ErrorKind::Input,
                        "the same sweep is already running into the database " + databasePath +
                            " (process " + pid + ")",
                        {},
                        "wait for it to finish (then this command runs what it left), or give "
                        "this one another database with --db");
        }
        struct stat opened {
        }, named{};
        if (::fstat(m_fd, &opened) == 0 && ::stat(m_path.c_str(), &named) == 0 &&
            opened.st_ino == named.st_ino && opened.st_dev == named.st_dev)
            break;
        ::close(m_fd);
    }
    const std::string pid = std::to_string(::getpid());
    if (::ftruncate(m_fd, 0) != 0 || ::pwrite(m_fd, pid.data(), pid.size(), 0) < 0) {
        // The pid only makes the message of a refused sweep clearer; the lock holds without it.
    }
}

SweepLock::~SweepLock() {
    if (m_fd < 0)
        return;
    ::unlink(m_path.c_str());
    ::close(m_fd);
}

} // namespace astrolabe
