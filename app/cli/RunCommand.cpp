#include "cli/RunCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/RunReport.h"
#include "config/ProjectFile.h"
#include "simulation/Simulation.h"

#include <ostream>

namespace astrolabe::cli {

ArgParser runParser() {
    return ArgParser("run", "Run an Astrolabe project and print where the time went.",
                     {{"json", "FILE", "also write the full result as JSON", ""},
                      {"astra-log", "", "also print ASTRA-sim's report lines", ""}},
                     {"PROJECT.yaml"});
}

int runCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const std::string project = args.positional().at(0);
    requireFile("project", project);
    std::vector<std::string> warnings;
    const SimulationSpec spec = loadProject(project, &warnings);
    for (const std::string& w : warnings)
        err << "astrolabe-cli: warning: " << w << "\n";
    const std::shared_ptr<const RunResult> result = runSimulation(spec);
    printRunSummary(out, spec, *result);
    if (args.has("astra-log"))
        for (const std::string& line : astraLogLines(*result))
            out << line << "\n";
    if (const std::string json = args.value("json"); !json.empty())
        writeResultJson(*result, spec, json);
    return kExitOk;
}

} // namespace astrolabe::cli
