// The packet tier (ns-3 TCP over the platform) against closed forms. With S = bytes / beta,
// L the one-way path latency and RTT = 2 L on an idle path:
//   one message on an idle path      arrives at RTT (TCP handshake) + L + S (1 + h)
//   k messages into one bottleneck   the last arrives at about k S (1 + h) + start-up
// where h = 42 / (MTU - 40) is the header overhead per segment (IPv4 20, TCP 20 without
// timestamps, PPP 2). The acceptance bounds: 2 % for one flow, 5 % for k flows.
#include "packet/PacketNetwork.h"

#include "../network/NetworkTestSupport.h"
#include "TestPaths.h"
#include "core/Error.h"
#include "core/Limits.h"
#include "engine/golden/GoldenSpec.h"
#include "project/ProjectFile.h"
#include "record/LinkRecorder.h"
#include "simulation/Simulation.h"
#include "topology/Topology.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::test;

namespace {

struct PacketRig {
    explicit PacketRig(std::vector<DimensionSpec> dims, PacketOptions options = {})
        : topology(PlatformSpec{std::move(dims), {}})
        , log(sim)
        , recorder(topology.linkCount(), topology.npuCount(), true, false)
        , network(sim, topology, options, log, &recorder) {}

    Simulator sim;
    Topology topology;
    ArrivalLog log;
    LinkRecorder recorder;
    PacketNetwork network;
};

double headerFactor(int mtu) {
    return 1.0 + 42.0 / (mtu - 40);
}

} // namespace

TEST(PacketTier, OneFlowOnAnIdlePathTakesSerializationPlusLatencyPlusHandshake) {
    // FullyConnected: one direct link, 50 B/ns, 500 ns. 4 MiB: S = 83,886 ns.
    const double beta = 50.0, latency = 500.0;
    PacketRig rig({link(BlockKind::FullyConnected, 4, beta, latency)});
    const uint64_t bytes = 4u << 20;
    rig.network.transmit(0, 3, bytes, 1);
    rig.sim.run();
    const double s = static_cast<double>(bytes) / beta;
    const double expected = 2 * latency + latency + s * headerFactor(9000);
    ASSERT_EQ(rig.log.count(), 1u);
    EXPECT_NEAR(rig.log.at(1).ns(), expected, 0.02 * expected);
}

TEST(PacketTier, KFlowsIntoOneBottleneckShareIt) {
    // Switch of 5: NPUs 1..4 each send 2 MiB to NPU 0 at once. Every uplink is idle; the
    // switch's port down to NPU 0 carries all 4 S: the last finishes at about 4 S.
    const double beta = 25.0, latency = 200.0;
    PacketRig rig({link(BlockKind::Switch, 5, beta, latency)});
    const uint64_t bytes = 2u << 20;
    const int k = 4;
    for (int src = 1; src <= k; ++src)
        rig.network.transmit(src, 0, bytes, static_cast<uint64_t>(src));
    rig.sim.run();
    ASSERT_EQ(rig.log.count(), static_cast<size_t>(k));
    SimTime last;
    for (int src = 1; src <= k; ++src)
        last = std::max(last, rig.log.at(static_cast<uint64_t>(src)));
    const double expected = k * static_cast<double>(bytes) / beta * headerFactor(9000);
    EXPECT_NEAR(last.ns(), expected, 0.05 * expected);
}

TEST(PacketTier, SubFlowsOfOneMessageAllArriveBeforeItCompletes) {
    // Split into 4 connections on one link: the message still takes S (1 + h) + start-up, the
    // link being the bottleneck whatever the split.
    PacketOptions options;
    options.subflows = 4;
    const double beta = 50.0, latency = 500.0;
    PacketRig rig({link(BlockKind::FullyConnected, 2, beta, latency)}, options);
    const uint64_t bytes = 4u << 20;
    rig.network.transmit(0, 1, bytes, 7);
    rig.sim.run();
    const double expected = 3 * latency + static_cast<double>(bytes) / beta * headerFactor(9000);
    EXPECT_NEAR(rig.log.at(7).ns(), expected, 0.03 * expected);
}

