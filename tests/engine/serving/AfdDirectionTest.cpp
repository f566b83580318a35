// The AFD paper's direction ("How Far Can Disaggregation Go?", the seeds): on DeepSeek-V3, at a
// strict TPOT objective Attention-FFN disaggregation sustains a higher goodput per GPU than P/D
// disaggregation and than chunked-prefill aggregation; at a loose one the advantage shrinks.
// The three deployments are projects/serving/deepseek-v3-{aggregated,pd,afd}.yaml, 160 H800
// each; docs/serving.md has the whole sweep.
#include "TestPaths.h"
#include "project/ProjectFile.h"
#include "serving/ServingRun.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <iterator>
#include <vector>

using namespace astrolabe;
using namespace astrolabe::serving;

namespace {

/// Requests meeting both objectives per second of the run, per GPU (ServingResult.h's goodput).
double goodputPerGpu(const ServingResult& r, double ttftSlo, double tpotSlo) {
    int64_t good = 0;
    for (const RequestRecord& q : r.requests) {
        if (!q.finished())
            continue;
        const double tpot =
            q.outputTokens > 1 ? (q.lastToken - q.firstToken) / (q.outputTokens - 1) : 0;
        if (q.firstToken - q.arrival <= ttftSlo && tpot <= tpotSlo)
            ++good;
    }
    return double(good) / r.summary.durationSeconds / r.summary.gpus;
}

constexpr double kSlos[] = {0.020, 0.030, 0.045, 0.060, 0.100};
constexpr double kRates[] = {25, 50, 100, 200};

/// For each TPOT objective of kSlos, the best goodput per GPU over kRates (20 s of arrivals each).
std::vector<double> bestGoodput(const std::string& deployment) {
    SimulationSpec spec = loadProject(std::string(test_paths::sourceDir()) +
                                      "/projects/serving/deepseek-v3-" + deployment + ".yaml");
    spec.serving.durationNs = 20e9;
    std::vector<double> best(std::size(kSlos), 0.0);
    std::vector<double> at(std::size(kSlos), 0.0);
    for (double rate : kRates) {
        spec.serving.rate = rate;
        const ServingResult r = runServing(spec);
        for (size_t i = 0; i < std::size(kSlos); ++i) {
            const double g = goodputPerGpu(r, 3.0, kSlos[i]);
            if (g > best[i]) {
                best[i] = g;
                at[i] = rate;
            }
        }
    }
    std::printf("%-10s", deployment.c_str());
    for (size_t i = 0; i < best.size(); ++i)
        std::printf(" | %3.0f ms: %.4f (%3.0f/s)", kSlos[i] * 1e3, best[i], at[i]);
    std::printf("\n");
    return best;
}

} // namespace

TEST(AfdDirection, AfdLeadsAtAStrictTpotAndTheLeadShrinksWhenItIsLoose) {
    const std::vector<double> aggregated = bestGoodput("aggregated");
    const std::vector<double> pd = bestGoodput("pd");
    const std::vector<double> afd = bestGoodput("afd");
    const size_t strictest = 0, strict = 1, loose = 4; // 20, 30 and 100 ms
    const auto lead = [&](size_t i) { return afd[i] / std::max({pd[i], aggregated[i], 1e-9}); };
    // At the strict objectives AFD sustains more goodput per GPU than either other deployment;
    // at 20 ms it is the only one that is feasible in practice.
    EXPECT_GT(afd[strict], 1.2 * pd[strict]);
    EXPECT_GT(afd[strict], 2 * aggregated[strict]);
    EXPECT_GT(lead(strictest), 10);
    // At the loose one its lead over the best of the others is smaller than at 20 ms, and no
    // larger than at 30 ms (with the all-to-all over the NICs, aggregation stays behind P/D at
    // 100 ms, so the lead over P/D holds: docs/serving.md).
    std::printf("AFD's lead: %.2fx at 20 ms, %.2fx at 30 ms, %.2fx at 100 ms\n", lead(strictest),
                lead(strict), lead(loose));
    EXPECT_LT(lead(loose), lead(strictest));
    EXPECT_LE(lead(loose), lead(strict) * (1 + 1e-9));
    EXPECT_LT(lead(loose), 1.5);
}
