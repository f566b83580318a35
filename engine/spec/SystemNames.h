#pragma once
// Name registries of the system-layer enums (exact ASTRA-sim spellings), shared by ASTRA-sim's
// system JSON, the project format and the settings schema.
#include "spec/SystemConfig.h"

#include <string>

namespace astrolabe {

const char* schedulingPolicyName(SchedulingPolicy policy);
const char* collectiveOptimizationName(CollectiveOptimization optimization);
const char* intraDimensionSchedulingName(IntraDimensionScheduling scheduling);
const char* interDimensionSchedulingName(InterDimensionScheduling scheduling);
/// Each throws astrolabe::Error listing the valid names when the name is unknown.
SchedulingPolicy parseSchedulingPolicy(const std::string& name);
CollectiveOptimization parseCollectiveOptimization(const std::string& name);
IntraDimensionScheduling parseIntraDimensionScheduling(const std::string& name);
InterDimensionScheduling parseInterDimensionScheduling(const std::string& name);

} // namespace astrolabe
