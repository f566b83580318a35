#pragma once
// Colour keys: one byte per drawn item, computed once per source so painting never looks up
// collective types. TimelinePalette turns a key into a colour.

#include "record/RunResult.h"

#include <cstdint>

namespace astrolabe::widgets::colorkey {

enum : uint8_t {
    Compute = 0,
    Memory = 1,
    Cpu = 2,
    Other = 3,
    SendRecv = 4,
    CommUnknown = 5,
    CollectiveBase = 8, ///< + CollectiveType (0..9)
    PhaseBase = 32,     ///< + CollectiveKind * 2 + phase parity
    PhaseLast = PhaseBase + 4 * 2 - 1,
    Critical = 250,
    SearchMatch = 251,
};

inline uint8_t forCollective(CollectiveType type) {
    return static_cast<uint8_t>(CollectiveBase + static_cast<uint8_t>(type));
}

/// A phase is drawn in the colour of what it does (the reduce-scatter phase of an all-reduce in
/// the reduce-scatter colour), so that a colour means one thing on every lane. Consecutive phases
/// alternate in parity only: a different key keeps them from merging into one run, and the
/// renderer's one-pixel gap between runs shows where one ends and the next begins.
inline uint8_t forPhase(uint8_t phaseKind, int phase) {
    const int kind = phaseKind > 3 ? 0 : phaseKind;
    return static_cast<uint8_t>(PhaseBase + kind * 2 + (phase & 1));
}

/// The collective colour key a phase key is drawn with (CollectiveKind -> CollectiveType).
inline uint8_t collectiveOfPhase(uint8_t key) {
    static constexpr CollectiveType types[] = {CollectiveType::AllReduce,
                                               CollectiveType::ReduceScatter,
                                               CollectiveType::AllGather, CollectiveType::AllToAll};
    return forCollective(types[((key - PhaseBase) / 2) & 3]);
}

inline uint8_t forActivity(const ActivityInterval& a, const CollectiveSpan* collective) {
    switch (a.kind) {
    case ActivityKind::Compute:
        return Compute;
    case ActivityKind::Memory:
        return Memory;
    case ActivityKind::Cpu:
        return Cpu;
    case ActivityKind::Other:
        return Other;
    case ActivityKind::Communication:
        if (a.nodeType == NodeType::CommSend || a.nodeType == NodeType::CommRecv)
            return SendRecv;
        return collective ? forCollective(collective->type) : uint8_t{CommUnknown};
    }
    return Other;
}

} // namespace astrolabe::widgets::colorkey
