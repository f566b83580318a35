#include "cli/RunCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/RunReport.h"
#include "cli/TerminalProgress.h"
#include "core/Error.h"
#include "core/OutputFile.h"
#include "export/AstraReport.h"
#include "project/ProjectFile.h"
#include "simulation/Simulation.h"
#include "store/ProjectDatabase.h"
#include "store/RunStorage.h"
#include "yaml/ProjectValues.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <ostream>

namespace astrolabe::cli {

ArgParser runParser() {
    return ArgParser("run", "Run an Astrolabe project and print where the time went.",
                     {{"json", "FILE", "also write the full result as JSON", ""},
                      {"db", "FILE", "project database to store the run in",
                       "the project's folder/astrolabe.db"},
                      {"no-store", "", "do not store the run in the project database", ""},
                      {"astra-log", "", "also print ASTRA-sim's report lines", ""},
                      {"backend", "NAME",
                       "network model for this run: congestion-unaware, congestion-aware or packet",
                       "the project's"},
                      progressFlag()},
                     {"PROJECT.yaml"});
}

int runCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const std::string project = args.positional().at(0);
    requireFile("project", project);
    std::vector<std::string> warnings;
    SimulationSpec spec = loadProject(project, &warnings);
    refuseServingProject(spec, "run", project);
    applyBackendOption(args.value("backend"), spec.options.backend);
    for (const std::string& w : warnings)
        err << "astrolabe-cli: warning: " << w << "\n";
    const bool store = !args.has("no-store");
    const std::string db =
        args.value("db").empty() ? defaultDatabasePath(project) : args.value("db");
    if (const std::string json = args.value("json"); !json.empty()) // before the run, not after
        checkOutputPath(json, "the JSON result",
                        {{project, "the project"}, {store ? db : "", "the project database"}});
    // The database is opened before the run: one that cannot be opened (a folder, a text file,
    // another program's SQLite file) is reported before minutes of simulation, not after.
    std::optional<ProjectDatabase> database;
    if (store)
        database.emplace(db);
    std::shared_ptr<const RunResult> result;
    const auto started = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    try {
        TerminalProgress progress(err, args);
        result = runSimulation(spec, &progress);
    } catch (const Error& e) {
        // A failed run is kept too, with its message: the database says what was tried.
        if (database) {
            storeFailedRun(*database, spec,
                           e.kind() == ErrorKind::Cancelled ? RunStatus::Cancelled
                                                            : RunStatus::Failed,
                           e.what(), elapsed());
        }
        throw;
    }
    printRunSummary(out, spec, *result);
    writeMemoryTraces(out, spec, *result,
                      std::filesystem::absolute(project).parent_path().string());
    if (args.has("astra-log"))
        writeAstraReport(out, *result);
    // Stored first: a JSON result is written only when the run was kept.
    if (database) {
        const int64_t id = storeRun(*database, spec, *result, elapsed());
        out << "  stored as run " << id << " in " << db << "\n";
    }
    if (const std::string json = args.value("json"); !json.empty())
        writeResultJsonFile(*result, spec, json);
    return kExitOk;
}

} // namespace astrolabe::cli
