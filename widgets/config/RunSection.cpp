// Run options (ASTRA-sim command-line flags) and the workload source.
#include "config/ConfigSection.h"
#include "config/Sections.h"
#include "config/SettingEditor.h"
#include "config/SpecValidation.h"
#include "core/Error.h"

#include <array>

namespace astrolabe::widgets {

namespace {
// Chakra CollectiveCommType values offered for microbenchmarks, in combo-box order.
constexpr std::array<int, 4> kCollectiveTypes{0, 7, 2, 6};
} // namespace

ConfigSection* createRunSection(QWidget* parent) {
    auto* s = new ConfigSection(QObject::tr("Network model and run options"), parent);
    s->addChoice(
        QObject::tr("Network model"),
        {QStringLiteral("options.backend"), QStringLiteral("network-backend")},
        QObject::tr("Congestion-unaware: every message gets the full link bandwidth (fast, the "
                    "usual first estimate). Congestion-aware: messages sharing a link wait for "
                    "each other, so contention shows up."),
        {QObject::tr("Analytical, congestion-unaware"),
         QObject::tr("Analytical, congestion-aware")},
        [](const SimulationSpec& sp) { return static_cast<int>(sp.options.backend); },
        [](SimulationSpec& sp, int v) { sp.options.backend = static_cast<NetworkBackend>(v); });
    s->addChoice(
        QObject::tr("Timing"), {QStringLiteral("options.timing")},
        QObject::tr("ASTRA-sim compatible: durations are cut to whole nanoseconds where ASTRA-sim "
                    "does, giving the same numbers as ASTRA-sim. Precise: rounded once to the "
                    "picosecond."),
        {QObject::tr("ASTRA-sim compatible"), QObject::tr("Precise (picoseconds)")},
        [](const SimulationSpec& sp) { return static_cast<int>(sp.options.timing); },
        [](SimulationSpec& sp, int v) { sp.options.timing = static_cast<TimingMode>(v); });
    addSettingEditors(s, settings::systemGroup(), settings::Editor::Run);
    s->addCheck(
        QObject::tr("Data dependencies only"), {QStringLiteral("options.data-deps-only")},
        QObject::tr("Follow only the data dependencies of the trace and ignore control "
                    "dependencies (the behaviour of older ASTRA-sim trace feeders)."),
        [](const SimulationSpec& sp) { return sp.options.dataDepsOnly; },
        [](SimulationSpec& sp, bool v) { sp.options.dataDepsOnly = v; });
    s->addCheck(
        QObject::tr("Record timeline"), {QStringLiteral("options.record-timeline")},
        QObject::tr("Keep what every NPU did and when, for the Timeline and Utilization views. "
                    "Turn off for very large runs when only the totals matter."),
        [](const SimulationSpec& sp) { return sp.options.recordTimeline; },
        [](SimulationSpec& sp, bool v) { sp.options.recordTimeline = v; });
    s->addCheck(
        QObject::tr("Record link busy intervals"),
        {QStringLiteral("options.record-link-intervals")},
        QObject::tr("Also keep when each link was busy (more memory; needed for per-link "
                    "detail)."),
        [](const SimulationSpec& sp) { return sp.options.recordLinkIntervals; },
        [](SimulationSpec& sp, bool v) { sp.options.recordLinkIntervals = v; });
    return s;
}

ConfigSection* createWorkloadSection(QWidget* parent) {
    auto* s = new ConfigSection(QObject::tr("Workload"), parent);
    s->addChoice(
        QObject::tr("Workload"), {QStringLiteral("workload.kind")},
        QObject::tr("A single collective of a given size on every NPU (a microbenchmark), or a "
                    "Chakra execution trace per NPU recorded from a real training job."),
        {QObject::tr("Chakra execution traces"), QObject::tr("Collective microbenchmark")},
        [](const SimulationSpec& sp) { return static_cast<int>(sp.workload.kind); },
        [](SimulationSpec& sp, int v) { sp.workload.kind = static_cast<WorkloadSource::Kind>(v); });
    const auto isMicro = [](const SimulationSpec& sp) {
        return sp.workload.kind == WorkloadSource::Kind::Microbenchmark;
    };
    s->addChoice(
        QObject::tr("Collective"), {QStringLiteral("workload.microbenchmark.collective")},
        QObject::tr("all-reduce: every NPU ends with the sum of all buffers. reduce-scatter: each "
                    "ends with one slice of the sum. all-gather: each ends with everyone's "
                    "buffer. all-to-all: each sends a different slice to every other NPU."),
        {QStringLiteral("all-reduce"), QStringLiteral("reduce-scatter"),
         QStringLiteral("all-gather"), QStringLiteral("all-to-all")},
        [](const SimulationSpec& sp) {
            for (size_t i = 0; i < kCollectiveTypes.size(); ++i)
                if (kCollectiveTypes[i] == sp.workload.microbenchmark.collective)
                    return static_cast<int>(i);
            return 0;
        },
        [](SimulationSpec& sp, int v) {
            sp.workload.microbenchmark.collective = kCollectiveTypes.at(static_cast<size_t>(v));
        });
    s->enableWhen(isMicro);
    s->addQuantity(
        QObject::tr("Size"), {QStringLiteral("workload.microbenchmark.size")},
        QObject::tr("Bytes per NPU. For all-gather this is each NPU's input piece; the result is "
                    "that many times the number of NPUs."),
        QuantityEdit::Kind::Size,
        [](const SimulationSpec& sp) {
            return static_cast<double>(sp.workload.microbenchmark.sizeBytes);
        },
        [](SimulationSpec& sp, double v) {
            sp.workload.microbenchmark.sizeBytes = static_cast<uint64_t>(v);
        },
        [](double v) { return v < 1 ? QObject::tr("at least 1 byte") : QString(); });
    s->enableWhen(isMicro);
    s->addText(
        QObject::tr("Trace prefix"),
        {QStringLiteral("workload.trace"), QStringLiteral("workload-configuration")},
        QObject::tr("Path prefix of the Chakra traces: NPU i reads <prefix>.i.et."),
        [](const SimulationSpec& sp) { return QString::fromStdString(sp.workload.tracePrefix); },
        [](SimulationSpec& sp, const QString& t) { sp.workload.tracePrefix = t.toStdString(); });
    s->enableWhen([isMicro](const SimulationSpec& sp) { return !isMicro(sp); });
    // Flagged before a run: a trace set made for another NPU count (one directory read).
    s->checkWhen([](const SimulationSpec& sp) {
        const TraceCountProblem p = traceCountProblem(sp);
        return ConfigSection::SpecProblem{QString::fromStdString(p.message), p.blocking};
    });
    return s;
}

} // namespace astrolabe::widgets
