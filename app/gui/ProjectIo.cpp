#include "gui/ProjectIo.h"

#include "core/Error.h"

namespace astrolabe::gui {

// SEAM (lead): replace the three bodies below with config::loadProject(path),
// config::saveProject(spec, path) and the ASTRA-sim importer once engine/config provides them.
// Until then they say plainly what is missing instead of pretending to work.
ProjectIo defaultProjectIo() {
    ProjectIo io;
    io.load = [](const std::string& path) -> SimulationSpec {
        throw Error(ErrorKind::Unsupported,
                    "cannot open \"" + path +
                        "\": project files are not supported by this "
                        "build yet",
                    SourceLocation{path, 0, 0, {}},
                    "start from File > New Project and its presets");
    };
    io.save = [](const SimulationSpec&, const std::string& path) {
        throw Error(ErrorKind::Unsupported,
                    "cannot save \"" + path +
                        "\": project files are not supported by this build yet",
                    SourceLocation{path, 0, 0, {}});
    };
    io.importAstra = [](const AstraImportRequest&) -> SimulationSpec {
        throw Error(ErrorKind::Unsupported,
                    "importing ASTRA-sim configurations is not supported by this build yet");
    };
    return io;
}

} // namespace astrolabe::gui
