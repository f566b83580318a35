#include "cli/GenerateCommand.h"

#include "cli/Commands.h"
#include "core/Error.h"
#include "core/Units.h"
#include "workload/MicrobenchmarkGenerator.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

namespace astrolabe::cli {
namespace {

int parseCount(const std::string& flag, const std::string& text) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 1)
        throw UsageError("--" + flag + ": expected a positive integer, got \"" + text + "\"");
    return value;
}

// ASTRA-sim's communicator-group JSON: {"1": [0, 1], "2": [2, 3]} (spec §2.8).
std::vector<CommGroup> readCommGroups(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw UsageError("--comm-group: file not found: " + path);
    const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    auto bad = [&](const std::string& why) {
        return Error(ErrorKind::Validation, why, SourceLocation{path},
                     "expected {\"1\": [0, 1, ...], \"2\": [...]}: group id -> ranks");
    };
    if (doc.is_discarded() || !doc.is_object())
        throw bad("not a JSON object");
    std::vector<CommGroup> groups;
    for (const auto& [key, ranks] : doc.items()) {
        CommGroup group;
        const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), group.id);
        if (ec != std::errc() || end != key.data() + key.size())
            throw bad("group id \"" + key + "\" is not an integer");
        if (!ranks.is_array())
            throw bad("group " + key + ": ranks must be an array of integers");
        for (const auto& rank : ranks) {
            if (!rank.is_number_integer())
                throw bad("group " + key + ": ranks must be an array of integers");
            group.ranks.push_back(rank.get<int>());
        }
        groups.push_back(std::move(group));
    }
    std::sort(groups.begin(), groups.end(),
              [](const CommGroup& a, const CommGroup& b) { return a.id < b.id; });
    return groups;
}

} // namespace

ArgParser generateParser() {
    return ArgParser(
        "generate",
        "Write Chakra execution traces. KIND is 'microbenchmark': one collective per NPU,\n"
        "written like ASTRA-sim's examples/workload/microbenchmarks (PREFIX.i.et per NPU).",
        {
            {"collective", "NAME", "all_reduce, all_gather, reduce_scatter or all_to_all", ""},
            {"npus", "N", "number of NPUs (one file each)", ""},
            {"size", "SIZE", "bytes per collective, e.g. 1MiB or \"64 MiB\"", "1MiB"},
            {"comm-group", "FILE",
             "communicator groups JSON ({\"1\":[0,1],...}); one node per "
             "group a rank belongs to",
             ""},
            {"out", "PREFIX", "output prefix; NPU i is written to PREFIX.i.et", ""},
        },
        {"KIND"});
}

int generateCommand(const ParsedArgs& args, std::ostream& out, std::ostream&) {
    const std::string kind = args.positional().at(0);
    if (kind != "microbenchmark")
        throw UsageError("generate: unknown kind \"" + kind + "\"; expected microbenchmark");
    for (const char* required : {"collective", "npus", "out"})
        if (args.value(required).empty())
            throw UsageError(std::string("missing required option --") + required);
    const CollectiveType collective = parseMicrobenchmarkCollective(args.value("collective"));
    const int npus = parseCount("npus", args.value("npus"));
    const uint64_t size = units::parseSizeBytes(args.value("size", "1MiB"));
    std::vector<CommGroup> groups;
    if (!args.value("comm-group").empty())
        groups = readCommGroups(args.value("comm-group"));
    const std::string prefix = args.value("out");
    const auto files = generateMicrobenchmark(collective, npus, size, groups, prefix);
    out << "wrote " << files.size() << " traces " << prefix << ".0.et .. " << prefix << "."
        << npus - 1 << ".et (" << microbenchmarkLabel(collective, npus, size) << ", "
        << units::formatSize(size) << " per NPU)\n";
    return kExitOk;
}

} // namespace astrolabe::cli
