#pragma once
// Where the executables look for the modules they open with dlopen() only when a run or a
// command needs them: the packet tier (astrolabe-packet.so, ns-3) and the PNG renderer
// (astrolabe-svg-png.so, Qt). Both are built into one folder of the build tree and installed
// into <libdir>/astrolabe/ (cmake/Packaging.cmake).

#include <string>
#include <vector>

namespace astrolabe {

/// The paths to try for the module `fileName`, in order: the environment variable
/// `overrideVariable` alone when it is set and not empty; otherwise next to the executable, the
/// installed location relative to it (the .deb's <libdir>/astrolabe/), and the build tree's
/// folder of the modules. No path repeats.
std::vector<std::string> moduleCandidates(const std::string& fileName,
                                          const char* overrideVariable);

/// dlerror()'s text, or a placeholder when it has none.
std::string dlErrorText();

} // namespace astrolabe
