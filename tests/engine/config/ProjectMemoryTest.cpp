// The memory section's keys against its type: a key the chosen type does not read is named with
// its line, and the writer leaves such values out, so a project it wrote reads back without one.
#include "ConfigTestSupport.h"
#include "project/ProjectFile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace astrolabe {
namespace {

using astrolabe::test::TempDir;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

std::string projectWithMemory(const std::string& memory) {
    return "platform:\n  dimensions:\n"
           "    - {type: Switch, size: 8, bandwidth: 300 GB/s, latency: 500 ns}\n"
           "system:\n  algorithms: [ring]\n  chunks: 1\n"
           "memory:\n" +
           memory + "workload: {microbenchmark: {collective: all-reduce, size: 1 MiB}}\n";
}

TEST(ProjectMemory, KeysTheTypeDoesNotReadAreNamed) {
    std::vector<std::string> warnings;
    const SimulationSpec spec =
        parseProject(projectWithMemory("  type: per-npu\n  bandwidth: 100 GB/s\n"
                                       "  latency: 1000 ns\n  groups: 4\n  num-nodes: 2\n"),
                     "m.yaml", &warnings);
    EXPECT_EQ(spec.memory.type, RemoteMemoryType::PerNpuMemoryExpansion);
    ASSERT_THAT(warnings, SizeIs(2));
    EXPECT_THAT(warnings[0], HasSubstr("m.yaml:11:3: memory.groups: ignored: memory type per-npu "
                                       "does not read it (hint: only pooled memory reads it)"));
    EXPECT_THAT(warnings[1], HasSubstr("m.yaml:12:3: memory.num-nodes: ignored"));
    EXPECT_THAT(warnings[1], HasSubstr("only per-node memory reads it"));

    warnings.clear();
    parseProject(projectWithMemory("  type: none\n  bandwidth: 100 GB/s\n"), "n.yaml", &warnings);
    ASSERT_THAT(warnings, SizeIs(1));
    EXPECT_THAT(warnings[0], HasSubstr("n.yaml:9:3: memory.bandwidth: ignored: memory type none "
                                       "does not read it (hint: type none has no remote memory"));

    // Every key of a type that reads it: nothing to say.
    warnings.clear();
    parseProject(projectWithMemory("  type: per-node\n  bandwidth: 100 GB/s\n  latency: 1 us\n"
                                   "  num-nodes: 2\n  npus-per-node: 4\n"),
                 "p.yaml", &warnings);
    parseProject(projectWithMemory("  type: pooled\n  bandwidth: 100 GB/s\n  latency: 1 us\n"
                                   "  groups: 4\n  fabric-bandwidth: 256 GB/s\n"
                                   "  switch-dimension: 0\n"),
                 "q.yaml", &warnings);
    EXPECT_THAT(warnings, IsEmpty());
}

TEST(ProjectMemory, WriterLeavesOutWhatTheTypeDoesNotRead) {
    TempDir dir;
    SimulationSpec spec =
        parseProject(projectWithMemory("  type: per-node\n  bandwidth: 100 GB/s\n  latency: 1 us\n"
                                       "  num-nodes: 2\n  npus-per-node: 4\n"),
                     dir.path("a.yaml"));
    // The window switches the type and keeps the other type's counts in the spec.
    spec.memory.type = RemoteMemoryType::PerNpuMemoryExpansion;
    const std::string text = projectYamlText(spec, dir.path("b.yaml"));
    EXPECT_THAT(text, HasSubstr("type: per-npu"));
    EXPECT_THAT(text, HasSubstr("bandwidth: 100 GB/s"));
    EXPECT_THAT(text, ::testing::Not(HasSubstr("num-nodes")));
    std::vector<std::string> warnings;
    const SimulationSpec back = parseProject(text, dir.path("b.yaml"), &warnings);
    EXPECT_THAT(warnings, IsEmpty());
    EXPECT_EQ(back.memory.bandwidthBytesPerNs, 100u);
    EXPECT_EQ(back.memory.latencyNs, 1000u);

    spec.memory.type = RemoteMemoryType::NoMemoryExpansion;
    const std::string none = projectYamlText(spec, dir.path("c.yaml"));
    EXPECT_THAT(none, ::testing::Not(HasSubstr("bandwidth: 100")));
    EXPECT_THAT(none, ::testing::Not(HasSubstr("  latency:")));
    parseProject(none, dir.path("c.yaml"), &warnings);
    EXPECT_THAT(warnings, IsEmpty());
}

} // namespace
} // namespace astrolabe
