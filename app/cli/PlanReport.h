#pragma once
// Pieces of the planner's report (optimize parallelism): times, the notes on twin rank orders
// and on groups the congestion-unaware model folds, and a candidate as JSON.

#include "plan/PlanEstimate.h"
#include "plan/Planner.h"
#include "spec/SimulationSpec.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace astrolabe::cli {

/// "1.234 s" from a second up, "12.34 ms" below.
std::string reportSeconds(double s);

/// What the congestion-unaware model, and so the estimate, folds onto one dimension
/// (PlanEstimate.h, FoldedGroup), and what to do about it on `backend`; empty when nothing is.
std::string foldedNote(const std::vector<plan::FoldedGroup>& folded, NetworkBackend backend);

/// "rank 17 [tp,dp,pp] also stands for dp,tp,pp": the first of the `shown` rows with twins.
std::string twinPlacementsExample(const plan::PlanResult& result, size_t shown);

/// The candidate's configuration, estimate terms, memory and MFU.
nlohmann::json candidateJson(const plan::RankedCandidate& r, const plan::PlanResult& result);

} // namespace astrolabe::cli
