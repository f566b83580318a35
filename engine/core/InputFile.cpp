#include "core/InputFile.h"

#include "core/Error.h"
#include "core/Units.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace astrolabe {

namespace {

const char* fileTypeName(mode_t mode) {
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

} // namespace

InputFile::InputFile(const std::string& path, const std::string& what, uint64_t maxBytes)
    : m_path(path)
    , m_what(what)
    , m_maxBytes(maxBytes) {
    const SourceLocation where{path, 0, 0, {}};
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
    m_fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (m_fd < 0) {
        const int error = errno;
        throw Error(ErrorKind::Input,
                    "cannot open " + what + ": " +
                        (error == ENOENT ? std::string("no such file") : std::strerror(error)),
                    where, "check the path and the permissions");
    }
    struct stat st {};
    if (::fstat(m_fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const std::string type = fileTypeName(st.st_mode);
        ::close(m_fd);
        m_fd = -1;
        throw Error(ErrorKind::Input, "cannot read " + what + ": the path names " + type, where,
                    "expected a regular file");
    }
    m_size = static_cast<uint64_t>(st.st_size);
    if (m_size > maxBytes) {
        ::close(m_fd);
        m_fd = -1;
        throw Error(ErrorKind::Input,
                    "cannot read " + what + ": it is " + units::formatSize(m_size) +
                        ", larger than the limit of " + units::formatSize(maxBytes),
                    where, kLimitsHint);
    }
    ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) & ~O_NONBLOCK);
}

InputFile::~InputFile() {
    if (m_fd >= 0)
        ::close(m_fd);
}

size_t InputFile::read(char* buffer, size_t capacity) {
    while (true) {
        const ssize_t n = ::read(m_fd, buffer, capacity);
        if (n >= 0) {
            m_read += static_cast<uint64_t>(n);
            // A file that grows while it is read is still held to the limit.
            if (m_read > m_maxBytes)
                throw Error(ErrorKind::Input,
                            "cannot read " + m_what + ": it grew past the limit of " +
                                units::formatSize(m_maxBytes) + " while being read",
                            {m_path, 0, 0, {}});
            return static_cast<size_t>(n);
        }
        if (errno != EINTR)
            throw Error(ErrorKind::Input, "cannot read " + m_what + ": " + std::strerror(errno),
                        {m_path, 0, 0, {}});
    }
}

std::string InputFile::readAll() {
    std::string bytes(static_cast<size_t>(m_size), '\0');
    size_t used = 0;
    while (true) {
        if (used == bytes.size())
            bytes.resize(bytes.size() + (64 << 10));
        const size_t n = read(bytes.data() + used, bytes.size() - used);
        if (n == 0)
            break;
        used += n;
    }
    bytes.resize(used);
    return bytes;
}

std::string readInputFile(const std::string& path, const std::string& what, uint64_t maxBytes) {
    return InputFile(path, what, maxBytes).readAll();
}

bool isInsideFolder(const std::string& folder, const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path real = fs::weakly_canonical(path, ec);
    if (ec)
        real = fs::absolute(path).lexically_normal();
    fs::path root = fs::weakly_canonical(folder, ec);
    if (ec)
        root = fs::absolute(folder).lexically_normal();
    const fs::path relative = real.lexically_relative(root);
    return !relative.empty() && *relative.begin() != "..";
}

} // namespace astrolabe
