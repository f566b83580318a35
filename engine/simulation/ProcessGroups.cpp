#include "simulation/ProcessGroups.h"

#include "core/Error.h"
#include "core/JsonKeys.h"

#include <nlohmann/json.hpp>
#include <numeric>

namespace astrolabe {

CommGroups withProcessGroups(const CommGroups& base, const std::vector<WorkloadTrace>& traces,
                             int npuCount) {
    CommGroups groups = base;
    for (const WorkloadTrace& trace : traces)
        for (const WorkloadNode& node : trace.nodes) {
            if (node.type != NodeType::Metadata || node.detail->inputsValues.size() < 4)
                continue;
            auto fail = [&](const std::string& what) {
                return Error(ErrorKind::Validation,
                             "METADATA node " + std::to_string(node.id) +
                                 ": process groups in inputs.values " + what,
                             {trace.file, 0, 0, "inputs.values"},
                             "expected a Python repr around a JSON array of "
                             "{\"pg_name\": \"1\", \"ranks\": [0, 1]}");
            };
            const std::string text =
                node.detail->inputsValues.substr(2, node.detail->inputsValues.size() - 4);
            const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
            if (doc.is_discarded() || !doc.is_array())
                throw fail("are not a JSON array");
            if (const auto repeats = repeatedJsonKeys(text, 1); !repeats.empty())
                throw fail("give the key " + quotedExcerpt(repeats.front().key) +
                           " twice in one entry");
            for (const nlohmann::json& pg : doc) {
                if (!pg.is_object() || !pg.contains("pg_name") || !pg.contains("ranks") ||
                    !pg["ranks"].is_array())
                    throw fail("have an entry without pg_name and ranks");
                const std::string name = pg["pg_name"].is_string()
                                             ? pg["pg_name"].get<std::string>()
                                             : pg["pg_name"].dump();
                const int id = name.empty() ? -1 : communicatorGroupId(name);
                if (id < 0)
                    throw fail("name a group \"" + name + "\" that is not a decimal group id");
                if (id == 0)
                    continue; // group 0 is all NPUs already
                std::vector<int> ranks;
                for (const nlohmann::json& r : pg["ranks"]) {
                    if (!r.is_number_integer() || r.get<int>() < 0 || r.get<int>() >= npuCount)
                        throw fail("list a rank that is not an NPU: " + r.dump());
                    ranks.push_back(r.get<int>());
                }
                if (ranks.empty()) {
                    ranks.resize(static_cast<size_t>(npuCount));
                    std::iota(ranks.begin(), ranks.end(), 0);
                }
                groups[id] = std::move(ranks);
            }
        }
    return groups;
}

void checkGroupsDefined(const CommGroups& groups, const std::vector<WorkloadTrace>& traces) {
    for (const WorkloadTrace& trace : traces)
        for (const WorkloadNode& node : trace.nodes) {
            if (node.type != NodeType::CommColl || node.pgName.empty())
                continue;
            const int id = communicatorGroupId(node.pgName);
            if (id > 0 && !groups.count(id)) // a name that is no id is reported where it runs
                throw Error(ErrorKind::Validation,
                            "node " + std::to_string(node.id) + " (" + std::string(node.name) +
                                "): its collective names communicator group " + std::to_string(id) +
                                ", which no comm-group file or METADATA "
                                "node defines",
                            SourceLocation{trace.file, 0, 0, "pg_name"},
                            "define the group in the system's comm-group file, or in the "
                            "trace's METADATA process groups");
        }
}

} // namespace astrolabe
