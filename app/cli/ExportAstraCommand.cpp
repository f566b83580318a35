#include "cli/ExportAstraCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "project/ProjectFile.h"
#include "simulation/AstraProjectExport.h"

#include <ostream>

namespace astrolabe::cli {

ArgParser exportAstraParser() {
    return ArgParser("export-astra",
                     "Write a project as ASTRA-sim 2.x inputs (network YAML, system JSON, "
                     "remote-memory JSON, communicator groups, the microbenchmark's traces) and "
                     "print the command line that runs them, here ('astrolabe-cli astra') or in "
                     "ASTRA-sim. Settings ASTRA-sim cannot run or ignores are listed as warnings.",
                     {{"out", "DIR", "folder to write into (created)", ""}}, {"PROJECT.yaml"});
}

int exportAstraCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const std::string project = args.positional().at(0);
    requireFile("project", project);
    const std::string folder = args.value("out");
    if (folder.empty())
        throw UsageError("export-astra: --out DIR is required");
    const SimulationSpec spec = loadProject(project);
    refuseServingProject(spec, "export-astra", project);
    for (const std::string& difference : astraExportDifferences(spec))
        err << "warning: " << difference << "\n";
    const AstraExportFiles files = exportAstraInputs(spec, folder);
    out << "wrote " << folder << " (" << spec.platform.npuCount() << " NPUs, "
        << spec.platform.dimensions.size()
        << (spec.platform.dimensions.size() == 1 ? " dimension" : " dimensions")
        << ")\nrun it with:\n  astrolabe-cli astra";
    for (const std::string& a : files.arguments)
        out << " \\\n      " << a;
    out << "\nor with ASTRA-sim's analytical binary and the same flags.\n";
    return kExitOk;
}

} // namespace astrolabe::cli
