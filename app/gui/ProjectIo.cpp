#include "gui/ProjectIo.h"

#include "astra/AstraInputs.h"
#include "project/ProjectFile.h"

namespace astrolabe::gui {

// Project files and ASTRA-sim imports go through the same engine loaders as the CLI, so a
// file that fails to load gives the same message in both.
ProjectIo defaultProjectIo() {
    ProjectIo io;
    io.load = [](const std::string& path, std::vector<std::string>* warnings) {
        return loadProjectForEditing(path, warnings);
    };
    io.save = [](const SimulationSpec& spec, const std::string& path) { saveProject(spec, path); };
    io.importAstra = [](const AstraImportRequest& request) {
        AstraInputs inputs;
        inputs.networkFile = request.networkYaml.toStdString();
        inputs.systemFile = request.systemJson.toStdString();
        inputs.remoteMemoryFile = request.remoteMemoryJson.toStdString();
        inputs.workloadPrefix = request.workloadPrefix.toStdString();
        if (!request.commGroupJson.isEmpty())
            inputs.commGroupFile = request.commGroupJson.toStdString();
        return importAstraConfiguration(inputs);
    };
    return io;
}

} // namespace astrolabe::gui
