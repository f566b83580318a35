#include "spec/SpecValidation.h"

#include "core/Units.h"

#include <algorithm>
#include <filesystem>
#include <utility>

namespace astrolabe {
namespace {

namespace fs = std::filesystem;

SourceLocation where(const std::string& file, const std::string& keyPath) {
    return SourceLocation{file, 0, 0, keyPath};
}

std::string systemFile(const SimulationSpec& spec, SpecKeyStyle style) {
    return style == SpecKeyStyle::Project ? spec.sourceFile : spec.system.sourceFile;
}

void checkAlgorithmLists(const SimulationSpec& spec, SpecKeyStyle style, std::vector<Error>& out) {
    const size_t dims = spec.platform.dimensions.size();
    for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter,
                                CollectiveKind::AllGather, CollectiveKind::AllToAll}) {
        const size_t listed = spec.system.algorithms(kind).size();
        if (listed <= dims)
            continue;
        const std::string name = collectiveKindName(kind);
        const std::string key =
            style == SpecKeyStyle::Project ? "system.algorithms." + name : name + "-implementation";
        out.emplace_back(ErrorKind::Validation,
                         "expected at most " + std::to_string(dims) +
                             " algorithms (one per network dimension), found " +
                             std::to_string(listed),
                         where(systemFile(spec, style), key),
                         "a shorter list spans only the first dimensions; a longer one has no "
                         "dimension to run on");
    }
}

void checkCommGroups(const SimulationSpec& spec, SpecKeyStyle style, std::vector<Error>& out) {
    const int n = spec.platform.npuCount();
    const std::string prefix = style == SpecKeyStyle::Project ? "comm-groups." : "";
    for (const auto& [id, ranks] : spec.commGroups)
        for (size_t i = 0; i < ranks.size(); ++i)
            if (ranks[i] >= n)
                out.emplace_back(
                    ErrorKind::Validation,
                    "expected a rank below " + std::to_string(n) +
                        " (the platform's NPU count), found " + std::to_string(ranks[i]),
                    where(style == SpecKeyStyle::Project ? spec.sourceFile : std::string(),
                          prefix + std::to_string(id) + "[" + std::to_string(i) + "]"));
    if (spec.workload.kind == WorkloadSource::Kind::Microbenchmark) {
        const int group = spec.workload.microbenchmark.commGroup;
        const auto defined = spec.commGroups.find(group);
        if (group != 0 && defined == spec.commGroups.end())
            out.emplace_back(ErrorKind::Validation,
                             "communicator group " + std::to_string(group) + " is not defined",
                             where(spec.sourceFile, "workload.microbenchmark.comm-group"),
                             "define it under comm-groups, or use 0 for all NPUs");
        else if (group != 0 && defined->second.size() < 2)
            out.emplace_back(ErrorKind::Validation,
                             "communicator group " + std::to_string(group) +
                                 " has one NPU: a collective over it moves nothing and could "
                                 "never complete",
                             where(spec.sourceFile, "workload.microbenchmark.comm-group"),
                             "give comm-groups." + std::to_string(group) +
                                 " two or more NPUs, or use 0 for all NPUs");
    }
}

