#pragma once
// Every file the engine reads goes through here: only regular files are read (a device such as
// /dev/zero, a FIFO or a folder named where a file belongs is refused at once instead of read
// forever or blocked on), and never more than a stated size. The limits are in docs/limits.md.

#include <cstdint>
#include <string>

namespace astrolabe {

inline constexpr uint64_t kMiB = uint64_t{1} << 20;
inline constexpr uint64_t kGiB = uint64_t{1} << 30;

/// A configuration, project, communicator-group or MSCCL-IR file: the largest real ones are
/// a few hundred KiB (a per-NPU group list of 4,096 NPUs).
inline constexpr uint64_t kMaxTextInputBytes = 256 * kMiB;
/// A project YAML file: its whole tree is held in memory while it is read (about 60 bytes for
/// each byte of text), so large lists (a graph's links) go in files it names instead.
inline constexpr uint64_t kMaxProjectFileBytes = 8 * kMiB;
/// One Chakra trace file as stored (binary, gzip or JSON).
inline constexpr uint64_t kMaxTraceFileBytes = 16 * kGiB;
/// One gzip-compressed Chakra trace once inflated.
inline constexpr uint64_t kMaxInflatedTraceBytes = 16 * kGiB;

/// An open regular file, checked on opening (closed by the destructor).
class InputFile {
public:
    /// Opens `path` for reading. `what` names the file in messages ("the network
    /// configuration"). Throws astrolabe::Error (kind Input) when the path does not exist, is
    /// not readable, is not a regular file, or is larger than `maxBytes`.
    InputFile(const std::string& path, const std::string& what, uint64_t maxBytes);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    uint64_t size() const { return m_size; }
    /// Reads up to `capacity` bytes; 0 at the end. Throws on a read error.
    size_t read(char* buffer, size_t capacity);
    /// The whole file (never more than the limit given on opening).
    std::string readAll();

private:
    std::string m_path;
    std::string m_what;
    uint64_t m_maxBytes;
    uint64_t m_size = 0;
    uint64_t m_read = 0;
    int m_fd = -1;
};

/// The whole of a regular file of at most `maxBytes`; see InputFile.
std::string readInputFile(const std::string& path, const std::string& what,
                          uint64_t maxBytes = kMaxTextInputBytes);

/// Whether `path` lies in `folder` or below it, links followed first (a link in the folder to a
/// file elsewhere lies elsewhere); a path that does not exist yet is judged by its name.
bool isInsideFolder(const std::string& folder, const std::string& path);

} // namespace astrolabe
