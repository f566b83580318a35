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

/// What a module exports: a function returning its interface version, and one entry point.
struct ModuleSymbols {
    const char* abiSymbol;
    int abi; ///< the interface version this executable was built with
    const char* entrySymbol;
    const char* kind; ///< "packet module": for the reasons a candidate is refused
};

/// The entry point of the first of `candidates` that opens and is the module `symbols` describes
/// (same interface version); nullptr when none is, with each path and why it was refused
/// appended to `tried` ("\n  PATH: no such file"). A module opened is never closed: both keep
/// process-wide state (ns-3's simulator singleton and type registry, Qt's application object)
/// that must not be unloaded while this process may use them again, and dlopen() of a path
/// already open returns the same handle, so a second use opens nothing new.
void* openModuleEntry(const std::vector<std::string>& candidates, const ModuleSymbols& symbols,
                      std::string& tried);

} // namespace astrolabe