// A microbenchmark's collective needs an algorithm (native list or custom ET prefix).
void checkMicrobenchmarkAlgorithm(const SimulationSpec& spec, std::vector<Error>& out) {
    if (spec.workload.kind != WorkloadSource::Kind::Microbenchmark)
        return;
    const SystemConfig& s = spec.system;
    const std::pair<CollectiveKind, const std::string*> byType[] = {
        {CollectiveKind::AllReduce, &s.customAllReduce},
        {CollectiveKind::AllGather, &s.customAllGather},
        {CollectiveKind::AllToAll, &s.customAllToAll},
        {CollectiveKind::ReduceScatter, &s.customReduceScatter}};
    // Chakra CollectiveCommType: 0 all-reduce, 2 all-gather, 6 all-to-all, 7 reduce-scatter.
    const int type = spec.workload.microbenchmark.collective;
    const int index = type == 0 ? 0 : type == 2 ? 1 : type == 6 ? 2 : type == 7 ? 3 : -1;
    if (index < 0) {
        out.emplace_back(ErrorKind::Validation,
                         "unsupported collective type " + std::to_string(type),
                         where(spec.sourceFile, "workload.microbenchmark.collective"));
        return;
    }
    const auto [kind, custom] = byType[index];
    if (s.algorithms(kind).empty() && custom->empty() && s.perNodeCustom.empty())
        out.emplace_back(
            ErrorKind::Validation,
            std::string("no algorithm is configured for ") + collectiveKindName(kind),
            where(spec.sourceFile, std::string("system.algorithms.") + collectiveKindName(kind)),
            "e.g. algorithms: {" + std::string(collectiveKindName(kind)) + ": [ring]}");
}

void checkTraceFiles(const SimulationSpec& spec, SpecKeyStyle style, std::vector<Error>& out) {
    if (spec.workload.kind != WorkloadSource::Kind::ChakraTrace)
        return;
    const int n = spec.platform.npuCount();
    std::vector<std::string> missing;
    int missingCount = 0;
    for (int i = 0; i < n; ++i) {
        const std::string file = spec.workload.tracePrefix + "." + std::to_string(i) + ".et";
        if (!fs::is_regular_file(file)) {
            ++missingCount;
            if (missing.size() < 3)
                missing.push_back(file);
        }
    }
    if (missingCount == 0)
        return;
    std::string list;
    for (const std::string& file : missing)
        list += (list.empty() ? "" : ", ") + file;
    if (missingCount > 3)
        list += " and " + std::to_string(missingCount - 3) + " more";
    out.emplace_back(
        ErrorKind::Input,
        "expected one trace per NPU (" + std::to_string(n) +
            " files <prefix>.<npu>.et)"
            ", missing " +
            list,
        where(style == SpecKeyStyle::Project ? spec.sourceFile : std::string(),
              style == SpecKeyStyle::Project ? "workload.trace" : "--workload-configuration"),
        "the platform has " + std::to_string(n) +
            " NPUs; the trace set must have been generated for the same count");
}

void checkMemory(const SimulationSpec& spec, SpecKeyStyle style, std::vector<Error>& out) {
    if (std::optional<Error> e = memorySwitchProblem(spec))
        out.push_back(std::move(*e));
    const RemoteMemoryConfig& m = spec.memory;
    // A count of zero is the memory file's own error, reported with it.
    if (m.type != RemoteMemoryType::PerNodeMemoryExpansion || m.numNodes <= 0 ||
        m.numNpusPerNode <= 0)
        return;
    const int64_t covered = static_cast<int64_t>(m.numNodes) * m.numNpusPerNode;
    if (covered < spec.platform.npuCount())
        out.emplace_back(ErrorKind::Validation,
                         "num-nodes x num-npus-per-node = " + std::to_string(covered) +
                             " covers fewer NPUs than the platform's " +
                             std::to_string(spec.platform.npuCount()),
                         where(style == SpecKeyStyle::Project ? spec.sourceFile : m.sourceFile,
                               style == SpecKeyStyle::Project ? "memory.num-nodes" : "num-nodes"));
}

