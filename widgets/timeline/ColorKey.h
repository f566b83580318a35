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
    PhaseBase = 32,     ///< + (dimension + 1) * 4 + phase % 4, dimension -1 .. 6
    PhaseLast = PhaseBase + 8 * 4 - 1,
    Critical = 250,
    SearchMatch = 251,
};

inline uint8_t forCollective(CollectiveType type) {
    return static_cast<uint8_t>(CollectiveBase + static_cast<uint8_t>(type));
}

inline uint8_t forPhase(int dimension, int phase) {
    const int dim = dimension < -1 ? -1 : dimension > 6 ? 6 : dimension;
    return static_cast<uint8_t>(PhaseBase + (dim + 1) * 4 + (phase & 3));
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
