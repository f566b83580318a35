// Run options (ASTRA-sim command-line flags) and the workload source.
#include "config/ConfigSection.h"
#include "config/Sections.h"
#include "config/SettingEditor.h"
#include "core/Collectives.h"
#include "core/Error.h"
#include "serving/ServingRun.h"
#include "spec/SpecValidation.h"

#include <array>

namespace astrolabe::widgets {

namespace {

/// The Chakra number of the collective in combo-box row `row` (CollectiveKind order).
int collectiveOfRow(size_t row) {
    return static_cast<int>(collectiveTypeOf(kCollectiveKinds.at(row)));
}

QStringList collectiveRows() {
    QStringList rows;
    for (CollectiveKind kind : kCollectiveKinds)
        rows << QString::fromLatin1(collectiveKindName(kind));
    return rows;
}

} // namespace

ConfigSection* createRunSection(QWidget* parent) {
    auto* s = new ConfigSection(QObject::tr("Network model and run options"), parent);
    // Built from the settings schema: the run group, with the system group's command-line flags
    // after the network model and timing.
    const settings::Group& run = settings::runGroup();
    addSettingEditor(s, settings::find(run, "run.backend"));
    addSettingEditor(s, settings::find(run, "run.timing"));
    addSettingEditors(s, settings::systemGroup(), SettingPage::Run);
    for (const char* path :
         {"run.dependencies", "run.record-timeline", "run.record-link-intervals"})
        addSettingEditor(s, settings::find(run, path));
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
    // A serving project keeps the empty microbenchmark (0 bytes) as its mark: its requests are
    // its workload, and the fields below are not used.
    s->checkWhen([](const SimulationSpec& sp) {
        if (!serving::isServingProject(sp))
            return ConfigSection::SpecProblem{};
        return ConfigSection::SpecProblem{
            QObject::tr("Not used: this project serves LLM requests (its serving: section, on "
                        "the Serving tab). A trace set or a collective size makes it a training "
                        "project."),
            false};
    });
    const auto isMicro = [](const SimulationSpec& sp) {
        return sp.workload.kind == WorkloadSource::Kind::Microbenchmark &&
               !serving::isServingProject(sp);
    };
    s->addChoice(
        QObject::tr("Collective"), {QStringLiteral("workload.microbenchmark.collective")},
        QObject::tr("all-reduce: every NPU ends with the sum of all buffers. reduce-scatter: each "
                    "ends with one slice of the sum. all-gather: each ends with everyone's "
                    "buffer. all-to-all: each sends a different slice to every other NPU."),
        collectiveRows(),
        [](const SimulationSpec& sp) {
            for (size_t i = 0; i < kCollectiveKinds.size(); ++i)
                if (collectiveOfRow(i) == sp.workload.microbenchmark.collective)
                    return static_cast<int>(i);
            return 0;
        },
        [](SimulationSpec& sp, int v) {
            sp.workload.microbenchmark.collective = collectiveOfRow(static_cast<size_t>(v));
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
    s->enableWhen([](const SimulationSpec& sp) {
        return sp.workload.kind == WorkloadSource::Kind::ChakraTrace;
    });
    // Flagged before a run: a trace set made for another NPU count (one directory read).
    s->checkWhen([](const SimulationSpec& sp) {
        const TraceCountProblem p = traceCountProblem(sp);
        return ConfigSection::SpecProblem{QString::fromStdString(p.message), p.blocking};
    });
    return s;
}

} // namespace astrolabe::widgets
