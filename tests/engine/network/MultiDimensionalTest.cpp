// The multi-dimensional congestion-aware model against closed forms on the paper's platforms
// (docs/network-models.md, "Several dimensions at once"): a phase uses only its own dimension's
// links, concurrent phases share a link first come first served, and a switch stores a message
// before forwarding it.
#include "engine/golden/GoldenSpec.h"

#include <gtest/gtest.h>

using namespace golden;
using CT = CollectiveType;
using BK = BlockKind;

namespace {

// The paper's four platforms (docs/themis.md), and the two convolutional ones with their Switch
// dimension replaced by a Ring, which have no store-and-forward hop.
std::vector<PaperPlatform> platforms() {
    std::vector<PaperPlatform> all = themisPaperPlatforms();
    for (const char* name : {"Conv-3D", "Conv-4D"})
        for (const PaperPlatform& p : themisPaperPlatforms())
            if (std::string(p.name) == name) {
                PaperPlatform ringLast = p;
                ringLast.name =
                    std::string(name) == "Conv-3D" ? "Conv-3D, Ring last" : "Conv-4D, Ring last";
                ringLast.dims.back().kind = BK::Ring;
                all.push_back(ringLast);
            }
    return all;
}

SimulationSpec specFor(const PaperPlatform& p, NetworkBackend backend) {
    SimulationSpec s = spec(p.dims, "ring", backend);
    setAlgorithms(s, p.algorithms);
    s.system.localMemBandwidthGBps = 1600;
    return s;
}

bool hasSwitch(const PaperPlatform& p) {
    for (const DimensionSpec& d : p.dims)
        if (d.kind == BK::Switch)
            return true;
    return false;
}

} // namespace

TEST(MultiDimensional, OneChunkInFlightCostsWhatTheCongestionUnawareModelSays) {
    // One chunk: no two messages ever share a link, so the congestion-aware model must agree
    // with the congestion-unaware one, except that a switch stores the message before it
    // forwards it: every ring step through a switch pays the serialisation twice.
    for (const PaperPlatform& p : platforms()) {
        SCOPED_TRACE(p.name);
        const uint64_t bytes = 64 * kMiB;
        const int64_t cu = maxCycles(
            *runCollective(specFor(p, NetworkBackend::CongestionUnaware), CT::AllReduce, bytes));
        const int64_t ca = maxCycles(
            *runCollective(specFor(p, NetworkBackend::CongestionAware), CT::AllReduce, bytes));
        if (!hasSwitch(p)) {
            EXPECT_NEAR(static_cast<double>(ca), static_cast<double>(cu), 2.0 * p.dims.size())
                << "cycles differ by more than rounding";
            continue;
        }
        // The switch dimension's extra serialisations: its reduce-scatter (all-reduce on the last
        // dimension: reduce-scatter and all-gather) moves (n-1)/n of what reaches it per
        // direction, once more.
        double extraNs = 0;
        double reaching = static_cast<double>(bytes);
        for (size_t d = 0; d < p.dims.size(); ++d) {
            const DimensionSpec& dimension = p.dims[d];
            const double n = dimension.size;
            const double perPass = reaching * (n - 1) / n / dimension.bytesPerNs();
            if (dimension.kind == BK::Switch)
                extraNs += 2 * perPass; // reduce-scatter and all-gather on this dimension
            reaching /= n;
        }
        EXPECT_NEAR(static_cast<double>(ca - cu), extraNs, 0.002 * extraNs + 64);
    }
}

TEST(MultiDimensional, KChunksOnTheSameLinksTakeKTimesAsLong) {
    // k chunks in flight at once on one ring: every link carries k messages per step, so the
    // serialisation part of the run is k times that of one chunk (no latency, no endpoint cost).
    for (int k : {2, 4, 8}) {
        SCOPED_TRACE(k);
        SimulationSpec s =
            spec({dim(BK::Ring, 8, 100, 0)}, "ring", NetworkBackend::CongestionAware);
        s.system.endpointDelayNs = 0;
        s.system.localMemBandwidthGBps = 1e6;
        const double one = static_cast<double>(maxCycles(*runCollective(s, CT::AllGather, kMiB)));
        s.system.preferredDatasetSplits = k;
        s.system.activeChunksPerDimension = k;
        const double many =
            static_cast<double>(maxCycles(*runCollective(s, CT::AllGather, kMiB * k)));
        EXPECT_NEAR(many / one, k, 0.01 * k);
    }
}

TEST(MultiDimensional, NoLinkIsBusyLongerThanTheRun) {
    for (const PaperPlatform& p : platforms())
        for (auto scheduling :
             {InterDimensionScheduling::Ascending, InterDimensionScheduling::Themis})
            for (int splits : {1, 16}) {
                SCOPED_TRACE(std::string(p.name) + " " + std::to_string(splits) + " chunks");
                SimulationSpec s = specFor(p, NetworkBackend::CongestionAware);
                s.system.preferredDatasetSplits = splits;
                s.system.interDimensionScheduling = scheduling;
                const auto r = runCollective(s, CT::AllReduce, 64 * kMiB);
                ASSERT_EQ(r->links.size(), r->linkStats.size());
                ASSERT_FALSE(r->linkStats.empty());
                for (const LinkStats& link : r->linkStats)
                    ASSERT_LE(link.busy, r->endTime);
                for (const DimensionStats& d : r->dimensions)
                    EXPECT_LE(d.utilization, 1.0 + 1e-9);
            }
}
