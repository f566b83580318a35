#pragma once
// Every file the engine and the CLI write goes through here, so that a write that does not reach
// the disk (a full disk, /dev/full, a folder that is not writable) is an error naming the file,
// never a silent success with a truncated or empty file.

#include <functional>
#include <ostream>
#include <string>

namespace astrolabe {

/// Creates or truncates `path`, lets `write` fill it, then flushes and closes it. `what` names
/// the file in messages ("the JSON result"). Throws astrolabe::Error (kind Input) when the file
/// cannot be created or any byte cannot be written.
void writeOutputFile(const std::string& path, const std::string& what,
                     const std::function<void(std::ostream&)>& write);

} // namespace astrolabe
