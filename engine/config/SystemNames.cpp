// Name registries of the system-layer enums, shared by the ASTRA-sim JSON reader and the
// project format. Aliases (SCF, baseline, offlineGreedy, ...) read to the same value; the first
// name listed for a value is the one written back.
#include "config/AstraSystemConfig.h"
#include "core/Error.h"

#include <utility>

namespace astrolabe {
namespace {

template <typename Enum> using NameTable = std::vector<std::pair<std::string, Enum>>;

template <typename Enum> std::vector<std::string> namesOf(const NameTable<Enum>& table) {
    std::vector<std::string> names;
    for (const auto& [name, value] : table)
        names.push_back(name);
    return names;
}

template <typename Enum>
Enum parseName(const NameTable<Enum>& table, const std::string& name, const char* what) {
    for (const auto& [candidate, value] : table)
        if (candidate == name)
            return value;
    const std::vector<std::string> names = namesOf(table);
    const std::string guess = closestMatch(name, names);
    throw Error(ErrorKind::Validation,
                std::string("unknown ") + what + " \"" + name + "\"; expected " +
                    joinAlternatives(names),
                {}, guess.empty() ? std::string() : "did you mean \"" + guess + "\"?");
}

template <typename Enum> const char* nameOf(const NameTable<Enum>& table, Enum value) {
    for (const auto& [name, candidate] : table)
        if (candidate == value)
            return name.c_str();
    return "?";
}

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
        {"themisFlex", InterDimensionScheduling::OfflineGreedyFlex}};
    return table;
}

} // namespace

const std::vector<std::string>& schedulingPolicyNames() {
    static const std::vector<std::string> names = namesOf(policies());
    return names;
}
const std::vector<std::string>& collectiveOptimizationNames() {
    static const std::vector<std::string> names = namesOf(optimizations());
    return names;
}
const std::vector<std::string>& intraDimensionSchedulingNames() {
    static const std::vector<std::string> names = namesOf(intraTable());
    return names;
}
const std::vector<std::string>& interDimensionSchedulingNames() {
    static const std::vector<std::string> names = namesOf(interTable());
    return names;
}

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
