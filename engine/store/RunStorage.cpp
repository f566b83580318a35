#include "store/RunStorage.h"

#include "core/Error.h"
#include "export/SpecJson.h"
#include "store/Sha256.h"

#include <filesystem>

namespace astrolabe {
namespace {

namespace fs = std::filesystem;

void addFile(RunProvenance& p, const std::string& input, const std::string& path) {
    if (path.empty())
        return;
    std::string hash;
    try {
        hash = sha256File(path);
    } catch (const Error&) {
        hash = "unreadable";
    }
    p.inputHashes.emplace_back(input + ":" + path, hash);
}

} // namespace

std::string defaultDatabasePath(const std::string& projectFile) {
    if (projectFile.empty())
        return "astrolabe.db";
    const fs::path folder = fs::path(projectFile).parent_path();
    return folder.empty() ? std::string("astrolabe.db") : (folder / "astrolabe.db").string();
}

RunProvenance makeProvenance(const SimulationSpec& spec) {
    RunProvenance p;
    p.configJson = specToJsonText(spec);
    p.inputHashes.emplace_back("configuration", sha256Hex(p.configJson));
    addFile(p, "project", spec.sourceFile);
    addFile(p, "platform", spec.platform.sourceFile);
    addFile(p, "system", spec.system.sourceFile);
    addFile(p, "memory", spec.memory.sourceFile);
    if (spec.workload.kind == WorkloadSource::Kind::ChakraTrace &&
        !spec.workload.tracePrefix.empty())
        for (int i = 0; i < spec.platform.npuCount(); ++i) {
            const std::string file = spec.workload.tracePrefix + "." + std::to_string(i) + ".et";
            if (fs::is_regular_file(file))
                addFile(p, "workload." + std::to_string(i), file);
        }
    return p;
}

namespace {
RunProvenance stampedProvenance(const SimulationSpec& spec, const RunStamp& stamp) {
    RunProvenance provenance = makeProvenance(spec);
    provenance.number = stamp.number;
    provenance.created = stamp.created;
    provenance.tags = stamp.tags;
    provenance.notes = stamp.notes;
    return provenance;
}
} // namespace

int64_t storeRun(ProjectDatabase& db, const SimulationSpec& spec, const RunResult& result,
                 double wallSeconds, const RunStamp& stamp) {
    const RunProvenance provenance = stampedProvenance(spec, stamp);
    // The wall time goes in beside the result: a copy of a 65,536-NPU result would double the
    // peak memory of the save.
    return db.saveRun(result, provenance, wallSeconds > 0 ? wallSeconds : -1);
}

int64_t storeFailedRun(ProjectDatabase& db, const SimulationSpec& spec, RunStatus status,
                       const std::string& message, double wallSeconds, const RunStamp& stamp) {
    const RunProvenance provenance = stampedProvenance(spec, stamp);
    return db.saveFailedRun(spec.name, status, message, wallSeconds, provenance);
}

int64_t saveRunToProjectDb(const std::string& dbPath, const SimulationSpec& spec,
                           const RunResult& result, double wallSeconds) {
    ProjectDatabase db(dbPath.empty() ? defaultDatabasePath(spec.sourceFile) : dbPath);
    return storeRun(db, spec, result, wallSeconds);
}

} // namespace astrolabe
