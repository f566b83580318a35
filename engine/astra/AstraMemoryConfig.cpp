#include "astra/AstraMemoryConfig.h"

#include "core/InputFile.h"
#include "core/Units.h"
#include "schema/SchemaAstra.h"
#include "yaml/JsonSupport.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <set>

namespace astrolabe {
namespace {

using config::Diagnostics;
using nlohmann::json;

// A non-negative number truncated to an integer, or false after reporting why not.
bool readCount(Diagnostics& diagnostics, const config::JsonDocument& doc, const std::string& key,
               uint64_t& out) {
    if (!doc.value.contains(key))
        return false;
    const json& v = doc.value.at(key);
    const SourceLocation where = config::locateJsonKey(diagnostics, doc.text, key, key);
    if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1.8e19) {
        diagnostics.error(where,
                          "expected a number of 0 or more, found " + config::describeJson(v));
        return false;
    }
    out = static_cast<uint64_t>(v.get<double>()); // upstream keeps these in integers
    return true;
}

} // namespace

RemoteMemoryConfig parseAstraRemoteMemoryJson(const std::string& text, const std::string& fileName,
                                              std::vector<std::string>* warnings) {
    Diagnostics diagnostics(fileName);
    const config::JsonDocument doc = config::parseJsonText(text, fileName);
    RemoteMemoryConfig memory;
    memory.sourceFile = fileName;
    if (!doc.value.is_object()) {
        diagnostics.error(diagnostics.at(1, 1, {}),
                          "expected a JSON object, found " + config::describeJson(doc.value));
        diagnostics.throwIfErrors();
    }
    static const std::vector<std::string> known = settings::astraJsonKeys(settings::memoryGroup());
    for (const auto& item : doc.value.items()) {
        bool isKnown = false;
        for (const std::string& k : known)
            isKnown = isKnown || k == item.key();
        if (!isKnown)
            diagnostics.warning(
                config::locateJsonKey(diagnostics, doc.text, item.key(), item.key()),
                "unknown key, ignored", config::didYouMean(item.key(), known));
    }

    const auto where = [&](const std::string& key) {
        return config::locateJsonKey(diagnostics, doc.text, key, key);
    };
    // Each key as the memory group declares it (the type is the one name; the rest are counts).
    SimulationSpec spec;
    for (const settings::Setting& s : settings::memoryGroup().settings) {
        const std::string& key = s.astraKey;
        if (key.empty())
            continue; // astra-memory: the project file's own key
        if (s.type != settings::Type::Enum) {
            uint64_t count = 0;
            if (readCount(diagnostics, doc, key, count))
                s.set(spec, s.type == settings::Type::Int
                                ? settings::Value(static_cast<int64_t>(
                                      std::min<uint64_t>(count, static_cast<uint64_t>(s.maximum))))
                                : settings::Value(static_cast<double>(count)));
        } else if (!doc.value.contains(key)) {
            diagnostics.error(where(key), s.missing.message, s.missing.astraHint);
        } else if (!doc.value.at(key).is_string()) {
            diagnostics.error(where(key), "expected a memory type name, found " +
                                              config::describeJson(doc.value.at(key)));
        } else {
            try {
                spec.memory.type = parseRemoteMemoryType(doc.value.at(key).get<std::string>());
            } catch (const Error& e) {
                diagnostics.relocate(e, where(key));
            }
        }
    }
    spec.memory.sourceFile = fileName;
    memory = spec.memory;

    if (!diagnostics.hasErrors() && memory.type != RemoteMemoryType::NoMemoryExpansion) {
        if (memory.bandwidthBytesPerNs == 0)
            diagnostics.error(where("remote-mem-bw"),
                              "expected a bandwidth of 1 or more (bytes/ns = decimal GB/s) for " +
                                  std::string(remoteMemoryTypeName(memory.type)) + ", found " +
                                  (doc.value.contains("remote-mem-bw") ? "0" : "nothing"),
                              "the value is an integer; fractions are truncated as in ASTRA-sim");
        if (memory.type == RemoteMemoryType::PerNodeMemoryExpansion) {
            if (memory.numNodes <= 0)
                diagnostics.error(where("num-nodes"),
                                  "expected 1 or more nodes for PER_NODE_MEMORY_EXPANSION");
            if (memory.numNpusPerNode <= 0)
                diagnostics.error(where("num-npus-per-node"),
                                  "expected 1 or more NPUs per node for PER_NODE_MEMORY_EXPANSION");
        }
    }
    diagnostics.throwIfErrors();
    diagnostics.moveWarningsTo(warnings);
    return memory;
}