TEST(PacketTier, RingAllReduceIsWithinFivePercentOfTheCongestionAwareModel) {
    // 8-NPU ring, 64 MiB: both models move 2 (p - 1) / p * 64 MiB per NPU over one link at a
    // time; the packet tier adds headers (0.6 %) and TCP's start-up on each new connection.
    auto packet = golden::spec({golden::dim(BlockKind::Ring, 8)}, "ring", NetworkBackend::Packet);
    auto aware =
        golden::spec({golden::dim(BlockKind::Ring, 8)}, "ring", NetworkBackend::CongestionAware);
    const uint64_t bytes = 64 * golden::kMiB;
    const auto p = golden::runCollective(packet, CollectiveType::AllReduce, bytes);
    const auto a = golden::runCollective(aware, CollectiveType::AllReduce, bytes);
    const double ratio = p->endTime.ns() / a->endTime.ns();
    EXPECT_NEAR(ratio, 1.0, 0.05) << "packet " << p->endTime.ns() << " ns, aware "
                                  << a->endTime.ns() << " ns";
}

TEST(PacketTier, AFlowThatCannotFinishInTimeNamesTheFlowAndTheLink) {
    // A stall timeout shorter than the handshake: no byte can arrive in time, so the watchdog
    // ends the run and names the message and its first link, instead of waiting.
    PacketOptions options;
    options.stallTimeoutNs = 1500; // the first byte needs 3 x 1000 ns
    PacketRig rig({link(BlockKind::FullyConnected, 4, 50.0, 1000.0)}, options);
    rig.network.transmit(2, 3, 1u << 20, 1);
    try {
        rig.sim.run();
        FAIL() << "the run finished";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Deadlock);
        const std::string what = e.what();
        EXPECT_NE(what.find("1048576 bytes from NPU 2 to NPU 3"), std::string::npos) << what;
        EXPECT_NE(what.find("first link"), std::string::npos) << what;
    }
}

TEST(PacketTier, InNetworkCollectivesAreRefusedClearly) {
    PacketRig rig({link(BlockKind::Switch, 4, 50.0, 500.0)});
    try {
        rig.network.transmitToSwitch(0, 0, 1024, 1);
        FAIL() << "accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    }
}

TEST(PacketTier, ProjectSettingsAreReadWithTheirUnits) {
    const SimulationSpec spec = parseProject(
        "name: t\nplatform:\n  dimensions:\n    - {type: Ring, size: 4, bandwidth: 50 GB/s, "
        "latency: 500 ns}\nsystem: {chunks: 1, algorithms: {all-reduce: [ring]}}\nworkload:\n  "
        "microbenchmark: {collective: "
        "all-reduce, size: 1 MiB}\nrun: {backend: packet, packet-transport: newreno, "
        "packet-routing: spray, packet-subflows: 4, packet-mtu: 1500, packet-queue: 256 KiB, "
        "packet-ecn-threshold: 64 KiB, packet-stall-timeout: 2 ms}\n",
        "p.yaml");
    EXPECT_EQ(spec.options.backend, NetworkBackend::Packet);
    const PacketOptions& p = spec.options.packet;
    EXPECT_EQ(p.transport, PacketTransport::NewReno);
    EXPECT_EQ(p.routing, PacketRouting::Spray);
    EXPECT_EQ(p.subflows, 4);
    EXPECT_EQ(p.mtuBytes, 1500);
    EXPECT_EQ(p.queueBytes, 256u * 1024);
    EXPECT_EQ(p.ecnThresholdBytes, 64u * 1024);
    EXPECT_DOUBLE_EQ(p.stallTimeoutNs, 2e6);
}

TEST(PacketTier, AMisspelledRoutingNamesTheKeyAndTheChoices) {
    try {
        parseProject("name: t\nplatform:\n  dimensions:\n    - {type: Ring, size: 4, bandwidth: "
                     "50 GB/s, latency: 500 ns}\nsystem: {chunks: 1, algorithms: {all-reduce: "
                     "[ring]}}\nworkload:\n  "
                     "microbenchmark: {collective: all-reduce, size: 1 MiB}\nrun: {backend: "
                     "packet, packet-routing: sprya}\n",
                     "bad.yaml");
        FAIL() << "accepted";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("bad.yaml"), std::string::npos) << what;
        EXPECT_NE(what.find("sprya"), std::string::npos) << what;
        EXPECT_NE(what.find("spray"), std::string::npos) << what;
    }
}

