#pragma once
// Saving a run of a SimulationSpec into the project database, with its provenance: the engine
// version, the normalized configuration and the SHA-256 of every input file it read.
// This is what `astrolabe-cli run` and the GUI call after runSimulation().

#include "config/SimulationSpec.h"
#include "record/RunResult.h"
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

/// Stores a finished run; result.wallSeconds is replaced by wallSeconds when > 0. Returns the id.
/// `runNumber` is the run's number within the project (0: the next one).
int64_t storeRun(ProjectDatabase& db, const SimulationSpec& spec, const RunResult& result,
                 double wallSeconds, int64_t runNumber = 0);
/// Stores a run that failed or was cancelled, with the error message.
int64_t storeFailedRun(ProjectDatabase& db, const SimulationSpec& spec, RunStatus status,
                       const std::string& message, double wallSeconds, int64_t runNumber = 0);

/// Opens (creating) the database at dbPath, or defaultDatabasePath(spec.sourceFile) when empty,
/// and stores the run. Returns the run id.
int64_t saveRunToProjectDb(const std::string& dbPath, const SimulationSpec& spec,
                           const RunResult& result, double wallSeconds);

} // namespace astrolabe
