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

struct Best {
    double strict = 0, loose = 0;
};

Best bestGoodput(const std::string& deployment) {
    SimulationSpec spec = loadProject(std::string(test_paths::sourceDir()) +
                                      "/projects/serving/deepseek-v3-" + deployment + ".yaml");
    spec.serving.durationNs = 20e9;
    Best best;
    for (double rate : {100.0, 200.0, 300.0}) {
        spec.serving.rate = rate;
        const ServingResult r = runServing(spec);
        best.strict = std::max(best.strict, goodputPerGpu(r, 3.0, 0.030));
        best.loose = std::max(best.loose, goodputPerGpu(r, 3.0, 0.100));
    }
    std::printf("%-10s goodput per GPU: strict %.4f, loose %.4f requests/s\n", deployment.c_str(),
                best.strict, best.loose);
    return best;
}

} // namespace

TEST(AfdDirection, AfdLeadsAtAStrictTpotAndTheLeadShrinksWhenItIsLoose) {
    const Best aggregated = bestGoodput("aggregated");
    const Best pd = bestGoodput("pd");
    const Best afd = bestGoodput("afd");
    EXPECT_GT(afd.strict, 2 * pd.strict);
    EXPECT_GT(afd.strict, 2 * aggregated.strict);
    const double strictLead = afd.strict / std::max({pd.strict, aggregated.strict, 1e-9});
    const double looseLead = afd.loose / std::max(pd.loose, aggregated.loose);
    EXPECT_LT(looseLead, strictLead);
    EXPECT_LT(looseLead, 1.5);
}
