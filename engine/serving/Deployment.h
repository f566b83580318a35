#pragma once
// A serving deployment built from a project's serving: section: its pools of replicas (one for
// aggregated serving; prefill and decode for P/D; prefill and attention-FFN-disaggregated
// decode for AFD), each with its step timing, scheduler limits and KV-cache capacity.

#include "serving/CommCost.h"
#include "serving/Replica.h"
#include "serving/ServingResult.h"
#include "serving/StepTiming.h"
#include "spec/SimulationSpec.h"

#include <memory>
#include <string>
#include <vector>

namespace astrolabe::serving {

struct Pool {
    PoolRole role = PoolRole::Aggregated;
    int replicas = 1;
    int gpusPerReplica = 1;
    /// GPUs holding one request's KV cache (its attention group): a P/D transfer runs over
    /// this many links at once.
    int kvHolders = 1;
    std::shared_ptr<const StepTiming> timing;
    SchedulerLimits limits;
    double weightBytesPerGpu = 0;
};

struct Deployment {
    std::vector<Pool> pools; ///< aggregated: one; pd, afd: prefill then decode
    bool disaggregated() const { return pools.size() > 1; }
    LinkFigures link;           ///< between replicas (P/D KV transfers)
    double kvBytesPerToken = 0; ///< one token of one request, every layer
    int gpus = 0;
    /// A lone request's decode step and prefill of `prompt` tokens (for the SLO warnings).
    double loneDecodeSeconds = 0;
    double lonePrefillSeconds = 0;
};

/// Throws astrolabe::Error (Validation) naming the serving.* key: unknown model, accelerator,
/// precision or deployment; weights that do not fit in HBM; splits that do not divide.
/// `typicalPrompt` sizes the lone-request figures.
Deployment buildDeployment(const SimulationSpec& spec, int typicalPrompt);

/// The valid deployment names: aggregated, pd, afd.
const std::vector<std::string>& deploymentNames();

} // namespace astrolabe::serving
