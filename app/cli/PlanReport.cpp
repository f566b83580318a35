#include "cli/PlanReport.h"

#include "core/Units.h"
#include "generate/LayerProgram.h"

#include <algorithm>

namespace astrolabe::cli {

using namespace plan;

std::string reportSeconds(double s) {
    return s >= 1 ? units::formatFixed(s, 3) + " s" : units::formatFixed(s * 1e3, 2) + " ms";
}

std::string foldedNote(const std::vector<FoldedGroup>& folded, NetworkBackend backend) {
    if (folded.empty())
        return {};
    std::string groups;
    for (size_t i = 0; i < folded.size(); ++i) {
        const FoldedGroup& f = folded[i];
        groups += std::string(i == 0                   ? ""
                              : i + 1 == folded.size() ? " and "
                                                       : ", ") +
                  generate::groupKindName(f.kind) + " (" + std::to_string(f.members) +
                  " GPUs) spans dimensions " + std::to_string(f.timedOn) + "-" +
                  std::to_string(f.reaches) + " and is timed on dimension " +
                  std::to_string(f.timedOn) + " alone";
    }
    const std::string note =
        "note: the estimate times each group's ring on the dimension where its members are "
        "nearest,\n  as the congestion-unaware network model (ASTRA-sim's analytical one) does: "
        "here " +
        groups + ".\n  ";
    if (backend == NetworkBackend::CongestionUnaware)
        return note + "The simulations use that model too; --backend congestion-aware sends the "
                      "messages over every dimension\n  they cross (docs/planner.md).\n";
    return note + "The simulations here send the messages over every dimension they cross: rank "
                  "by the simulated times.\n";
}

std::string twinPlacementsExample(const PlanResult& result, size_t shown) {
    for (size_t i = 0; i < std::min(shown, result.ranked.size()); ++i)
        if (result.ranked[i].twinPlacements)
            return "rank " + std::to_string(i + 1) + " [" +
                   placementNames()[result.ranked[i].candidate.placement] + "] also stands for " +
                   twinPlacementsText(result.ranked[i]);
    return {};
}

nlohmann::json candidateJson(const RankedCandidate& r, const PlanResult& result) {
    const Candidate& c = r.candidate;
    return {{"label", candidateLabel(c)},
            {"tp", c.tp},
            {"pp", c.pp},
            {"cp", c.cp},
            {"dp", c.dp},
            {"ep", c.ep},
            {"virtual_stages", c.virtualStages},
            {"micro_batch", c.microBatch},
            {"zero", int(c.zero)},
            {"sequence_parallel", c.sequenceParallel},
            {"recompute", c.recompute},
            {"selective_recompute", c.selectiveRecompute},
            {"placement", placementNames()[c.placement]},
            {"twin_placements", twinPlacementNames(r)},
            {"estimate_seconds", r.seconds()},
            {"estimate_terms",
             {{"compute", r.estimate.compute},
              {"communication", r.estimate.communication},
              {"bubble", r.estimate.bubble},
              {"tail", r.estimate.tail}}},
            {"memory_bytes", r.memoryBytes},
            {"mfu", result.mfu(r.seconds())}};
}

} // namespace astrolabe::cli
