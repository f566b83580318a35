#pragma once
// What a reader of one project file carries: where errors go, the file's folder (relative
// paths are taken from it) and the warnings; the settings schema's project hooks receive it.
#include "yaml/ProjectValues.h"

#include <string>
#include <vector>

namespace astrolabe::config {

struct ProjectContext {
    Diagnostics& diagnostics;
    std::string directory; ///< the project file's folder, absolute
    std::vector<std::string>* warnings;

    /// Absolute and normalised; relative paths are taken from the project's folder.
    std::string resolve(const std::string& path) const;
    /// Runs a loader of another file, moving its errors (already located) into diagnostics.
    template <typename Load> bool absorb(Load load) {
        try {
            load();
            return true;
        } catch (const ErrorList& list) {
            for (const Error& e : list.errors())
                diagnostics.relocate(e, e.where());
        } catch (const Error& e) {
            diagnostics.relocate(e, e.where());
        }
        return false;
    }
};

} // namespace astrolabe::config
