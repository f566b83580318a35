#include "record/RunResult.h"

namespace astrolabe {

const char* activityKindName(ActivityKind kind) {
    switch (kind) {
    case ActivityKind::Compute:
        return "compute";
    case ActivityKind::Communication:
        return "communication";
    case ActivityKind::Memory:
        return "memory";
    case ActivityKind::Cpu:
        return "cpu";
    case ActivityKind::Other:
        return "other";
    }
    return "other";
}

} // namespace astrolabe
