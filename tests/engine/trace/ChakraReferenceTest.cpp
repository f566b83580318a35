// Every Chakra trace shipped with ASTRA-sim (shared/reference) reads, survives write + re-read
// unchanged, decodes, and loads as a whole workload.
#include "ChakraTestUtil.h"
#include "TestPaths.h"
#include "core/Error.h"
#include "trace/TraceIo.h"
#include "trace/WorkloadLoader.h"
#include "trace/chakra/ChakraFile.h"

#include <filesystem>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>
#include <map>

using namespace astrolabe;
namespace fs = std::filesystem;

namespace {

const fs::path kReference = fs::path(ASTROLABE_SHARED_DIR) / "reference" / "astra-sim";

std::vector<std::string> referenceTraces() {
    std::vector<std::string> files;
    if (!fs::is_directory(kReference))
        return files;
    for (const auto& entry : fs::recursive_directory_iterator(kReference))
        if (entry.is_regular_file() && entry.path().extension() == ".et")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

// prefix -> number of files
std::map<std::string, int> referencePrefixes() {
    std::map<std::string, int> prefixes;
    for (const std::string& file : referenceTraces()) {
        // "<prefix>.<rank>.et"
        const std::string stem = file.substr(0, file.size() - 3);
        const size_t dot = stem.rfind('.');
        if (dot != std::string::npos &&
            stem.find_first_not_of("0123456789", dot + 1) == std::string::npos)
            ++prefixes[stem.substr(0, dot)];
    }
    return prefixes;
}

#define SKIP_WITHOUT_REFERENCE()                                                                   \
    if (referenceTraces().empty())                                                                 \
    GTEST_SKIP() << "no reference traces under " << kReference << " (shared/ folder absent)"

} // namespace

TEST(ChakraReference, EveryTraceRoundTripsFieldForField) {
    SKIP_WITHOUT_REFERENCE();
    test::TempDir tmp;
    const auto files = referenceTraces();
    EXPECT_EQ(files.size(), 120u); // 12 microbenchmark sets (4+8+16 NPUs x 4) + 8 custom
    for (const std::string& path : files) {
        SCOPED_TRACE(path);
        const ChakraFile original = readChakraFile(path);
        EXPECT_EQ(original.encoding, chakra::ChakraEncoding::Binary);
        ASSERT_FALSE(original.nodes.empty());
        const std::string copy = tmp.path("copy.et");
        writeChakraFile(copy, original);
        // Upstream writers serialise in field order too, so the bytes must be identical.
        EXPECT_EQ(test::readText(copy), test::readText(path));
        const ChakraFile reread = readChakraFile(copy);
        EXPECT_TRUE(
            google::protobuf::util::MessageDifferencer::Equals(original.metadata, reread.metadata));
        ASSERT_EQ(original.nodes.size(), reread.nodes.size());
        for (size_t i = 0; i < original.nodes.size(); ++i)
            EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(original.nodes[i],
                                                                           reread.nodes[i]))
                << "node " << i;
        // Through JSON as well.
        writeChakraJsonFile(tmp.path("copy.json"), original);
        const ChakraFile fromJson = readChakraFile(tmp.path("copy.json"));
        EXPECT_EQ(fromJson.encoding, chakra::ChakraEncoding::Json);
        EXPECT_EQ(serializeChakraFile(fromJson), serializeChakraFile(original));
    }
}

TEST(ChakraReference, MicrobenchmarksDecodeToOneCollectivePerRank) {
    SKIP_WITHOUT_REFERENCE();
    const std::map<std::string, CollectiveType> types{
        {"all_reduce", CollectiveType::AllReduce},
        {"all_gather", CollectiveType::AllGather},
        {"reduce_scatter", CollectiveType::ReduceScatter},
        {"all_to_all", CollectiveType::AllToAll}};
    int checked = 0;
    for (const auto& [prefix, count] : referencePrefixes()) {
        const std::string collective = fs::path(prefix).filename().string();
        if (!types.count(collective))
            continue;
        for (int rank = 0; rank < count; ++rank) {
            const WorkloadTrace trace = readWorkloadTrace(workloadFileName(prefix, rank));
            ASSERT_EQ(trace.nodes.size(), 1u);
            const WorkloadNode& node = trace.nodes[0];
            EXPECT_EQ(trace.schemaVersion, "0.0.4");
            EXPECT_EQ(node.id, uint64_t(rank));
            EXPECT_EQ(node.type, NodeType::CommColl);
            EXPECT_FALSE(node.isCpuOp);
            EXPECT_TRUE(node.hasCommType && node.hasCommSize);
            EXPECT_EQ(node.commType, types.at(collective));
            EXPECT_EQ(node.commSize, 1048576u);
            EXPECT_TRUE(node.detail->involvedDim.empty());
            EXPECT_EQ(node.name, collective + "_" + std::to_string(count) + "npus_1MB");
            ++checked;
        }
    }
    EXPECT_EQ(checked, 112);
}

TEST(ChakraReference, CustomCollectiveTraceDecodes) {
    SKIP_WITHOUT_REFERENCE();
    const std::string prefix = (kReference / "examples/system/custom_collectives/"
                                             "custom_ring_allreduce_8npus_1MB/custom_allreduce")
                                   .string();
    const WorkloadTrace trace = readWorkloadTrace(prefix + ".0.et");
    EXPECT_EQ(trace.schemaVersion, "1.0.2-chakra.0.0.4");
    int sends = 0, recvs = 0, comps = 0;
    for (const WorkloadNode& node : trace.nodes) {
        if (node.type == NodeType::CommSend || node.type == NodeType::CommRecv) {
            EXPECT_EQ(node.commSize, 131072u) << node.id;
            EXPECT_TRUE(node.hasCommTag);
        }
        sends += node.type == NodeType::CommSend;
        recvs += node.type == NodeType::CommRecv;
        if (node.type == NodeType::Comp) {
            ++comps;
            EXPECT_EQ(node.durationMicros, 7u);
        }
    }
    // Spec §7.2: 28 send/recv steps (14 sends + 14 receives) and 7 COMP nodes per rank.
    EXPECT_EQ(sends, 14);
    EXPECT_EQ(recvs, 14);
    EXPECT_EQ(comps, 7);
}

TEST(ChakraReference, EveryPrefixLoadsAsAWorkload) {
    SKIP_WITHOUT_REFERENCE();
    for (const auto& [prefix, count] : referencePrefixes()) {
        SCOPED_TRACE(prefix);
        LoadOptions options;
        options.dimensionSizes = {uint32_t(count)};
        // Custom-collective ETs use algorithm ranks; their sends/recvs are matched inside the
        // collective, and they pair up within the set as well.
        const auto traces = loadWorkload(prefix, count, options);
        EXPECT_EQ(int(traces.size()), count);
        EXPECT_THROW(loadWorkload(prefix, count - 1, options), Error); // NPU count mismatch
    }
}

TEST(ChakraReference, GzipCompressedReferenceReadsTheSame) {
    SKIP_WITHOUT_REFERENCE();
    test::TempDir tmp;
    const std::string path = referenceTraces().front();
    test::writeText(tmp.path("x.0.et"), test::gzip(test::readText(path)));
    const ChakraFile zipped = readChakraFile(tmp.path("x.0.et"));
    EXPECT_EQ(zipped.encoding, chakra::ChakraEncoding::Gzip);
    EXPECT_EQ(serializeChakraFile(zipped), test::readText(path));
}
