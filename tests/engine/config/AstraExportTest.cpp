#include "astra/AstraExport.h"

#include "ConfigTestSupport.h"
#include "astra/AstraMemoryConfig.h"
#include "astra/AstraNetworkConfig.h"
#include "astra/AstraSystemConfig.h"
#include "project/ProjectFile.h"

#include <gtest/gtest.h>

using namespace astrolabe;
using astrolabe::test::TempDir;

// Export to ASTRA-sim's files, then read them back with the ASTRA-sim loaders: same spec.
TEST(AstraExport, ProjectExportsToAstraSimFilesAndReadsBack) {
    TempDir dir;
    const std::string project = dir.write("p/project.yaml", R"(
platform:
  dimensions:
    - {type: Switch, size: 4, bandwidth: 741.34 GiB/s, latency: 936.25 ns}
    - {type: Ring, size: 2, bandwidth: 50 GB/s, latency: 1 us}
system:
  algorithms: {all-reduce: [direct4, ring], all-gather: [oneHalvingDoubling]}
  custom-algorithms: {all-to-all: /x/a2a}
  per-node-custom: {5: /x/n5}
  scheduling-policy: FIFO
  collective-optimization: localBWAware
  intra-dimension-scheduling: RG
  inter-dimension-scheduling: themis
  chunks: 3
  active-chunks-per-dimension: 2
  endpoint-delay: 12.5 ns
  local-memory-bandwidth: 1.6 TB/s
  peak-perf: 989.5 TFLOP/s
  roofline: true
  track-local-memory: true
  injection-scale: 2
memory: {type: per-node, latency: 40 ns, bandwidth: 25 GB/s, num-nodes: 4, npus-per-node: 2}
comm-groups: {1: [7, 0], 2: [1, 2, 3]}
workload: {microbenchmark: {collective: all-gather, size: 3 KiB}}
)");
    const SimulationSpec spec = loadProject(project);

    const std::string perNode = dir.write("a/per_node.yaml", writePerNodeCustomYaml(spec.system));
    const std::string system =
        dir.write("a/system.json", writeAstraSystemJson(spec.system, perNode));
    std::vector<std::string> warnings;
    SystemConfig back = loadAstraSystemJson(system, spec.options.injectionScale, &warnings);
    EXPECT_TRUE(warnings.empty());
    back.sourceFile = spec.system.sourceFile;
    EXPECT_EQ(back, spec.system);
    EXPECT_EQ(back.endpointDelayNs, 25); // int(12.5 * 2)

    const PlatformSpec platform = parseAstraNetworkYaml(writeAstraNetworkYaml(spec.platform), "n");
    EXPECT_EQ(platform, spec.platform);

    RemoteMemoryConfig memory =
        parseAstraRemoteMemoryJson(writeAstraRemoteMemoryJson(spec.memory), "m.json");
    memory.sourceFile = spec.memory.sourceFile;
    EXPECT_EQ(memory, spec.memory);

    EXPECT_EQ(parseCommGroupsJson(writeCommGroupsJson(spec.commGroups), "g.json"), spec.commGroups);
}
