#include "generate/MicrobenchmarkGenerator.h"

#include "core/Error.h"
#include "spec/SpecValidation.h"
#include "trace/TraceIo.h"
#include "trace/WorkloadLoader.h"

#include <algorithm>

namespace astrolabe {
namespace {

/// The collectives a microbenchmark runs, in the order messages list them.
constexpr CollectiveType kMicrobenchmarks[] = {CollectiveType::AllReduce, CollectiveType::AllGather,
                                               CollectiveType::ReduceScatter,
                                               CollectiveType::AllToAll};

[[noreturn]] void invalid(const std::string& message, const std::string& hint = {}) {
    throw Error(ErrorKind::Validation, message, {}, hint);
}

} // namespace

std::vector<std::string> microbenchmarkCollectiveNames() {
    std::vector<std::string> names;
    for (CollectiveType type : kMicrobenchmarks)
        names.emplace_back(namesOf(type).snake);
    return names;
}

CollectiveType parseMicrobenchmarkCollective(const std::string& name) {
    for (CollectiveType type : kMicrobenchmarks)
        if (name == namesOf(type).snake)
            return type;
    const std::vector<std::string> names = microbenchmarkCollectiveNames();
    const std::string guess = closestMatch(name, names);
    invalid("unknown collective \"" + name + "\"" +
                (guess.empty() ? "" : " (did you mean \"" + guess + "\"?)"),
            "expected " + joinAlternatives(names));
}

std::string microbenchmarkCollectiveName(CollectiveType type) {
    if (std::find(std::begin(kMicrobenchmarks), std::end(kMicrobenchmarks), type) !=
        std::end(kMicrobenchmarks))
        return namesOf(type).snake;
    invalid(std::string("no microbenchmark for collective ") + collectiveTypeName(type),
            "expected " + joinAlternatives(microbenchmarkCollectiveNames()));
}

std::string microbenchmarkLabel(CollectiveType type, int npus, uint64_t sizeBytes) {
    std::string size;
    if (sizeBytes != 0 && sizeBytes % (uint64_t(1) << 20) == 0)
        size = std::to_string(sizeBytes >> 20) + "MB";
    else if (sizeBytes != 0 && sizeBytes % 1024 == 0)
        size = std::to_string(sizeBytes >> 10) + "KB";
    else
        size = std::to_string(sizeBytes) + "B";
    return microbenchmarkCollectiveName(type) + "_" + std::to_string(npus) + "npus_" + size;
}

std::vector<WorkloadTrace> makeMicrobenchmark(CollectiveType collective, int npus,
                                              uint64_t sizeBytes,
                                              const std::vector<CommGroup>& commGroups) {
    if (npus < 1)
        invalid("a microbenchmark needs at least one NPU (got " + std::to_string(npus) + ")");
    if (static_cast<uint64_t>(npus) > kMaxNpus)
        invalid("expected at most " + std::to_string(kMaxNpus) + " NPUs, found " +
                    std::to_string(npus),
                kLimitsHint);
    for (const CommGroup& group : commGroups) {
        if (group.id <= 0)
            invalid("communicator group id " + std::to_string(group.id) +
                        " is reserved or negative",
                    "group 0 means all NPUs; file groups start at 1");
        for (int rank : group.ranks)
            if (rank < 0 || rank >= npus)
                invalid("communicator group " + std::to_string(group.id) + " lists rank " +
                        std::to_string(rank) + ", outside 0.." + std::to_string(npus - 1));
    }
    const std::string label = microbenchmarkLabel(collective, npus, sizeBytes);
    std::vector<WorkloadTrace> traces(npus);
    for (int rank = 0; rank < npus; ++rank) {
        WorkloadTrace& trace = traces[rank];
        trace.schemaVersion = "0.0.4";
        auto addNode = [&](const std::string& pgName) {
            WorkloadNode node;
            node.id = uint64_t(rank) + uint64_t(npus) * trace.nodes.size();
            node.name = label;
            node.type = NodeType::CommColl;
            node.hasCommType = node.hasCommSize = true;
            node.commType = collective;
            node.commSize = sizeBytes;
            node.pgName = pgName;
            if (!trace.nodes.empty())
                node.dataDeps.push_back(trace.nodes.back().id);
            trace.nodes.push_back(std::move(node));
        };
        if (commGroups.empty()) {
            addNode({});
            continue;
        }
        for (const CommGroup& group : commGroups)
            if (std::find(group.ranks.begin(), group.ranks.end(), rank) != group.ranks.end())
                addNode(std::to_string(group.id));
        if (trace.nodes.empty())
            invalid("rank " + std::to_string(rank) + " belongs to no communicator group",
                    "list every rank in at least one group, or generate without groups");
    }
    return traces;
}

std::vector<std::string> generateMicrobenchmark(CollectiveType collective, int npus,
                                                uint64_t sizeBytes,
                                                const std::vector<CommGroup>& commGroups,
                                                const std::string& prefix) {
    std::vector<WorkloadTrace> traces = makeMicrobenchmark(collective, npus, sizeBytes, commGroups);
    std::vector<std::string> files;
    for (int rank = 0; rank < npus; ++rank) {
        files.push_back(workloadFileName(prefix, rank));
        writeWorkloadTrace(files.back(), traces[rank]);
    }
    return files;
}

} // namespace astrolabe
