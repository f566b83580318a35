// Symmetry and rank folding against the full run on random workloads: every NPU does the same
// work up to a coordinate shift, and most workloads carry one small deliberate asymmetry (one
// NPU's node size, one peer, one group). Under both network models, each run with symmetry
// allowed must either simulate every NPU (refused) or give exactly what the full run gives.
//
// 1,000 workloads by default; ASTROLABE_FOLDING_WORKLOADS=N runs N (the long run: 10000).
#include "engine/golden/RandomWorkload.h"
#include "engine/golden/RunComparison.h"
#include "simulation/RankFolding.h"
#include "simulation/Simulation.h"
#include "topology/Topology.h"

#include <chrono>
#include <cstdlib>
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace golden;
using astrolabe::NetworkBackend;
using astrolabe::RankFolding;
using astrolabe::SimulationSpec;
using astrolabe::Topology;

namespace {

int workloadCount() {
    const char* text = std::getenv("ASTROLABE_FOLDING_WORKLOADS");
    const int asked = text ? std::atoi(text) : 0;
    return std::max(asked, 1000);
}

/// Every element of the folding's group maps the links one to one.
std::string linkImageProblem(const RankFolding& folding, const Topology& topology) {
    for (int k = 0; k < folding.orbitSize(); ++k) {
        std::set<int> images;
        for (int l = 0; l < topology.linkCount(); ++l)
            images.insert(folding.linkImage(k, l));
        if (static_cast<int>(images.size()) != topology.linkCount())
            return "symmetry " + std::to_string(k) + " maps two links onto one";
    }
    return {};
}

} // namespace

TEST(FoldingDifferential, RandomAsymmetricWorkloadsFoldExactlyOrNotAtAll) {
    const int count = workloadCount();
    const auto start = std::chrono::steady_clock::now();
    // (backend, asymmetry) -> [runs, runs that simulated fewer NPUs]
    std::map<std::pair<NetworkBackend, Asymmetry>, std::pair<int, int>> tally;
    int failures = 0, bothFailed = 0;
    for (int i = 0; i < count; ++i) {
        const NetworkBackend backend =
            i % 2 ? NetworkBackend::CongestionAware : NetworkBackend::CongestionUnaware;
        RandomWorkload w = randomWorkload(static_cast<uint64_t>(i), backend);
        SimulationSpec full = w.spec;
        full.options.exploitSymmetry = false;
        // A run may fail (chunks waiting for each other's queue slots, see QueueSlotDeadlockTest);
        // then both must fail alike.
        std::shared_ptr<const astrolabe::RunResult> fast, reference;
        std::string fullError, fastError;
        try {
            reference = runSimulation(full, w.traces);
        } catch (const std::exception& e) {
            fullError = e.what();
        }
        try {
            fast = runSimulation(w.spec, w.traces);
        } catch (const std::exception& e) {
            fastError = e.what();
        }
        if (!fullError.empty() || !fastError.empty()) {
            ++bothFailed;
            if (fullError != fastError && ++failures <= 10)
                ADD_FAILURE() << w.description << ": the full run says \""
                              << fullError.substr(0, 300) << "\", the run with symmetry \""
                              << fastError.substr(0, 300) << "\"";
            continue;
        }
        ASSERT_EQ(reference->simulatedNpus, reference->npuCount) << w.description;
        auto& [runs, reduced] = tally[{backend, w.asymmetry}];
        ++runs;
        if (fast->simulatedNpus == fast->npuCount)
            continue; // refused: the full run it is
        ++reduced;
        std::string problem = runDifference(*fast, *reference);
        if (problem.empty() && fast->simulatedNpus > 1) {
            const Topology topology(w.spec.platform);
            const RankFolding folding(w.spec, w.traces, topology);
            if (folding.folds())
                problem = linkImageProblem(folding, topology);
        }
        if (!problem.empty() && ++failures <= 10)
            ADD_FAILURE() << w.description << ": " << fast->simulatedNpus << " of "
                          << fast->npuCount << " NPUs simulated, but " << problem;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(failures, 0);
    std::string summary;
    int reducedTotal = 0;
    for (const auto& [key, value] : tally) {
        summary += std::string("\n  ") + networkBackendName(key.first) + ", asymmetry " +
                   asymmetryName(key.second) + ": " + std::to_string(value.second) + " of " +
                   std::to_string(value.first) + " simulated fewer NPUs";
        reducedTotal += value.second;
    }
    std::printf("%d workloads, each run with symmetry allowed and in full, in %.1f s (%d failed "
                "alike both ways):%s\n",
                count, seconds, bothFailed, summary.c_str());
    // The comparison proves something only where runs were reduced: under both models, and for
    // symmetric workloads and asymmetric ones (whose folding keeps the symmetries that remain).
    for (NetworkBackend b : {NetworkBackend::CongestionUnaware, NetworkBackend::CongestionAware})
        EXPECT_GT((tally[{b, Asymmetry::None}].second), 0) << networkBackendName(b);
    // Asymmetric workloads fold under both models (congestion-aware: one FIFO per link orbit).
    for (NetworkBackend b : {NetworkBackend::CongestionUnaware, NetworkBackend::CongestionAware}) {
        EXPECT_GT((tally[{b, Asymmetry::Peer}].second), 0) << networkBackendName(b);
        EXPECT_GT((tally[{b, Asymmetry::Group}].second), 0) << networkBackendName(b);
    }
    EXPECT_GT(reducedTotal, count / 5);
    EXPECT_LT(bothFailed, count / 20) << "the generator should make runnable workloads";
    // The CI budget: 1,000 workloads (2,000 runs) in well under a minute on one core.
    if (count == 1000) {
        EXPECT_LT(seconds, 60.0) << "the differential test outgrew its time budget";
    }
}
