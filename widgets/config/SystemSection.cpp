// System layer fields (ASTRA-sim system JSON, spec §3 and §5).
#include "config/ConfigSection.h"
#include "config/Sections.h"
#include "core/Error.h"

#include <QStringList>
#include <cmath>

namespace astrolabe::widgets {

namespace {

QString algorithmsText(const std::vector<AlgorithmSpec>& list) {
    QStringList names;
    for (const AlgorithmSpec& a : list)
        names << QString::fromStdString(algorithmName(a));
    return names.join(QStringLiteral(", "));
}

// "ring, direct4" -> list; throws astrolabe::Error (with the valid names) for an unknown name.
std::vector<AlgorithmSpec> parseAlgorithms(const QString& text) {
    std::vector<AlgorithmSpec> out;
    for (const QString& part : text.split(u',', Qt::SkipEmptyParts)) {
        const QString name = part.trimmed();
        if (!name.isEmpty())
            out.push_back(parseAlgorithm(name.toStdString()));
    }
    return out;
}

const QString kAlgorithmTip = QObject::tr(
    "The algorithm used on each network dimension, first dimension first, separated by commas "
    "(e.g. \"ring, direct\"). ring sends around a ring, direct talks to every peer at once "
    "(directN limits it to N peers at a time), halvingDoubling pairs NPUs at doubling distances, "
    "doubleBinaryTree uses two trees (all-reduce only). A one* name (oneRing, oneDirect, "
    "oneHalvingDoubling) runs one flat collective over all NPUs from that dimension on. A "
    "shorter list than the number of dimensions leaves the remaining dimensions out.");

} // namespace

ConfigSection* createCollectivesSection(QWidget* parent) {
    auto* s = new ConfigSection(QObject::tr("Collective algorithms"), parent);
    struct Row {
        const char* label;
        const char* key;
        const char* astraKey;
        std::vector<AlgorithmSpec> SystemConfig::*list;
    };
    const Row rows[] = {
        {"All-reduce", "system.all-reduce", "all-reduce-implementation", &SystemConfig::allReduce},
        {"Reduce-scatter", "system.reduce-scatter", "reduce-scatter-implementation",
         &SystemConfig::reduceScatter},
        {"All-gather", "system.all-gather", "all-gather-implementation", &SystemConfig::allGather},
        {"All-to-all", "system.all-to-all", "all-to-all-implementation", &SystemConfig::allToAll},
    };
    for (const Row& r : rows) {
        auto list = r.list;
        s->addText(
            QObject::tr(r.label), {QString::fromLatin1(r.key), QString::fromLatin1(r.astraKey)},
            kAlgorithmTip,
            [list](const SimulationSpec& spec) { return algorithmsText(spec.system.*list); },
            [list](SimulationSpec& spec, const QString& t) {
                spec.system.*list = parseAlgorithms(t);
            });
    }
    s->addChoice(
        QObject::tr("All-reduce decomposition"),
        {QStringLiteral("system.collective-optimization"),
         QStringLiteral("collective-optimization")},
        QObject::tr("How an all-reduce spans several dimensions. baseline: a full all-reduce on "
                    "each dimension in turn. localBWAware: reduce-scatter on every dimension but "
                    "the last, all-reduce on the last, then all-gather back, so later dimensions "
                    "move less data."),
        {QStringLiteral("baseline"), QStringLiteral("localBWAware")},
        [](const SimulationSpec& sp) { return static_cast<int>(sp.system.collectiveOptimization); },
        [](SimulationSpec& sp, int v) {
            sp.system.collectiveOptimization = static_cast<CollectiveOptimization>(v);
        });
    return s;
}

ConfigSection* createSystemSection(QWidget* parent) {
    auto* s = new ConfigSection(QObject::tr("Chunks, scheduling and endpoints"), parent);
    s->addInt(
        QObject::tr("Chunks per collective"),
        {QStringLiteral("system.chunks"), QStringLiteral("preferred-dataset-splits")},
        QObject::tr("Each collective is cut into this many chunks that travel through the "
                    "network one after another, so one dimension can work on a chunk while "
                    "another dimension works on the next. Every chunk carries the same number of "
                    "bytes (at least one byte per NPU), so the simulated total can round up."),
        1, 1 << 20, [](const SimulationSpec& sp) { return sp.system.preferredDatasetSplits; },
        [](SimulationSpec& sp, int v) { sp.system.preferredDatasetSplits = v; });
    s->addInt(
        QObject::tr("Active chunks per dimension"),
        {QStringLiteral("system.active-chunks-per-dimension"),
         QStringLiteral("active-chunks-per-dimension")},
        QObject::tr("How many chunks may be in flight on one network dimension at the same time. "
                    "1 means a dimension finishes one chunk's step before starting the next; "
                    "higher values overlap chunks and keep links busier. With several queues per "
                    "dimension each queue gets an equal share (rounded up)."),
        1, 4096, [](const SimulationSpec& sp) { return sp.system.activeChunksPerDimension; },
        [](SimulationSpec& sp, int v) { sp.system.activeChunksPerDimension = v; });
    s->addChoice(
        QObject::tr("Scheduling policy"),
        {QStringLiteral("system.scheduling"), QStringLiteral("scheduling-policy")},
        QObject::tr("Which collective's chunks go first when several wait: LIFO favours the "
                    "newest collective, FIFO the oldest, EXPLICIT the priority written in the "
                    "workload trace."),
        {QStringLiteral("LIFO"), QStringLiteral("FIFO"), QStringLiteral("EXPLICIT")},
        [](const SimulationSpec& sp) { return static_cast<int>(sp.system.schedulingPolicy); },
        [](SimulationSpec& sp, int v) {
            sp.system.schedulingPolicy = static_cast<SchedulingPolicy>(v);
        });
    s->addChoice(
        QObject::tr("Order inside a dimension"),
        {QStringLiteral("system.intra-dimension-scheduling"),
         QStringLiteral("intra-dimension-scheduling")},
        QObject::tr("How chunks waiting for the same dimension are ordered. FIFO keeps arrival "
                    "order; RG avoids a reduce-scatter right after an all-gather; smallestFirst "
                    "serves the smallest chunk first; lessRemainingPhaseFirst the chunk closest to "
                    "done. (ASTRA-sim 2.x ignores this setting; Astrolabe honours it.)"),
        {QStringLiteral("FIFO"), QStringLiteral("RG"), QStringLiteral("smallestFirst"),
         QStringLiteral("lessRemainingPhaseFirst")},
        [](const SimulationSpec& sp) {
            return static_cast<int>(sp.system.intraDimensionScheduling);
        },
        [](SimulationSpec& sp, int v) {
            sp.system.intraDimensionScheduling = static_cast<IntraDimensionScheduling>(v);
        });
    s->addChoice(
        QObject::tr("Order of dimensions"),
        {QStringLiteral("system.inter-dimension-scheduling"),
         QStringLiteral("inter-dimension-scheduling")},
        QObject::tr("The order in which a chunk visits the dimensions. ascending: 0, 1, 2, ...; "
                    "roundRobin rotates the start per chunk; themis sends each chunk first to the "
                    "least loaded dimension so all dimensions stay busy (Themis, ISCA'22). "
                    "(ASTRA-sim 2.x ignores this setting; Astrolabe honours it.)"),
        {QStringLiteral("ascending"), QStringLiteral("roundRobin"), QStringLiteral("themis"),
         QStringLiteral("themisFlex")},
        [](const SimulationSpec& sp) {
            return static_cast<int>(sp.system.interDimensionScheduling);
        },
        [](SimulationSpec& sp, int v) {
            sp.system.interDimensionScheduling = static_cast<InterDimensionScheduling>(v);
        });
    s->addQuantity(
        QObject::tr("Endpoint delay"),
        {QStringLiteral("system.endpoint-delay"), QStringLiteral("endpoint-delay")},
        QObject::tr("The fixed time an NPU needs to hand a message between the network and its "
                    "memory: paid once when a collective step starts and again after every "
                    "message received, before the next one can be sent. It adds up quickly for "
                    "small messages. Multiplied by the injection scale."),
        QuantityEdit::Kind::Time,
        [](const SimulationSpec& sp) {
            return static_cast<double>(sp.system.endpointDelayNs) * 1e3;
        },
        [](SimulationSpec& sp, double ps) {
            sp.system.endpointDelayNs = std::llround(ps / 1e3);
            sp.system.endpointDelayFromFile = true; // set explicitly: scaled like a file value
        },
        [](double ps) {
            return std::fmod(ps, 1e3) != 0
                       ? QObject::tr("use whole nanoseconds (ASTRA-sim counts it in cycles)")
                       : QString();
        });
    s->addQuantity(
        QObject::tr("Local memory bandwidth"),
        {QStringLiteral("system.local-memory-bandwidth"), QStringLiteral("local-mem-bw")},
        QObject::tr("How fast an NPU reads and writes its own memory. A reduction of x bytes "
                    "costs three passes over the buffer (one write, two reads), so a slow memory "
                    "makes all-reduce and reduce-scatter slower. Also the memory roof of the "
                    "roofline model."),
        QuantityEdit::Kind::Bandwidth,
        [](const SimulationSpec& sp) { return sp.system.localMemBandwidthGBps * 1e9; },
        [](SimulationSpec& sp, double bps) { sp.system.localMemBandwidthGBps = bps / 1e9; });
    s->addDouble(
        QObject::tr("Peak compute"),
        {QStringLiteral("system.peak-performance"), QStringLiteral("peak-perf")},
        QObject::tr("The NPU's peak arithmetic rate, used by the roofline model to time compute "
                    "nodes from their operation count."),
        0, 1e6, 1, QStringLiteral("TFLOP/s"),
        [](const SimulationSpec& sp) { return sp.system.peakPerfTFlops; },
        [](SimulationSpec& sp, double v) { sp.system.peakPerfTFlops = v; });
    s->addCheck(
        QObject::tr("Roofline compute model"),
        {QStringLiteral("system.roofline"), QStringLiteral("roofline-enabled")},
        QObject::tr("On: a compute node takes max(operations / peak compute, bytes / local "
                    "memory bandwidth). Off: it takes the duration recorded in the trace."),
        [](const SimulationSpec& sp) { return sp.system.rooflineEnabled; },
        [](SimulationSpec& sp, bool v) { sp.system.rooflineEnabled = v; });
    return s;
}

} // namespace astrolabe::widgets
