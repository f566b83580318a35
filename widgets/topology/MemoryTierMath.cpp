#include "topology/MemoryTierMath.h"

#include "config/SettingPresentation.h"
#include "schema/Setting.h"
#include "spec/SpecValidation.h"

#include <algorithm>

namespace astrolabe::widgets {

namespace {
constexpr uint64_t kDefaultBandwidthGBps = 100;
constexpr uint64_t kDefaultFabricGBps = 256;
constexpr int kDefaultNpusPerNode = 8;

int64_t ceilDiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}
} // namespace

bool hasMemoryTier(const RemoteMemoryConfig& memory) {
    return memory.type != RemoteMemoryType::NoMemoryExpansion;
}

int64_t memoryDeviceCount(const RemoteMemoryConfig& memory, int64_t npus) {
    switch (memory.type) {
    case RemoteMemoryType::NoMemoryExpansion:
        return 0;
    case RemoteMemoryType::PerNpuMemoryExpansion:
        return npus;
    case RemoteMemoryType::PerNodeMemoryExpansion:
        return std::max(memory.numNodes, 0);
    case RemoteMemoryType::MemoryPool:
        return 1;
    case RemoteMemoryType::Pooled:
        return std::max(memory.groups, 0);
    }
    return 0;
}

int64_t memoryDeviceOf(const RemoteMemoryConfig& memory, int64_t npus, int64_t npu) {
    if (npu < 0 || npu >= npus)
        return -1;
    switch (memory.type) {
    case RemoteMemoryType::NoMemoryExpansion:
        return -1;
    case RemoteMemoryType::PerNpuMemoryExpansion:
        return npu;
    case RemoteMemoryType::PerNodeMemoryExpansion: {
        if (memory.numNpusPerNode <= 0)
            return -1;
        const int64_t node = npu / memory.numNpusPerNode;
        return node < memory.numNodes ? node : -1;
    }
    case RemoteMemoryType::MemoryPool:
        return 0;
    case RemoteMemoryType::Pooled:
        return memory.groups > 0 ? npu % memory.groups : -1;
    }
    return -1;
}

double memoryBandwidthPerNpu(const RemoteMemoryConfig& memory, int64_t npus) {
    const double b = static_cast<double>(memory.bandwidthBytesPerNs) * 1e9;
    npus = std::max<int64_t>(npus, 1);
    switch (memory.type) {
    case RemoteMemoryType::NoMemoryExpansion:
        return 0;
    case RemoteMemoryType::PerNpuMemoryExpansion:
        return b;
    case RemoteMemoryType::PerNodeMemoryExpansion:
        return memory.numNpusPerNode > 0
                   ? b / static_cast<double>(std::min<int64_t>(memory.numNpusPerNode, npus))
                   : 0;
    case RemoteMemoryType::MemoryPool:
        return b / static_cast<double>(npus);
    case RemoteMemoryType::Pooled: {
        if (memory.groups <= 0)
            return 0;
        const double f = static_cast<double>(memory.fabricBytesPerNs) * 1e9;
        return std::min(f, b / static_cast<double>(ceilDiv(npus, memory.groups)));
    }
    }
    return 0;
}

std::string memoryTypeLabel(RemoteMemoryType type) {
    const settings::Setting& s = settings::find(settings::memoryGroup(), "memory.type");
    return choiceLabel(s, static_cast<size_t>(type));
}

RemoteMemoryConfig withMemoryDefaults(RemoteMemoryConfig m, int64_t npus) {
    npus = std::max<int64_t>(npus, 1);
    if (!hasMemoryTier(m))
        return m;
    if (m.bandwidthBytesPerNs == 0)
        m.bandwidthBytesPerNs = kDefaultBandwidthGBps;
    if (m.type == RemoteMemoryType::PerNodeMemoryExpansion) {
        if (m.numNpusPerNode <= 0)
            m.numNpusPerNode = static_cast<int>(std::min<int64_t>(kDefaultNpusPerNode, npus));
        if (m.numNodes <= 0)
            m.numNodes = static_cast<int>(ceilDiv(npus, m.numNpusPerNode));
    }
    if (m.type == RemoteMemoryType::Pooled) {
        if (m.groups <= 0)
            m.groups = static_cast<int>(std::min<int64_t>(npus, 1 << 20));
        if (m.fabricBytesPerNs == 0)
            m.fabricBytesPerNs = kDefaultFabricGBps;
    }
    return m;
}

// The messages are the project reader's own (config/SpecValidation.h), key path first.
std::vector<std::string> memoryProblems(const RemoteMemoryConfig& m, const PlatformSpec& platform) {
    std::vector<std::string> out;
    if (!hasMemoryTier(m))
        return out;
    for (const Error& gap : memoryTierGaps(m))
        out.push_back(gap.where().keyPath + ": " + gap.message() +
                      (gap.hint().empty() ? "" : " (" + gap.hint() + ")"));
    // What the tier must agree on with the platform: the reader's own check, word for word.
    SimulationSpec spec;
    spec.platform = platform;
    spec.memory = m;
    for (const Error& e : crossCheckSpec(spec, SpecKeyStyle::Project, TraceFileCheck::Skip))
        if (e.where().keyPath.rfind("memory.", 0) == 0)
            out.push_back(e.where().keyPath + ": " + e.message());
    return out;
}

} // namespace astrolabe::widgets
