// The Chakra project's own test traces (../shared/reference/real-traces: a 2023 PyTorch run
// converted by Chakra, schema 1.0.1, and the JSON text form of its first nodes). The expected
// counts were taken from the file by a separate decoder (a few lines of Python over the
// protobuf wire format, no Astrolabe code): 3,664 nodes; 1,277 dependencies on 210 ids absent
// from the file; 383 nodes listing themselves; 554 dependencies on a larger id inside one of
// 417 cycles (the largest of 6 nodes); 14 CPU-side c10d calls typed COMM_COLL.
#include "ChakraTestUtil.h"
#include "TestPaths.h"
#include "core/Error.h"
#include "trace/TraceIo.h"
#include "trace/TraceRepair.h"
#include "trace/WorkloadLoader.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>

using namespace astrolabe;
namespace fs = std::filesystem;

namespace {

fs::path realTraces() {
    return fs::path(ASTROLABE_SHARED_DIR) / "reference" / "real-traces";
}

#define SKIP_WITHOUT_REAL_TRACES()                                                                 \
    if (!fs::exists(realTraces() / "chakra.0.et"))                                                 \
    GTEST_SKIP() << "no " << realTraces() << " (shared/ folder absent)"

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string strictLoadError(const std::string& prefix, int npus) {
    try {
        loadWorkload(prefix, npus);
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

} // namespace

TEST(RealTrace, StrictLoadRefusesTheConvertedTrace) {
    SKIP_WITHOUT_REAL_TRACES();
    test::TempDir tmp;
    fs::copy_file(realTraces() / "chakra.0.et", tmp.path("w.0.et"));
    const std::string message = strictLoadError(tmp.path("w"), 1);
    EXPECT_NE(message.find("depends on node 3, which is not in this file"), std::string::npos)
        << message;
}

TEST(RealTrace, LenientLoadCountsEveryAssumptionByKind) {
    SKIP_WITHOUT_REAL_TRACES();
    test::TempDir tmp;
    fs::copy_file(realTraces() / "chakra.0.et", tmp.path("w.0.et"));
    fs::copy_file(realTraces() / "chakra.0.et", tmp.path("w.1.et")); // rank 0 duplicated
    LoadOptions options;
    options.strict = false;
    options.dimensionSizes = {2};
    const auto traces = loadWorkload(tmp.path("w"), 2, options);
    ASSERT_EQ(traces.size(), 2u);
    for (const WorkloadTrace& t : traces) {
        EXPECT_EQ(t.nodes.size(), 3664u);
        EXPECT_EQ(t.schemaVersion, "1.0.1");
        EXPECT_EQ(t.recordedStartTs, 216405745u);
        EXPECT_EQ(t.recordedFinishTs, 216433101u);
        const TraceAssumptions& a = t.assumptions;
        EXPECT_EQ(a.count(Assumption::AbsentParent), 1277u);
        EXPECT_EQ(a.absentNodes, 210u);
        EXPECT_EQ(a.count(Assumption::SelfDependency), 383u);
        EXPECT_EQ(a.count(Assumption::CycleBroken), 554u);
        EXPECT_EQ(a.count(Assumption::HostCollective), 14u);
        EXPECT_EQ(a.count(Assumption::CollectiveFromName), 0u) << "the kernels carry comm_type";
        EXPECT_EQ(a.count(Assumption::SingleNpuCollective), 0u) << "2 NPUs";
    }
}

TEST(RealTrace, RepairedTracePassesTheStrictReader) {
    SKIP_WITHOUT_REAL_TRACES();
    test::TempDir tmp;
    WorkloadTrace trace = readWorkloadTrace((realTraces() / "chakra.0.et").string());
    repairTrace(trace);
    writeWorkloadTrace(tmp.path("w.0.et"), trace);
    fs::copy_file(tmp.path("w.0.et"), tmp.path("w.1.et"));
    LoadOptions strict;
    strict.dimensionSizes = {2};
    std::vector<WorkloadTrace> back;
    ASSERT_NO_THROW(back = loadWorkload(tmp.path("w"), 2, strict));
    EXPECT_EQ(back[0].nodes.size(), 3664u);
    EXPECT_TRUE(back[0].assumptions.empty());
    EXPECT_EQ(back[0].recordedStartTs, 216405745u) << "the recorded span is written back";
    // Every node keeps its id, type after repair, duration and kept dependencies.
    for (size_t i = 0; i < trace.nodes.size(); ++i) {
        EXPECT_EQ(back[0].nodes[i].id, trace.nodes[i].id);
        EXPECT_EQ(back[0].nodes[i].type, trace.nodes[i].type);
        EXPECT_EQ(back[0].nodes[i].durationMicros, trace.nodes[i].durationMicros);
        EXPECT_EQ(back[0].nodes[i].dataDeps, trace.nodes[i].dataDeps);
        EXPECT_EQ(back[0].nodes[i].ctrlDeps, trace.nodes[i].ctrlDeps);
    }
}

TEST(RealTrace, JsonTextSampleReadsIntoTheSameNodesAsTheProtobufTrace) {
    SKIP_WITHOUT_REAL_TRACES();
    const WorkloadTrace json = readWorkloadTrace((realTraces() / "small_chakra.0.json").string());
    const WorkloadTrace binary = readWorkloadTrace((realTraces() / "chakra.0.et").string());
    std::map<uint64_t, const WorkloadNode*> byId;
    for (const WorkloadNode& n : binary.nodes)
        byId[n.id] = &n;
    ASSERT_EQ(json.nodes.size(), 7u);
    for (const WorkloadNode& n : json.nodes) {
        SCOPED_TRACE(n.id);
        ASSERT_TRUE(byId.contains(n.id));
        const WorkloadNode& b = *byId[n.id];
        EXPECT_EQ(n.type, b.type);
        EXPECT_EQ(n.isCpuOp, b.isCpuOp);
        EXPECT_EQ(n.durationMicros, b.durationMicros);
        EXPECT_EQ(n.dataDeps, b.dataDeps);
        EXPECT_EQ(n.ctrlDeps, b.ctrlDeps);
        // The upstream sample went through a case-changing replace ("voId", "Namespace"); the
        // names agree but for case.
        EXPECT_EQ(lower(n.name), lower(b.name));
    }
}

TEST(RealTrace, JsonTextSampleLoadsLeniently) {
    SKIP_WITHOUT_REAL_TRACES();
    test::TempDir tmp;
    fs::copy_file(realTraces() / "small_chakra.0.json", tmp.path("w.0.et"));
    fs::copy_file(realTraces() / "small_chakra.0.json", tmp.path("w.1.et"));
    LoadOptions options;
    options.strict = false;
    const auto traces = loadWorkload(tmp.path("w"), 2, options);
    const TraceAssumptions& a = traces[0].assumptions;
    EXPECT_EQ(a.count(Assumption::HostCollective), 2u) << "c10d::broadcast_(0) and (1)";
    EXPECT_EQ(a.count(Assumption::CollectiveFromName), 1u) << "ncclKernel_Broadcast_... (435)";
    EXPECT_EQ(a.count(Assumption::BroadcastSizeless), 1u);
    EXPECT_EQ(traces[0].nodes[5].commType, CollectiveType::Broadcast);
}
