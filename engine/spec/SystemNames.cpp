// Name registries of the system-layer enums, shared by the ASTRA-sim JSON reader and the
// project format. Aliases (SCF, baseline, offlineGreedy, ...) read to the same value; the first
// name listed for a value is the one written back.
#include "spec/SystemNames.h"

#include "spec/NameTable.h"

#include <utility>

namespace astrolabe {
namespace {

using config::nameOf;
using config::NameTable;
using config::parseName;

const NameTable<SchedulingPolicy>& policies() {
    static const NameTable<SchedulingPolicy> table{{"LIFO", SchedulingPolicy::LIFO},
                                                   {"FIFO", SchedulingPolicy::FIFO},
                                                   {"EXPLICIT", SchedulingPolicy::Explicit}};
    return table;
}

const NameTable<CollectiveOptimization>& optimizations() {
    static const NameTable<CollectiveOptimization> table{
        {"baseline", CollectiveOptimization::Baseline},
        {"localBWAware", CollectiveOptimization::LocalBWAware}};
    return table;
}

const NameTable<IntraDimensionScheduling>& intraTable() {
    static const NameTable<IntraDimensionScheduling> table{
        {"FIFO", IntraDimensionScheduling::FIFO},
        {"RG", IntraDimensionScheduling::RG},
        {"smallestFirst", IntraDimensionScheduling::SmallestFirst},
        {"SCF", IntraDimensionScheduling::SmallestFirst},
        {"lessRemainingPhaseFirst", IntraDimensionScheduling::LessRemainingPhaseFirst}};
    return table;
}

const NameTable<InterDimensionScheduling>& interTable() {
    static const NameTable<InterDimensionScheduling> table{
        {"ascending", InterDimensionScheduling::Ascending},
        {"baseline", InterDimensionScheduling::Ascending},
        {"roundRobin", InterDimensionScheduling::RoundRobin},
        {"themis", InterDimensionScheduling::Themis},
        {"offlineGreedy", InterDimensionScheduling::OfflineGreedy},
        {"offlineGreedyFlex", InterDimensionScheduling::OfflineGreedyFlex},
        {"themisFlex", InterDimensionScheduling::OfflineGreedyFlex},
        {"themisGreedy", InterDimensionScheduling::ThemisGreedy}};
    return table;
}

} // namespace

const char* schedulingPolicyName(SchedulingPolicy policy) {
    return nameOf(policies(), policy);
}
const char* collectiveOptimizationName(CollectiveOptimization optimization) {
    return nameOf(optimizations(), optimization);
}
const char* intraDimensionSchedulingName(IntraDimensionScheduling scheduling) {
    return nameOf(intraTable(), scheduling);
}
const char* interDimensionSchedulingName(InterDimensionScheduling scheduling) {
    return nameOf(interTable(), scheduling);
}

SchedulingPolicy parseSchedulingPolicy(const std::string& name) {
    return parseName(policies(), name, "scheduling policy");
}
CollectiveOptimization parseCollectiveOptimization(const std::string& name) {
    return parseName(optimizations(), name, "collective optimization");
}
IntraDimensionScheduling parseIntraDimensionScheduling(const std::string& name) {
    return parseName(intraTable(), name, "intra-dimension scheduling");
}
InterDimensionScheduling parseInterDimensionScheduling(const std::string& name) {
    return parseName(interTable(), name, "inter-dimension scheduling");
}

} // namespace astrolabe
