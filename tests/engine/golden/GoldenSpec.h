#pragma once
// Builders for the golden vectors of spec §9.5. Defaults: E = 10, L = 50, splits = 1,
// active = 1, localBWAware, 50 GB/s (ASTRA-sim GB = 2^30 B), 500 ns, 1 MiB = 1,048,576 B.

#include "record/RunResult.h"
#include "spec/SimulationSpec.h"
#include "trace/WorkloadNode.h"

#include <memory>
#include <vector>

namespace golden {

using namespace astrolabe;

constexpr uint64_t kMiB = 1048576;

DimensionSpec dim(BlockKind kind, int size, double gbps = 50.0, double latencyNs = 500.0);
SimulationSpec spec(std::vector<DimensionSpec> dims, const char* algorithm = "ring",
                    NetworkBackend backend = NetworkBackend::CongestionUnaware);
void setAlgorithms(SimulationSpec& s, std::vector<std::string> names);

/// One of the Themis paper's platforms (docs/themis.md): its dimensions at the paper's bandwidths
/// (500 ns links) and the algorithm of each (ring; direct on FullyConnected).
struct PaperPlatform {
    const char* name;
    std::vector<DimensionSpec> dims;
    std::vector<std::string> algorithms;
};
/// W-1D, W-2D, Conv-3D, Conv-4D.
std::vector<PaperPlatform> themisPaperPlatforms();

std::shared_ptr<const RunResult> runCollective(const SimulationSpec& s, CollectiveType type,
                                               uint64_t bytes);
std::shared_ptr<const RunResult> runTraces(const SimulationSpec& s,
                                           std::vector<WorkloadTrace> traces);

int64_t maxCycles(const RunResult& r);
int64_t minCycles(const RunResult& r);
int64_t cycles(const RunResult& r, int npu);

WorkloadNode comp(uint64_t id, uint64_t micros, std::vector<uint64_t> deps = {});
/// A matching SEND (on src) and RECV (on dst) of `bytes` with `tag`, both with node id `id`.
std::pair<WorkloadNode, WorkloadNode> sendRecv(uint64_t id, int src, int dst, uint32_t tag,
                                               uint64_t bytes);
WorkloadNode coll(uint64_t id, CollectiveType type, uint64_t bytes,
                  std::vector<uint64_t> deps = {});

} // namespace golden
