// Pools on the platform and the KV transfers on its links (serving/ServingTraffic.h): the
// placement convention, and the bytes each link carries against the closed form
// sum over transfers of prompt tokens x KV bytes per token.
#include "serving/ServingTraffic.h"

#include "project/ProjectFile.h"
#include "serving/ServingCodec.h"
#include "serving/ServingRun.h"

#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::serving;

namespace {

/// Two nodes of 8 GPUs: a switch inside each (dimension 0), a switch between them (1).
SimulationSpec twoNodes(const std::string& serving) {
    return parseProject("name: traffic\nplatform:\n  dimensions:\n"
                        "    - {type: Switch, size: 8, bandwidth: 450 GB/s, latency: 1 us}\n"
                        "    - {type: Switch, size: 2, bandwidth: 50 GB/s, latency: 5 us}\n"
                        "system:\n  algorithms: [ring]\n  chunks: 4\n"
                        "serving:\n  model: llama3-8b\n  gpu: h100\n  " +
                            serving,
                        "traffic.yaml");
}

} // namespace

TEST(ServingTraffic, PoolsTakeTheNpusInOrderAndAfdSplitsAttentionFromFfn) {
    const SimulationSpec spec = twoNodes("deployment: afd\n  prefill-replicas: 2\n"
                                         "  afd-attention-gpus: 3\n  afd-ffn-gpus: 2\n");
    std::vector<ReplicaStats> replicas(3);
    replicas[0].role = replicas[1].role = PoolRole::Prefill;
    replicas[2].role = PoolRole::Decode;
    replicas[2].gpus = 5;
    const std::vector<GpuPlacement> p = servingPlacement(spec.serving, replicas, 16);
    ASSERT_EQ(p.size(), 16u);
    EXPECT_EQ(p[0].role, GpuRole::Prefill);
    EXPECT_EQ(p[1].replica, 1);
    for (int npu = 2; npu < 5; ++npu)
        EXPECT_EQ(p[size_t(npu)].role, GpuRole::Attention) << npu;
    for (int npu = 5; npu < 7; ++npu)
        EXPECT_EQ(p[size_t(npu)].role, GpuRole::Ffn) << npu;
    EXPECT_EQ(p[7].role, GpuRole::Idle);
    EXPECT_EQ(p[7].replica, -1);
}

TEST(ServingTraffic, KvTransfersCrossTheLinksBetweenTheNodesAsTheClosedFormSays) {
    // Eight one-GPU prefill replicas fill node 0 (NPUs 0-7); the one decode replica is NPU 8,
    // on node 1. Every transfer goes up and down dimension 1's switch: each of those two links
    // carries sum(prompt x 131,072 B) (Llama 3 8B: 32 layers x 8 KV heads x 128 x 2 x 2 B).
    // Transfers from NPUs 1-7 first reach NPU 0 inside node 0 (up and down its switch).
    const SimulationSpec spec = twoNodes("deployment: pd\n  prefill-replicas: 8\n  replicas: 1\n"
                                         "  rate: 20\n  duration: 5 s\n");
    const ServingResult r = runServing(spec);
    EXPECT_EQ(r.kvBytesPerToken, 131072);
    double all = 0, fromOthers = 0;
    size_t transfers = 0;
    for (const RequestRecord& q : r.requests)
        if (q.transferStart >= 0) {
            ++transfers;
            all += q.promptTokens * r.kvBytesPerToken;
            if (q.prefillReplica != 0)
                fromOthers += q.promptTokens * r.kvBytesPerToken;
        }
    ASSERT_GT(transfers, 50u);
    const RunResult run = servingRunResult(spec, r);
    ASSERT_EQ(run.links.size(), run.linkStats.size());
    ASSERT_EQ(run.dimensions.size(), 2u);
    EXPECT_NEAR(double(run.dimensions[1].bytes), 2 * all, double(2 * transfers));
    EXPECT_NEAR(double(run.dimensions[0].bytes), 2 * fromOthers, double(2 * transfers));
    // busy = bytes / bandwidth on each link.
    for (size_t l = 0; l < run.links.size(); ++l)
        EXPECT_NEAR(run.linkStats[l].busy.seconds(),
                    double(run.linkStats[l].bytes) / run.links[l].bandwidthBytesPerSecond,
                    1e-9 + 1e-12 * double(run.linkStats[l].messages));
    // The records keep the KV size (format 2).
    EXPECT_EQ(decodeServingResult(encodeServingResult(r)).kvBytesPerToken, 131072);
}

TEST(ServingTraffic, AfdExchangesEveryDecodeTokensActivationsBothWaysInEveryLayer) {
    // NPU 0 prefills; the decode replica is attention NPUs 1-2 and FFN NPUs 3-4, all inside
    // node 0 (each route: up to the node's switch and down, two links of dimension 0). Each
    // decoded token's activations, 4,096 x 2 B in each of Llama 3 8B's 32 layers, cross both
    // ways: dimension 0 carries 2 links x 2 ways x tokens x 4,096 x 2 x 32 B, plus the KV
    // transfers 0 -> 1 (2 links x prompt x 131,072 B).
    const SimulationSpec spec = twoNodes("deployment: afd\n  afd-attention-gpus: 2\n"
                                         "  afd-ffn-gpus: 2\n  rate: 5\n  duration: 4 s\n");
    const ServingResult r = runServing(spec);
    ASSERT_EQ(r.replicas.size(), 2u);
    ASSERT_EQ(r.replicas[1].role, PoolRole::Decode);
    double kv = 0;
    for (const RequestRecord& q : r.requests)
        if (q.transferStart >= 0)
            kv += q.promptTokens * r.kvBytesPerToken;
    const double afd = 2.0 * 2 * double(r.replicas[1].tokens) * 4096 * 2 * 32;
    ASSERT_GT(afd, 0);
    const RunResult run = servingRunResult(spec, r);
    ASSERT_EQ(run.dimensions.size(), 2u);
    EXPECT_NEAR(double(run.dimensions[0].bytes), 2 * kv + afd, double(r.requests.size()) * 4 + 8);
    EXPECT_EQ(run.dimensions[1].bytes, 0u);
}

TEST(ServingTraffic, AggregatedServingPutsNothingOnTheLinks) {
    const SimulationSpec spec = twoNodes("replicas: 2\n  rate: 5\n  duration: 2 s\n");
    const RunResult run = servingRunResult(spec, runServing(spec));
    EXPECT_TRUE(run.links.empty());
}