// Limits far above any real use (docs/limits.md): beyond them a declared count would make the
// engine allocate for work that is never simulated, or overflow the NPU count.
void checkLimits(const SimulationSpec& spec, SpecKeyStyle style, std::vector<Error>& out) {
    const bool project = style == SpecKeyStyle::Project;
    const std::string networkFile = project ? spec.sourceFile : spec.platform.sourceFile;
    const size_t dims = spec.platform.dimensions.size();
    if (dims > kMaxDimensions)
        out.emplace_back(ErrorKind::Validation,
                         "expected at most " + std::to_string(kMaxDimensions) +
                             " network dimensions, found " + std::to_string(dims),
                         where(networkFile, project ? "platform.dimensions" : "topology"),
                         kLimitsHint);
    uint64_t npus = dims == 0 ? 0 : 1;
    for (const DimensionSpec& d : spec.platform.dimensions)
        npus = d.size > 0 && npus > kMaxNpus / static_cast<uint64_t>(d.size)
                   ? kMaxNpus + 1
                   : npus * static_cast<uint64_t>(std::max(d.size, 0));
    if (npus > kMaxNpus) {
        std::string product;
        for (const DimensionSpec& d : spec.platform.dimensions)
            product += (product.empty() ? "" : " x ") + std::to_string(d.size);
        out.emplace_back(ErrorKind::Validation,
                         "expected at most " + std::to_string(kMaxNpus) +
                             " NPUs, found the dimensions " + product,
                         where(networkFile, project ? "platform.dimensions" : "npus_count"),
                         kLimitsHint);
    }
    if (spec.system.preferredDatasetSplits > kMaxChunksPerCollective)
        out.emplace_back(
            ErrorKind::Validation,
            "expected at most " + std::to_string(kMaxChunksPerCollective) +
                " chunks per collective, found " +
                std::to_string(spec.system.preferredDatasetSplits),
            where(systemFile(spec, style), project ? "system.chunks" : "preferred-dataset-splits"),
            kLimitsHint);
    if (spec.options.numQueuesPerDim > kMaxQueuesPerDimension)
        out.emplace_back(ErrorKind::Validation,
                         "expected at most " + std::to_string(kMaxQueuesPerDimension) +
                             " queues per dimension, found " +
                             std::to_string(spec.options.numQueuesPerDim),
                         where(project ? spec.sourceFile : std::string(),
                               project ? "system.num-queues-per-dim" : "--num-queues-per-dim"),
                         kLimitsHint);
}

} // namespace

std::optional<Error> memorySwitchProblem(const SimulationSpec& spec) {
    const RemoteMemoryConfig& m = spec.memory;
    if (m.type != RemoteMemoryType::Pooled || m.switchDimension < 0)
        return std::nullopt;
    const auto& dims = spec.platform.dimensions;
    const int d = m.switchDimension;
    std::string found;
    if (spec.platform.graph)
        found = "a graph platform (its switches are routed through, not numbered as dimensions)";
    else if (static_cast<size_t>(d) >= dims.size())
        found = "dimension " + std::to_string(d) + ", but the platform has " +
                std::to_string(dims.size()) + " (0 to " + std::to_string(dims.size() - 1) + ")";
    else if (dims[static_cast<size_t>(d)].kind != BlockKind::Switch)
        found = "dimension " + std::to_string(d) + ", a " +
                blockKindName(dims[static_cast<size_t>(d)].kind);
    if (found.empty())
        return std::nullopt;
    return Error(ErrorKind::Validation,
                 "expected a Switch dimension of the platform's dimension stack, found " + found,
                 where(spec.sourceFile, "memory.switch-dimension"),
                 "the pooled memory's out-of-node switches are the switches of one Switch "
                 "dimension; leave the key out for memory paths of their own");
}

std::vector<Error> memoryTierGaps(const RemoteMemoryConfig& m) {
    std::vector<Error> out;
    auto gap = [&](const char* key, std::string message, std::string hint = {}) {
        out.emplace_back(ErrorKind::Validation, std::move(message), where({}, key),
                         std::move(hint));
    };
    if (m.type == RemoteMemoryType::NoMemoryExpansion)
        return out;
    if (m.bandwidthBytesPerNs == 0)
        gap("memory.bandwidth", "required for an expanded memory", "e.g. bandwidth: 50 GB/s");
    if (m.type == RemoteMemoryType::PerNodeMemoryExpansion) {
        if (m.numNodes <= 0)
            gap("memory.num-nodes", "expected 1 or more nodes for per-node");
        if (m.numNpusPerNode <= 0)
            gap("memory.npus-per-node", "expected 1 or more NPUs per node for per-node");
    }
    if (m.type == RemoteMemoryType::Pooled) {
        if (m.groups <= 0)
            gap("memory.groups", "expected 1 or more memory groups for pooled memory",
                "e.g. groups: 256");
        if (m.fabricBytesPerNs == 0)
            gap("memory.fabric-bandwidth",
                "expected the bandwidth of each NPU's port into the pooled fabric",
                "e.g. fabric-bandwidth: 256 GB/s");
    }
    return out;
}

