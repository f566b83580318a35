#include "sweep/ServingSweep.h"

#include "core/Error.h"
#include "serving/RateSearch.h"
#include "serving/ServingCodec.h"
#include "serving/ServingRun.h"

#include <algorithm>
#include <cstdio>

namespace astrolabe {
namespace {

void throwIfCancelled(const CancelToken* cancel) {
    if (cancel && cancel->cancelled())
        throw Error(ErrorKind::Cancelled, "the sweep was cancelled");
}

} // namespace

ServingPointRun runServingPoint(const SweepServing& options, SimulationSpec spec,
                                const CancelToken* cancel) {
    ServingPointRun out;
    std::string searched;
    if (options.rateSearch > 0) {
        serving::RateSearchOptions search;
        search.attainment = options.rateSearch;
        const serving::RateSearchResult found = serving::searchRate(
            spec, search, [cancel](const serving::RateProbe&) { throwIfCancelled(cancel); });
        out.simulations = found.probes.size();
        double rate = found.rate;
        if (!(rate > 0)) // none met the target: the lowest rate tried shows how far off it is
            for (const serving::RateProbe& p : found.probes)
                rate = rate > 0 ? std::min(rate, p.rate) : p.rate;
        spec.serving.rate = rate;
        char line[200];
        std::snprintf(line, sizeof line,
                      "rate search %.4g requests/s: the highest rate at which %.4g%% of requests "
                      "meet both SLOs (%zu runs%s)",
                      found.rate, options.rateSearch * 100, found.probes.size(),
                      found.rate > 0 ? "" : "; none met it, run at the lowest rate tried");
        searched = line;
    }
    throwIfCancelled(cancel);
    const serving::ServingResult result = serving::runServing(spec);
    ++out.simulations;
    out.result = serving::servingRunResult(spec, result);
    if (!searched.empty())
        out.result.reportLines.push_back("[serving] " + searched);
    out.summary = result.summary;
    out.rate = spec.serving.rate;
    return out;
}

double servingObjectiveValue(const std::string& objective, const serving::ServingSummary& s) {
    if (objective == "output-tokens-per-gpu")
        return s.outputTokensPerGpuSecond;
    return s.goodputPerGpu;
}

std::optional<serving::ServingSummary> storedServingSummary(const ProjectDatabase& db,
                                                            int64_t runId) {
    const std::optional<std::string> bytes = db.loadAttachment(runId, serving::kServingAttachment);
    if (!bytes)
        return std::nullopt;
    return serving::decodeServingResult(*bytes).summary;
}

} // namespace astrolabe