TEST(PacketTier, TheCaseStudyProjectsLoad) {
    const std::filesystem::path dir = std::filesystem::path(ASTROLABE_TEST_DATA_DIR) / ".." / ".." /
                                      "projects" / "case-studies" / "packet-spraying";
    const std::pair<const char*, int> projects[] = {{"all-reduce.yaml", 64},
                                                    {"all-to-all.yaml", 64},
                                                    {"scale-16.yaml", 16},
                                                    {"scale-128.yaml", 128},
                                                    {"scale-256.yaml", 256}};
    for (const auto& [name, npus] : projects) {
        const SimulationSpec spec = loadProject((dir / name).string());
        EXPECT_EQ(spec.options.backend, NetworkBackend::Packet) << name;
        EXPECT_TRUE(spec.platform.graph) << name;
        EXPECT_EQ(spec.platform.npuCount(), npus) << name;
    }
}

// ns-3 numbers its random streams from one counter for the whole process, and the RED queues
// draw from them: each fabric numbers its queues' streams itself, so a run gives the same
// times whatever ran before it in the process.
TEST(PacketTier, ARunGivesTheSameTimesWhateverRanBeforeItInTheProcess) {
    auto incast = [] {
        // Eight senders into one port: the queue passes DCTCP's marking threshold.
        PacketRig rig({link(BlockKind::Switch, 9, 25.0, 200.0)});
        for (int src = 1; src <= 8; ++src)
            rig.network.transmit(src, 0, 2u << 20, static_cast<uint64_t>(src));
        rig.sim.run();
        std::vector<int64_t> arrivals;
        for (int src = 1; src <= 8; ++src)
            arrivals.push_back(rig.log.at(static_cast<uint64_t>(src)).ps());
        return arrivals;
    };
    const std::vector<int64_t> first = incast();
    {
        PacketRig other({link(BlockKind::Switch, 5, 25.0, 200.0)});
        for (int src = 1; src <= 4; ++src)
            other.network.transmit(src, 0, 1u << 20, static_cast<uint64_t>(src));
        other.sim.run();
    }
    EXPECT_EQ(incast(), first);
}

// A platform past the packet tier's size is refused before ns-3 builds anything, naming the key
// to change.
TEST(PacketTier, APlatformPastItsSizeIsRefusedBeforeTheFabricIsBuilt) {
    for (const int npus : {static_cast<int>(kMaxPacketNpus) + 1, 1 << 16}) {
        SCOPED_TRACE(npus);
        auto spec =
            golden::spec({golden::dim(BlockKind::Switch, npus)}, "ring", NetworkBackend::Packet);
        spec.sourceFile = "big.yaml";
        try {
            golden::runCollective(spec, CollectiveType::AllReduce, golden::kMiB);
            ADD_FAILURE() << "the packet tier ran " << npus << " NPUs";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::Validation);
            EXPECT_EQ(e.where().file, "big.yaml");
            EXPECT_EQ(e.where().keyPath, "run.backend");
            EXPECT_NE(
                std::string(e.what()).find("at most 4096 NPUs, found " + std::to_string(npus)),
                std::string::npos)
                << e.what();
        }
    }
}