std::vector<Error> crossCheckSpec(const SimulationSpec& spec, SpecKeyStyle style,
                                  TraceFileCheck traces) {
    std::vector<Error> out;
    checkLimits(spec, style, out);
    if (!out.empty()) // the other checks walk every NPU
        return out;
    checkAlgorithmLists(spec, style, out);
    checkCommGroups(spec, style, out);
    checkMemory(spec, style, out);
    checkMicrobenchmarkAlgorithm(spec, out);
    if (traces == TraceFileCheck::Include)
        checkTraceFiles(spec, style, out);
    return out;
}

void requireTraceFiles(const SimulationSpec& spec) {
    std::vector<Error> out;
    checkTraceFiles(
        spec, spec.sourceFile.empty() ? SpecKeyStyle::AstraFiles : SpecKeyStyle::Project, out);
    if (!out.empty())
        throw out.front();
}

TraceSetCount countTraceFiles(const std::string& prefix, size_t maxEntries) {
    const fs::path path(prefix);
    const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
    const std::string stem = path.filename().string() + ".";
    std::vector<int> indices;
    std::error_code ec;
    fs::directory_iterator it(directory, ec);
    for (size_t seen = 0; !ec && it != fs::directory_iterator() && seen < maxEntries;
         it.increment(ec), ++seen) {
        const std::string name = it->path().filename().string();
        if (name.size() <= stem.size() + 3 || name.compare(0, stem.size(), stem) != 0 ||
            !name.ends_with(".et"))
            continue;
        const std::string digits = name.substr(stem.size(), name.size() - stem.size() - 3);
        if (digits.empty() || digits.size() > 9 ||
            !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        indices.push_back(std::stoi(digits));
    }
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    TraceSetCount count;
    count.files = static_cast<int>(indices.size());
    while (count.contiguous < count.files &&
           indices[static_cast<size_t>(count.contiguous)] == count.contiguous)
        ++count.contiguous;
    return count;
}

TraceCountProblem traceCountProblem(const SimulationSpec& spec) {
    if (spec.workload.kind != WorkloadSource::Kind::ChakraTrace ||
        spec.workload.tracePrefix.empty())
        return {};
    const int npus = spec.platform.npuCount();
    const TraceSetCount found = countTraceFiles(spec.workload.tracePrefix);
    const std::string name = fs::path(spec.workload.tracePrefix).filename().string();
    const std::string of = " for a platform of " + std::to_string(npus) + " NPUs: ";
    const auto traces = [](int n) { return units::countOf(static_cast<uint64_t>(n), "trace"); };
    if (found.files == 0)
        return {"no traces " + name + ".<npu>.et found; the platform's " + std::to_string(npus) +
                    " NPUs need one each",
                true};
    if (found.contiguous < npus) {
        if (found.files > found.contiguous)
            return {traces(found.files) + of + "NPU " + std::to_string(found.contiguous) +
                        "'s trace (" + name + "." + std::to_string(found.contiguous) +
                        ".et) is missing",
                    true};
        return {traces(found.files) + of + "the set was made for " +
                    units::countOf(static_cast<uint64_t>(found.files), "NPU"),
                true};
    }
    if (found.files > npus)
        return {traces(found.files) + of + "only NPUs 0-" + std::to_string(npus - 1) +
                    "'s are read; the set was probably made for a larger platform",
                false};
    return {};
}

} // namespace astrolabe
