// Reading the Astrolabe project YAML (schema: docs/project-format.md).
#include "astra/AstraMemoryConfig.h"
#include "astra/AstraNetworkConfig.h"
#include "core/InputFile.h"
#include "core/Units.h"
#include "project/ProjectFile.h"
#include "project/ProjectReading.h"
#include "schema/SchemaProject.h"
#include "spec/SpecValidation.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>

namespace astrolabe {
namespace fs = std::filesystem;

namespace config {

namespace {

const std::vector<std::string>& topKeys() {
    static const std::vector<std::string> keys{"name",     "platform",    "system", "memory",
                                               "workload", "comm-groups", "run",    "serving"};
    return keys;
}

YAML::Node requireMap(Diagnostics& d, const YAML::Node& root, const std::string& key,
                      const std::string& expected) {
    const YAML::Node node = root[key];
    if (!node.IsDefined()) {
        d.error(d.at(0, 0, key), "required section is missing", "expected " + expected);
        return YAML::Node(YAML::NodeType::Undefined);
    }
    if (!node.IsMap()) {
        d.error(locate(d, node, key), "expected " + expected + ", found " + describe(node));
        return YAML::Node(YAML::NodeType::Undefined);
    }
    return node;
}

void readDimension(ProjectContext& c, const YAML::Node& node, const std::string& path,
                   DimensionSpec& dim) {
    Diagnostics& d = c.diagnostics;
    if (!node.IsMap()) {
        d.error(locate(d, node, path),
                "expected {type, size, bandwidth, latency}, found " + describe(node),
                "e.g. {type: Ring, size: 8, bandwidth: 50 GiB/s, latency: 500 ns}");
        return;
    }
    const settings::Group& group = settings::dimensionGroup();
    checkKeys(d, node, path, settings::projectKeys(group));
    SimulationSpec view = settings::dimensionView(dim);
    settings::readProjectGroup(c, node, group, view, nullptr, path);
    dim = view.platform.dimensions.front();
}

void readPlatform(ProjectContext& c, const YAML::Node& root, SimulationSpec& spec) {
    Diagnostics& d = c.diagnostics;
    const YAML::Node node = requireMap(
        d, root, "platform", "dimensions: [...], graph: {...} or astra-network: <file.yml>");
    if (!node.IsDefined())
        return;
    checkKeys(d, node, "platform", {"dimensions", "astra-network", "graph", "accelerator"});
    spec.platform.sourceFile = d.file();
    // The platform's own settings (accelerator) beside its form; an ASTRA-sim network file
    // replaces spec.platform, so they are applied after it.
    auto readOwn = [&] {
        if (node["accelerator"].IsDefined())
            settings::readProjectGroup(c, node, settings::platformGroup(), spec);
    };
    const bool inlineDimensions = node["dimensions"].IsDefined();
    const int forms = int(inlineDimensions) + int(node["astra-network"].IsDefined()) +
                      int(node["graph"].IsDefined());
    if (forms != 1) {
        d.error(locate(d, node, "platform"),
                forms > 1 ? "expected one of dimensions, astra-network or graph, found several"
                          : "expected dimensions, astra-network or graph, found none",
                "e.g. dimensions: [{type: Ring, size: 8, bandwidth: 50 GiB/s, latency: 500 ns}]");
        return;
    }
    if (node["graph"].IsDefined()) {
        readGraphPlatform(c, node["graph"], spec.platform);
        readOwn();
        return;
    }
    if (!inlineDimensions) {
        std::string file;
        if (readString(d, node["astra-network"], "platform.astra-network", file))
            c.absorb([&] { spec.platform = loadAstraNetworkYaml(c.resolve(file), c.warnings); });
        readOwn();
        return;
    }
    readOwn();
    const YAML::Node dims = node["dimensions"];
    if (!dims.IsSequence() || dims.size() == 0) {
        d.error(locate(d, dims, "platform.dimensions"),
                "expected a non-empty list of dimensions, found " + describe(dims));
        return;
    }
    spec.platform.dimensions.resize(dims.size());
    for (size_t i = 0; i < dims.size(); ++i)
        readDimension(c, dims[i], "platform.dimensions[" + std::to_string(i) + "]",
                      spec.platform.dimensions[i]);
}

void readMemory(ProjectContext& c, const YAML::Node& node, SimulationSpec& spec) {
    Diagnostics& d = c.diagnostics;
    if (!node.IsMap()) {
        d.error(locate(d, node, "memory"),
                "expected a map {type, latency, bandwidth, ...} or astra-memory: <file.json>, "
                "found " +
                    describe(node));
        return;
    }
    const settings::Group& group = settings::memoryGroup();
    checkKeys(d, node, "memory", settings::projectKeys(group));
    spec.memory.sourceFile = d.file();
    // astra-memory: <file.json> stands for the whole section; otherwise the keys are read.
    const bool fromFile = node["astra-memory"].IsDefined();
    if (fromFile && node.size() > 1)
        d.error(locate(d, node, "memory"),
                "astra-memory cannot be combined with other memory keys");
    if (fromFile) {
        std::string file;
        if (readString(d, node["astra-memory"], "memory.astra-memory", file))
            c.absorb([&] { spec.memory = loadAstraRemoteMemoryJson(c.resolve(file), c.warnings); });
        return;
    }
    settings::readProjectGroup(c, node, group, spec, [](const settings::Setting& s) {
        return s.path != "memory.astra-memory";
    });
}

void readWorkload(ProjectContext& c, const YAML::Node& root, SimulationSpec& spec) {
    Diagnostics& d = c.diagnostics;
    const YAML::Node node =
        requireMap(d, root, "workload", "trace: <prefix> or microbenchmark: {collective, size}");
    if (!node.IsDefined())
        return;
    checkKeys(d, node, "workload", {"trace", "microbenchmark"});
    const bool trace = node["trace"].IsDefined();
    if (trace == node["microbenchmark"].IsDefined()) {
        d.error(locate(d, node, "workload"),
                trace ? "expected trace or microbenchmark, found both"
                      : "expected trace or microbenchmark, found neither");
        return;
    }
    WorkloadSource& w = spec.workload;
    if (trace) {
        w.kind = WorkloadSource::Kind::ChakraTrace;
        std::string prefix;
        if (readString(d, node["trace"], "workload.trace", prefix))
            w.tracePrefix = c.resolve(prefix);
        return;
    }
    w.kind = WorkloadSource::Kind::Microbenchmark;
    const YAML::Node mb = node["microbenchmark"];
    const std::string path = "workload.microbenchmark";
    if (!mb.IsMap()) {
        d.error(locate(d, mb, path),
                "expected {collective, size, comm-group}, found " + describe(mb));
        return;
    }
    checkKeys(d, mb, path, {"collective", "size", "comm-group"});
    for (const char* key : {"collective", "size"})
        if (!mb[key].IsDefined())
            d.error(locate(d, mb, joinKey(path, key)), "required key is missing",
                    std::string(key) == "size" ? "e.g. size: 1 MiB"
                                               : "e.g. collective: all-reduce");
    if (mb["collective"].IsDefined())
        readName(d, mb["collective"], joinKey(path, "collective"), w.microbenchmark.collective,
                 parseProjectCollective);
    if (mb["size"].IsDefined())
        readSize(d, mb["size"], joinKey(path, "size"), w.microbenchmark.sizeBytes);
    int64_t group = 0;
    if (mb["comm-group"].IsDefined() &&
        readInt(d, mb["comm-group"], joinKey(path, "comm-group"), group)) {
        if (group < 0 || group > INT32_MAX)
            d.error(locate(d, mb["comm-group"], joinKey(path, "comm-group")),
                    "expected a group id (0 = all NPUs), found " + std::to_string(group));
        else
            w.microbenchmark.commGroup = static_cast<int>(group);
    }
}

void readCommGroups(ProjectContext& c, const YAML::Node& node, SimulationSpec& spec) {
    Diagnostics& d = c.diagnostics;
    if (node.IsScalar()) { // an ASTRA-sim comm-group JSON
        c.absorb([&] { spec.commGroups = loadCommGroupsJson(c.resolve(node.Scalar())); });
        return;
    }
    if (!node.IsMap()) {
        d.error(locate(d, node, "comm-groups"),
                "expected a map {<group id>: [ranks...]} or a JSON file, found " + describe(node));
        return;
    }
    for (auto it = node.begin(); it != node.end(); ++it) {
        const std::string key = it->first.IsScalar() ? it->first.Scalar() : "?";
        const std::string path = joinKey("comm-groups", key);
        int id = -1;
        try {
            id = it->first.as<int>();
        } catch (const YAML::BadConversion&) {
        }
        if (id <= 0) {
            d.error(locate(d, it->first, path),
                    id == 0
                        ? "group id 0 is reserved for all NPUs"
                        : "expected a group id (a whole number > 0), found " + describe(it->first),
                    "number your groups from 1");
            continue;
        }
        if (!it->second.IsSequence() || it->second.size() == 0) {
            d.error(locate(d, it->second, path),
                    "expected a non-empty list of ranks, found " + describe(it->second));
            continue;
        }
        std::vector<int> ranks;
        for (size_t i = 0; i < it->second.size(); ++i) {
            const std::string at = path + "[" + std::to_string(i) + "]";
            int64_t rank = 0;
            if (!readInt(d, it->second[i], at, rank))
                continue;
            if (rank < 0 || rank > INT32_MAX) {
                d.error(locate(d, it->second[i], at),
                        "expected a rank >= 0, found " + std::to_string(rank));
                continue;
            }
            if (std::find(ranks.begin(), ranks.end(), rank) != ranks.end())
                d.error(locate(d, it->second[i], at),
                        "rank " + std::to_string(rank) + " is listed twice in this group");
            ranks.push_back(static_cast<int>(rank));
        }
        spec.commGroups[id] = std::move(ranks);
    }
}

// `run:`, from the settings schema.
void readRun(ProjectContext& c, const YAML::Node& node, SimulationSpec& spec) {
    Diagnostics& d = c.diagnostics;
    if (!node.IsMap()) {
        d.error(locate(d, node, "run"), "expected a map of run options, found " + describe(node));
        return;
    }
    checkKeys(d, node, "run", settings::projectKeys(settings::runGroup()));
    settings::readProjectGroup(c, node, settings::runGroup(), spec);
}

// `serving:`, from the settings schema (docs/serving.md).
void readServing(ProjectContext& c, const YAML::Node& node, SimulationSpec& spec) {
    Diagnostics& d = c.diagnostics;
    if (!node.IsMap()) {
        d.error(locate(d, node, "serving"),
                "expected a map of serving settings, found " + describe(node),
                "e.g. serving: {model: llama3-8b, gpu: h100, rate: 2}");
        return;
    }
    checkKeys(d, node, "serving", settings::projectKeys(settings::servingGroup()));
    spec.serving.enabled = true;
    settings::readProjectGroup(c, node, settings::servingGroup(), spec);
}

} // namespace
} // namespace config

namespace {

SimulationSpec parseProjectChecked(const std::string& text, const std::string& fileName,
                                   std::vector<std::string>* warnings, TraceFileCheck traces) {
    config::Diagnostics d(fileName);
    if (text.size() > kMaxProjectFileBytes)
        throw Error(ErrorKind::Input,
                    "the project file has " + units::formatSize(text.size()) +
                        ", more than the limit of " + units::formatSize(kMaxProjectFileBytes),
                    {fileName, 0, 0, {}},
                    "list a large graph's links in a CSV file and name it (links: edges.csv); " +
                        std::string(kLimitsHint));
    const YAML::Node root = config::parseYamlText(text, fileName);
    if (!root.IsMap()) {
        d.error(d.at(1, 1, {}), "expected a project (a map with platform, system and workload), "
                                "found " +
                                    config::describe(root));
        d.throwIfErrors();
    }
    std::vector<std::string> fileWarnings;
    config::ProjectContext context{
        d, fs::absolute(fs::path(fileName)).parent_path().lexically_normal().string(),
        &fileWarnings};
    config::checkKeys(d, root, {}, config::topKeys());

    SimulationSpec spec;
    spec.sourceFile = fileName;
    spec.name = fs::path(fileName).stem().string();
    if (root["name"].IsDefined())
        config::readString(d, root["name"], "name", spec.name);
    config::readPlatform(context, root, spec);
    const YAML::Node system =
        config::requireMap(d, root, "system", "a map of system settings or astra-system: <file>");
    if (system.IsDefined())
        config::readProjectSystem(context, system, spec);
    if (root["memory"].IsDefined())
        config::readMemory(context, root["memory"], spec);
    // A serving project needs no training workload; one given is kept for `run`.
    if (root["serving"].IsDefined()) {
        config::readServing(context, root["serving"], spec);
        if (root["workload"].IsDefined())
            config::readWorkload(context, root, spec);
        else
            spec.workload.kind = WorkloadSource::Kind::Microbenchmark;
    } else {
        config::readWorkload(context, root, spec);
    }
    if (root["comm-groups"].IsDefined())
        config::readCommGroups(context, root["comm-groups"], spec);
    if (root["run"].IsDefined())
        config::readRun(context, root["run"], spec);

    // Consistency between sections, once each is valid on its own.
    if (!d.hasErrors())
        for (const Error& e : crossCheckSpec(spec, SpecKeyStyle::Project, traces))
            d.relocate(e, config::locate(d, config::nodeAtKeyPath(root, e.where().keyPath),
                                         e.where().keyPath));
    d.throwIfErrors();
    d.moveWarningsTo(warnings); // the project's own, then those of the files it names
    if (warnings)
        warnings->insert(warnings->end(), fileWarnings.begin(), fileWarnings.end());
    return spec;
}

} // namespace

SimulationSpec parseProject(const std::string& text, const std::string& fileName,
                            std::vector<std::string>* warnings) {
    return parseProjectChecked(text, fileName, warnings, TraceFileCheck::Include);
}

SimulationSpec loadProject(const std::string& path, std::vector<std::string>* warnings) {
    return parseProject(readInputFile(path, "the project file", kMaxProjectFileBytes), path,
                        warnings);
}

SimulationSpec loadProjectForEditing(const std::string& path, std::vector<std::string>* warnings) {
    return parseProjectChecked(readInputFile(path, "the project file", kMaxProjectFileBytes), path,
                               warnings, TraceFileCheck::Skip);
}

} // namespace astrolabe
