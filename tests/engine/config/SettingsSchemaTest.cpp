// The settings schema: the docs table is generated from it, and the places derived from it give
// what the hand-written code gave before (the ASTRA-sim exporter is checked against a verbatim
// copy of the code it replaced, on the bundled projects and on variations of them).
#include "TestPaths.h"
#include "astra/AstraExport.h"
#include "astra/AstraMemoryConfig.h"
#include "astra/AstraSystemConfig.h"
#include "core/InputFile.h"
#include "project/ProjectFile.h"
#include "schema/Setting.h"
#include "spec/SpecValidation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace astrolabe {
namespace {

using nlohmann::ordered_json;

const std::string kSourceDir = std::string(ASTROLABE_TEST_DATA_DIR) + "/../..";

// ---- the exporter as written before the schema (commit a8b66fb), kept as the oracle ----
ordered_json algorithmList(const std::vector<AlgorithmSpec>& list) {
    ordered_json names = ordered_json::array();
    for (const AlgorithmSpec& a : list)
        names.push_back(algorithmName(a));
    return names;
}

ordered_json number(double value) {
    if (value == static_cast<double>(static_cast<int64_t>(value)))
        return static_cast<int64_t>(value);
    return value;
}

std::string legacyAstraSystemJson(const SystemConfig& s, const std::string& perNodeCustomFile) {
    ordered_json j;
    j["scheduling-policy"] = schedulingPolicyName(s.schedulingPolicy);
    j["collective-optimization"] = collectiveOptimizationName(s.collectiveOptimization);
    if (s.endpointDelayFromFile)
        j["endpoint-delay"] = number(s.endpointDelayConfiguredNs);
    j["active-chunks-per-dimension"] = s.activeChunksPerDimension;
    j["preferred-dataset-splits"] = s.preferredDatasetSplits;
    for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter,
                                CollectiveKind::AllGather, CollectiveKind::AllToAll})
        if (!s.algorithms(kind).empty())
            j[std::string(collectiveKindName(kind)) + "-implementation"] =
                algorithmList(s.algorithms(kind));
    const std::pair<const char*, const std::string*> customs[] = {
        {"all-reduce", &s.customAllReduce},
        {"reduce-scatter", &s.customReduceScatter},
        {"all-gather", &s.customAllGather},
        {"all-to-all", &s.customAllToAll}};
    for (const auto& [name, prefix] : customs)
        if (!prefix->empty())
            j[std::string(name) + "-implementation-custom"] = ordered_json::array({*prefix});
    if (!perNodeCustomFile.empty())
        j["per-node-custom-implementation"] = perNodeCustomFile;
    j["local-mem-bw"] = number(s.localMemBandwidthGBps);
    if (s.peakPerfTFlops > 0)
        j["peak-perf"] = number(s.peakPerfTFlops);
    j["roofline-enabled"] = s.rooflineEnabled ? 1 : 0;
    j["trace-enabled"] = s.traceEnabled ? 1 : 0;
    j["replay-only"] = s.replayOnly ? 1 : 0;
    j["track-local-mem"] = s.trackLocalMemory ? 1 : 0;
    j["local-mem-trace-filename"] = s.localMemTraceFilename;
    // ASTRA-sim 2.x ignores these two; Astrolabe reads them back.
    j["intra-dimension-scheduling"] = intraDimensionSchedulingName(s.intraDimensionScheduling);
    j["inter-dimension-scheduling"] = interDimensionSchedulingName(s.interDimensionScheduling);
    return j.dump(4, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string legacyAstraRemoteMemoryJson(const RemoteMemoryConfig& m) {
    ordered_json j;
    j["memory-type"] = remoteMemoryTypeName(m.type);
    j["remote-mem-latency"] = m.latencyNs;
    j["remote-mem-bw"] = m.bandwidthBytesPerNs;
    if (m.numNodes > 0)
        j["num-nodes"] = m.numNodes;
    if (m.numNpusPerNode > 0)
        j["num-npus-per-node"] = m.numNpusPerNode;
    return j.dump(4, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// ---- end of the old exporter ----

std::vector<SimulationSpec> bundledVariants() {
    std::vector<SimulationSpec> specs;
    for (const char* name : {"quickstart", "hgx-h100", "torus-2d"}) {
        SimulationSpec spec =
            loadProjectForEditing(kSourceDir + "/projects/" + name + "/project.yaml");
        specs.push_back(spec);
        SystemConfig& s = spec.system;
        s.endpointDelayFromFile = true;
        s.endpointDelayConfiguredNs = 12.5;
        s.localMemBandwidthGBps = 1638.4;
        s.peakPerfTFlops = 989;
        s.rooflineEnabled = !s.rooflineEnabled;
        s.traceEnabled = s.replayOnly = s.trackLocalMemory = true;
        s.localMemTraceFilename = "mem \"trace\"";
        s.customAllGather = "custom/ag";
        s.intraDimensionScheduling = IntraDimensionScheduling::SmallestFirst;
        s.interDimensionScheduling = InterDimensionScheduling::Themis;
        s.schedulingPolicy = SchedulingPolicy::Explicit;
        s.collectiveOptimization = CollectiveOptimization::LocalBWAware;
        s.allToAll.clear();
        specs.push_back(spec);
    }
    return specs;
}

TEST(SettingsSchema, AstraExportIsWhatTheHandWrittenExporterWrote) {
    for (const SimulationSpec& spec : bundledVariants()) {
        EXPECT_EQ(writeAstraSystemJson(spec.system, ""), legacyAstraSystemJson(spec.system, ""));
        EXPECT_EQ(writeAstraSystemJson(spec.system, "per-node.yaml"),
                  legacyAstraSystemJson(spec.system, "per-node.yaml"));
    }
}

// The bundled projects' memories and one of each type, with and without node counts.
std::vector<RemoteMemoryConfig> memoryVariants() {
    std::vector<RemoteMemoryConfig> out;
    for (const SimulationSpec& spec : bundledVariants())
        out.push_back(spec.memory);
    for (int t = 0; t < 4; ++t) {
        RemoteMemoryConfig m;
        m.type = static_cast<RemoteMemoryType>(t);
        m.latencyNs = 100 * static_cast<uint64_t>(t);
        m.bandwidthBytesPerNs = 50 * static_cast<uint64_t>(t) + 1;
        out.push_back(m);
        m.numNodes = 2;
        m.numNpusPerNode = 4 + t;
        m.latencyNs = 1'000'000'000'000;
        m.bandwidthBytesPerNs = 1'000'000'000'000'000;
        out.push_back(m);
    }
    return out;
}

TEST(SettingsSchema, AstraMemoryExportIsWhatTheHandWrittenExporterWrote) {
    for (const RemoteMemoryConfig& m : memoryVariants()) {
        const std::string text = writeAstraRemoteMemoryJson(m);
        EXPECT_EQ(text, legacyAstraRemoteMemoryJson(m));
        if (m.type == RemoteMemoryType::PerNodeMemoryExpansion && m.numNodes == 0)
            continue; // not a valid memory: ASTRA-sim's reader wants the node counts
        RemoteMemoryConfig back = parseAstraRemoteMemoryJson(text, "m.json");
        back.sourceFile = m.sourceFile;
        EXPECT_EQ(back, m) << text;
    }
}

TEST(SettingsSchema, AstraJsonReadsBackWhatWasExported) {
    for (const SimulationSpec& spec : bundledVariants()) {
        const std::string text = writeAstraSystemJson(spec.system, "");
        SystemConfig back = parseAstraSystemJson(text, "s.json");
        back.sourceFile = spec.system.sourceFile;
        back.endpointDelayNs = spec.system.endpointDelayNs;
        if (!spec.system.endpointDelayFromFile)
            back.endpointDelayConfiguredNs = spec.system.endpointDelayConfiguredNs;
        EXPECT_EQ(back, spec.system) << text;
    }
}

TEST(SettingsSchema, EverySettingIsDeclaredOnceWithAKeyAndHelp) {
    std::vector<std::string> paths;
    for (const settings::Group* group : settings::allGroups())
        for (const settings::Setting& s : group->settings) {
            EXPECT_FALSE(s.help.empty()) << s.path << s.astraKey;
            EXPECT_FALSE(s.path.empty() && s.astraKey.empty());
            if (s.path.empty())
                continue;
            EXPECT_EQ(std::count(paths.begin(), paths.end(), s.path), 0) << s.path;
            paths.push_back(s.path);
            if (s.type != settings::Type::Custom) {
                EXPECT_TRUE(s.get && s.set) << s.path;
            }
        }
}

// The limits of docs/limits.md are what the editors offer and the docs table states; a value
// between the limit and the reader's maximum is read, then refused by the limit check.
TEST(SettingsSchema, LimitsAreTheEditorsAndTheDocsUpperBound) {
    const auto find = [](const std::string& path) -> const settings::Setting* {
        for (const settings::Group* group : settings::allGroups())
            for (const settings::Setting& s : group->settings)
                if (s.path == path)
                    return &s;
        return nullptr;
    };
    const settings::Setting* chunks = find("system.chunks");
    const settings::Setting* queues = find("system.num-queues-per-dim");
    ASSERT_TRUE(chunks && queues);
    EXPECT_EQ(chunks->upperBound(), kMaxChunksPerCollective);
    EXPECT_EQ(queues->upperBound(), kMaxQueuesPerDimension);
    EXPECT_GT(chunks->maximum, chunks->limit);
    for (const settings::Group* group : settings::allGroups())
        if (group->name == "system") {
            const std::string table = settings::markdownTable(*group);
            EXPECT_THAT(table, testing::HasSubstr(">= 1, <= 16384 ([limits](limits.md))"));
            EXPECT_THAT(table, testing::HasSubstr(">= 1, <= 1024 ([limits](limits.md))"));
        }
}

// docs/project-format.md's settings tables are generated; this fails when they are stale.
TEST(SettingsSchema, ProjectFormatDocTablesAreCurrent) {
    const std::string path = kSourceDir + "/docs/project-format.md";
    const std::string doc = readInputFile(path, "the documentation page");
    for (const settings::Group* group : settings::allGroups())
        EXPECT_NE(doc.find("<!-- settings-table: " + group->name + " -->"), std::string::npos)
            << "docs/project-format.md has no generated table for group " << group->name;
    EXPECT_TRUE(settings::updateDocTables(doc) == doc)
        << "docs/project-format.md's settings tables are stale. Regenerate them with:\n"
           "    build/app/cli/astrolabe-cli settings --update-doc docs/project-format.md";
}

} // namespace
} // namespace astrolabe