RemoteMemoryConfig loadAstraRemoteMemoryJson(const std::string& path,
                                             std::vector<std::string>* warnings) {
    return parseAstraRemoteMemoryJson(readInputFile(path, "the remote memory configuration"), path,
                                      warnings);
}

bool isEmptyCommGroupPath(const std::string& path) {
    return path.empty() || path.find("empty") != std::string::npos;
}

CommGroups parseCommGroupsJson(const std::string& text, const std::string& fileName) {
    Diagnostics diagnostics(fileName);
    const config::JsonDocument doc = config::parseJsonText(text, fileName);
    CommGroups groups;
    if (!doc.value.is_object()) {
        diagnostics.error(diagnostics.at(1, 1, {}),
                          "expected an object {\"<group id>\": [ranks...]}, found " +
                              config::describeJson(doc.value));
        diagnostics.throwIfErrors();
    }
    for (const auto& item : doc.value.items()) {
        const std::string& key = item.key();
        const SourceLocation where = config::locateJsonKey(diagnostics, doc.text, key, key);
        int id = -1;
        if (!key.empty() && key.size() <= 9 &&
            key.find_first_not_of("0123456789") == std::string::npos)
            id = std::stoi(key);
        if (id < 0) {
            diagnostics.error(where, "expected a decimal group id, found \"" + key + "\"");
            continue;
        }
        if (id == 0) {
            diagnostics.error(where, "group id 0 is reserved for all NPUs",
                              "number your groups from 1");
            continue;
        }
        const json& members = item.value();
        if (!members.is_array() || members.empty()) {
            diagnostics.error(where, "expected a non-empty list of ranks, found " +
                                         config::describeJson(members));
            continue;
        }
        std::vector<int> ranks;
        std::set<int> seen;
        for (size_t i = 0; i < members.size(); ++i) {
            const json& m = members[i];
            const SourceLocation at = config::locateJsonKey(diagnostics, doc.text, key,
                                                            key + "[" + std::to_string(i) + "]");
            if (!m.is_number_integer() || m.get<int64_t>() < 0 || m.get<int64_t>() > INT32_MAX) {
                diagnostics.error(at, "expected a rank (a whole number >= 0), found " +
                                          config::describeJson(m));
                continue;
            }
            const int rank = m.get<int>();
            if (!seen.insert(rank).second)
                diagnostics.error(at, "rank " + std::to_string(rank) +
                                          " is listed twice in this group");
            ranks.push_back(rank);
        }
        groups[id] = std::move(ranks);
    }
    diagnostics.throwIfErrors();
    return groups;
}

CommGroups loadCommGroupsJson(const std::string& path) {
    if (isEmptyCommGroupPath(path))
        return {};
    return parseCommGroupsJson(readInputFile(path, "the communicator group configuration"), path);
}

void validateCommGroups(const CommGroups& groups, int npuCount, const std::string& sourceFile) {
    Diagnostics diagnostics(sourceFile);
    for (const auto& [id, ranks] : groups)
        for (size_t i = 0; i < ranks.size(); ++i)
            if (ranks[i] >= npuCount)
                diagnostics.error(
                    diagnostics.at(0, 0, std::to_string(id) + "[" + std::to_string(i) + "]"),
                    "expected a rank below " + std::to_string(npuCount) +
                        " (the platform's NPU count), found " + std::to_string(ranks[i]));
    diagnostics.throwIfErrors();
}

} // namespace astrolabe
