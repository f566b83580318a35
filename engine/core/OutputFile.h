#pragma once
// Every file the engine and the CLI write goes through here, so that a write that does not reach
// the disk (a full disk, /dev/full, a folder that is not writable) is an error naming the file,
// never a silent success with a truncated or empty file.

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace astrolabe {

/// Lets `write` fill `path`: a new or regular file is written beside it and renamed over it
/// when whole (a failure leaves the old file as it was); a device, pipe or link is written in
/// place. `what` names the file in messages ("the JSON result"). Throws astrolabe::Error (kind
/// Input) when the file cannot be created or any byte cannot be written.
void writeOutputFile(const std::string& path, const std::string& what,
                     const std::function<void(std::ostream&)>& write);

/// A file a command reads, and what the user knows it as ("the project database").
struct NamedInput {
    std::string path;
    std::string what;
};

/// Checks, before the work that ends in writing `path`, that it can be written: its folder exists
/// and is writable, the path is not a folder, and it is none of the `inputs` the command reads
/// (the same file however it is named: another relative path, a link), which writing would
/// destroy. Throws astrolabe::Error (kind Input) naming it and `what` it is for, so that a long
/// run is not wasted on an output it cannot keep.
void checkOutputPath(const std::string& path, const std::string& what,
                     const std::vector<NamedInput>& inputs = {});

/// Refuses two outputs of one command that name the same file (however spelled): the second
/// would replace the first. Throws astrolabe::Error (kind Input) naming both.
void checkDistinctOutputs(const std::vector<NamedInput>& outputs);

/// Creates `folder` (and its parents) unless it is a folder already. Throws astrolabe::Error
/// (kind Input) naming it and `what` it is for when it cannot be: a file stands there or on its
/// path, or it is not writable.
void makeOutputFolder(const std::string& folder, const std::string& what);

/// A set of files written together (a trace per rank): a writer notes each file once it is
/// written and commits when all are. When the set goes out of scope without commit() (an error
/// part way: a full disk, an unwritable rank), the files noted are removed, so that a failed
/// command leaves no half-written set that a later run would read as whole. (A file that failed
/// part way was never renamed into place: writeOutputFile.)
class OutputSet {
public:
    OutputSet() = default;
    OutputSet(const OutputSet&) = delete;
    OutputSet& operator=(const OutputSet&) = delete;
    ~OutputSet();
    /// Notes `path`, written, as part of the set.
    void add(const std::string& path) { m_paths.push_back(path); }
    void commit() { m_paths.clear(); }

private:
    std::vector<std::string> m_paths;
};

} // namespace astrolabe
