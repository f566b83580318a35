// Remote (disaggregated) memory fields (ASTRA-sim remote memory JSON, spec §6).
#include "config/ConfigSection.h"
#include "config/Sections.h"

#include <cmath>

namespace astrolabe::widgets {

namespace {
bool hasRemoteMemory(const SimulationSpec& sp) {
    return sp.memory.type != RemoteMemoryType::NoMemoryExpansion;
}
} // namespace

ConfigSection* createMemorySection(QWidget* parent) {
    auto* s = new ConfigSection(QObject::tr("Remote memory"), parent);
    s->addChoice(
        QObject::tr("Memory architecture"),
        {QStringLiteral("memory.type"), QStringLiteral("memory-type")},
        QObject::tr("Where memory load/store nodes of the workload go. None: the workload may "
                    "not use remote memory. Per node: NPUs of one node share one memory that "
                    "serves requests in arrival order. Per NPU: every NPU has its own. Pool: one "
                    "memory shared by all NPUs, one request at a time."),
        {QObject::tr("None"), QObject::tr("Per node"), QObject::tr("Per NPU"),
         QObject::tr("Shared pool")},
        [](const SimulationSpec& sp) { return static_cast<int>(sp.memory.type); },
        [](SimulationSpec& sp, int v) { sp.memory.type = static_cast<RemoteMemoryType>(v); });
    s->addQuantity(
        QObject::tr("Access latency"),
        {QStringLiteral("memory.latency"), QStringLiteral("remote-mem-latency")},
        QObject::tr("Fixed time added to every remote memory access, whatever its size."),
        QuantityEdit::Kind::Time,
        [](const SimulationSpec& sp) { return static_cast<double>(sp.memory.latencyNs) * 1e3; },
        [](SimulationSpec& sp, double ps) {
            sp.memory.latencyNs = static_cast<uint64_t>(std::llround(ps / 1e3));
        },
        [](double ps) {
            return std::fmod(ps, 1e3) != 0 ? QObject::tr("use whole nanoseconds") : QString();
        });
    s->enableWhen(hasRemoteMemory);
    s->addQuantity(
        QObject::tr("Bandwidth"),
        {QStringLiteral("memory.bandwidth"), QStringLiteral("remote-mem-bw")},
        QObject::tr("How fast one remote memory moves data: an access of x bytes takes latency + "
                    "x / bandwidth. ASTRA-sim stores it as whole bytes per nanosecond (= GB/s)."),
        QuantityEdit::Kind::Bandwidth,
        [](const SimulationSpec& sp) {
            return static_cast<double>(sp.memory.bandwidthBytesPerNs) * 1e9;
        },
        [](SimulationSpec& sp, double bps) {
            sp.memory.bandwidthBytesPerNs = static_cast<uint64_t>(std::llround(bps / 1e9));
        },
        [](double bps) {
            return std::fmod(bps, 1e9) != 0 || bps < 1e9
                       ? QObject::tr("use a whole number of GB/s (bytes per ns), at least 1")
                       : QString();
        });
    s->enableWhen(hasRemoteMemory);
    const auto perNode = [](const SimulationSpec& sp) {
        return sp.memory.type == RemoteMemoryType::PerNodeMemoryExpansion;
    };
    s->addInt(
        QObject::tr("Nodes"), {QStringLiteral("memory.nodes"), QStringLiteral("num-nodes")},
        QObject::tr("Per-node memory only: how many nodes (servers) the NPUs are grouped into."), 0,
        1 << 20, [](const SimulationSpec& sp) { return sp.memory.numNodes; },
        [](SimulationSpec& sp, int v) { sp.memory.numNodes = v; });
    s->enableWhen(perNode);
    s->addInt(
        QObject::tr("NPUs per node"),
        {QStringLiteral("memory.npus-per-node"), QStringLiteral("num-npus-per-node")},
        QObject::tr("Per-node memory only: NPU r belongs to node r / (NPUs per node)."), 0, 1 << 20,
        [](const SimulationSpec& sp) { return sp.memory.numNpusPerNode; },
        [](SimulationSpec& sp, int v) { sp.memory.numNpusPerNode = v; });
    s->enableWhen(perNode);
    return s;
}

} // namespace astrolabe::widgets
