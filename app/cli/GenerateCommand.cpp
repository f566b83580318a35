#include "cli/GenerateCommand.h"

#include "astra/AstraMemoryConfig.h"
#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "core/Error.h"
#include "core/Units.h"
#include "generate/MicrobenchmarkGenerator.h"

#include <algorithm>
#include <fstream>
#include <ostream>

namespace astrolabe::cli {
namespace {

// ASTRA-sim's communicator-group JSON (spec §2.8), read by the same loader as `astra`.
std::vector<CommGroup> readCommGroups(const std::string& path) {
    std::vector<CommGroup> groups;
    for (const auto& [id, ranks] : loadCommGroupsJson(path))
        groups.push_back(CommGroup{id, ranks});
    return groups;
}

} // namespace

ArgParser generateParser() {
    return ArgParser(
        "generate",
        "Write Chakra execution traces. KIND is 'microbenchmark': one collective per NPU,\n"
        "written like ASTRA-sim's examples/workload/microbenchmarks (PREFIX.i.et per NPU).",
        {
            {"collective", "NAME", joinAlternatives(microbenchmarkCollectiveNames()), ""},
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
    const int npus = parseCount("npus", args.value("npus"), 1);
    const uint64_t size = units::parseSizeBytes(args.value("size", "1MiB"));
    std::vector<CommGroup> groups;
    if (!args.value("comm-group").empty())
        groups = readCommGroups(args.value("comm-group"));
    const std::string prefix = args.value("out");
    const auto files = generateMicrobenchmark(collective, npus, size, groups, prefix);
    out << "wrote " << units::countOf(files.size(), "trace") << " " << prefix << ".0.et .. "
        << prefix << "." << npus - 1 << ".et (" << microbenchmarkLabel(collective, npus, size)
        << ", " << units::formatSize(size) << " per NPU)\n";
    return kExitOk;
}

} // namespace astrolabe::cli
