#pragma once
// The collectives and every name they go by, in one table: Chakra's comm_type numbers and enum
// names, the names of project files, reports and the window, the file-name form the generator
// writes, the spec JSON's keys, MSCCL-IR's `coll` attribute and the nccl-tests program that
// measures it. Every reader and writer of a collective's name reads it here.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace astrolabe {

/// Chakra's collective communication types; the values are Chakra's, so they convert by cast.
enum class CollectiveType : uint8_t {
    AllReduce = 0,
    Reduce = 1,
    AllGather = 2,
    Gather = 3,
    Scatter = 4,
    Broadcast = 5,
    AllToAll = 6,
    ReduceScatter = 7,
    ReduceScatterBlock = 8,
    Barrier = 9,
};

/// The four collectives the platform's algorithms implement (ASTRA-sim's system layer).
enum class CollectiveKind : uint8_t { AllReduce, ReduceScatter, AllGather, AllToAll };

struct CollectiveNames {
    CollectiveType type;
    const char* chakra; ///< Chakra's enum name: "ALL_REDUCE"
    const char* name;   ///< project files, reports, comparison rows, the window: "all-reduce"
    const char* label;  ///< at the start of a sentence or a row: "All-reduce"
    const char* snake;  ///< file names and the generator's option: "all_reduce"
    const char* camel;  ///< the spec JSON's keys: "allReduce"
    /// The nccl-tests program without "_perf": "all_reduce", "alltoall"; "" when it has none.
    const char* ncclTests;
    const char* msccl; ///< MSCCL-IR XML's `coll`: "allreduce"; "" when it has none
};

/// Every Chakra collective type, in Chakra's numbering: kCollectives[n].type is n.
inline constexpr std::array<CollectiveNames, 10> kCollectives{{
    {CollectiveType::AllReduce, "ALL_REDUCE", "all-reduce", "All-reduce", "all_reduce", "allReduce",
     "all_reduce", "allreduce"},
    {CollectiveType::Reduce, "REDUCE", "reduce", "Reduce", "reduce", "reduce", "reduce", "reduce"},
    {CollectiveType::AllGather, "ALL_GATHER", "all-gather", "All-gather", "all_gather", "allGather",
     "all_gather", "allgather"},
    {CollectiveType::Gather, "GATHER", "gather", "Gather", "gather", "gather", "gather", ""},
    {CollectiveType::Scatter, "SCATTER", "scatter", "Scatter", "scatter", "scatter", "scatter", ""},
    {CollectiveType::Broadcast, "BROADCAST", "broadcast", "Broadcast", "broadcast", "broadcast",
     "broadcast", "broadcast"},
    {CollectiveType::AllToAll, "ALL_TO_ALL", "all-to-all", "All-to-all", "all_to_all", "allToAll",
     "alltoall", "alltoall"},
    {CollectiveType::ReduceScatter, "REDUCE_SCATTER", "reduce-scatter", "Reduce-scatter",
     "reduce_scatter", "reduceScatter", "reduce_scatter", "reducescatter"},
    {CollectiveType::ReduceScatterBlock, "REDUCE_SCATTER_BLOCK", "reduce-scatter block",
     "Reduce-scatter block", "reduce_scatter_block", "reduceScatterBlock", "", ""},
    {CollectiveType::Barrier, "BARRIER", "barrier", "Barrier", "barrier", "barrier", "", ""},
}};

/// The kinds in CollectiveKind order, with the Chakra type each is.
inline constexpr std::array<CollectiveType, 4> kCollectiveKindTypes{
    CollectiveType::AllReduce, CollectiveType::ReduceScatter, CollectiveType::AllGather,
    CollectiveType::AllToAll};
inline constexpr std::array<CollectiveKind, 4> kCollectiveKinds{
    CollectiveKind::AllReduce, CollectiveKind::ReduceScatter, CollectiveKind::AllGather,
    CollectiveKind::AllToAll};

/// The names of a Chakra type; nullptr for a number Chakra does not define.
const CollectiveNames* findCollective(int chakraType);
const CollectiveNames& namesOf(CollectiveType type);
const CollectiveNames& namesOf(CollectiveKind kind);
constexpr CollectiveType collectiveTypeOf(CollectiveKind kind) {
    return kCollectiveKindTypes[static_cast<size_t>(kind)];
}
/// The kind a Chakra type is; none for the types the platform's algorithms do not implement.
std::optional<CollectiveKind> collectiveKindOf(CollectiveType type);

const char* collectiveTypeName(CollectiveType type); ///< Chakra's: "ALL_REDUCE", ...
const char* collectiveKindName(CollectiveKind kind); ///< "all-reduce", ...

/// The Chakra names of the collectives the executor runs (ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER,
/// ALL_TO_ALL), comma-separated, for messages.
std::string runCollectiveTypeNames();

/// The four kinds' names in CollectiveKind order, in one form (a member of CollectiveNames).
std::vector<std::string>
collectiveKindNames(const char* CollectiveNames::*form = &CollectiveNames::name);

} // namespace astrolabe
