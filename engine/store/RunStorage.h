#pragma once
// Saving a run of a SimulationSpec into the project database, with its provenance: the engine
// version, the normalized configuration and the SHA-256 of every input file it read.
// This is what `astrolabe-cli run` and the GUI call after runSimulation().

#include "record/RunResult.h"
#include "spec/SimulationSpec.h"
#include "store/ProjectDatabase.h"

#include <string>

namespace astrolabe {

/// The project file's folder + "/astrolabe.db" ("astrolabe.db" when projectFile is empty).
std::string defaultDatabasePath(const std::string& projectFile);

/// Configuration JSON and input hashes: "configuration" (the JSON text), "project",
/// "platform", "system", "memory" (their source files, when set and readable) and
/// "workload.<i>" for each Chakra trace file PREFIX.i.et that exists. Files that cannot be read
/// are listed with hash "unreadable" rather than failing the save.
RunProvenance makeProvenance(const SimulationSpec& spec);

/// What a run brings along when it is stored after the fact (an unsaved project's runs, moved
/// into the database beside the project when it is first saved).
struct RunStamp {
    int64_t number = 0;  ///< the run's number within the project (0: the next one)
    std::string created; ///< ISO 8601 UTC (empty: now)
    std::vector<std::string> tags;
    std::string notes;
};

/// Stores a finished run; result.wallSeconds is replaced by wallSeconds when > 0. Returns the id.
int64_t storeRun(ProjectDatabase& db, const SimulationSpec& spec, const RunResult& result,
                 double wallSeconds, const RunStamp& stamp = {});
/// Stores a run that failed or was cancelled, with the error message.
int64_t storeFailedRun(ProjectDatabase& db, const SimulationSpec& spec, RunStatus status,
                       const std::string& message, double wallSeconds, const RunStamp& stamp = {});

/// Opens (creating) the database at dbPath, or defaultDatabasePath(spec.sourceFile) when empty,
/// and stores the run. Returns the run id.
int64_t saveRunToProjectDb(const std::string& dbPath, const SimulationSpec& spec,
                           const RunResult& result, double wallSeconds);

} // namespace astrolabe
