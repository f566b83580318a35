#include "gui/WorkloadController.h"

#include "generate/WorkloadGenerator.h"
#include "generator/ModelBuilderPanel.h"
#include "gui/Counted.h"
#include "gui/ProjectController.h"
#include "gui/ProjectDocument.h"
#include "gui/RunSession.h"
#include "gui/SnapshotCommand.h"

#include <QUndoStack>

namespace astrolabe::gui {

namespace {
constexpr int kGeneratorEditId = 0x6e6e01;  // QUndoCommand::id of model builder steps
constexpr int kGeneratorApplyId = 0x6e6e02; // a whole spec set at once: never merges
} // namespace

WorkloadController::WorkloadController(widgets::ModelBuilderPanel* panel,
                                       ProjectController* project, RunSession* runs,
                                       QObject* parent)
    : QObject(parent)
    , m_panel(panel)
    , m_project(project)
    , m_runs(runs) {
    m_panel->setGenerateText(tr("Generate and Run"),
                             tr("Generate one training iteration in memory and simulate it on "
                                "the project's platform (the parallelism is fitted to its NPUs "
                                "when the project opens or the count changes)"));
    ProjectDocument* document = m_project->document();
    m_shown = m_panel->spec();
    connect(m_panel, &widgets::ModelBuilderPanel::fieldEdited, this,
            [this, document](const QString& field) {
                if (m_followingProject)
                    return; // the project's accelerator, taken as the fit is: not an edit
                const generate::GeneratorSpec after = m_panel->spec();
                const QString name = field.section(QStringLiteral(" ("), 0, 0);
                auto show = [this](const generate::GeneratorSpec& spec) {
                    m_shown = spec;
                    m_panel->setSpec(spec);
                };
                document->undoStack()->push(new SnapshotCommand<generate::GeneratorSpec>(
                    kGeneratorEditId, field, tr("Change %1 in the model builder").arg(name),
                    m_shown, after, std::move(show)));
                m_shown = after;
            });
    // The builder follows the project: a new platform size (a project opened, a topology edit,
    // its undo) refits tp x pp x dp, and a new `platform.accelerator` becomes the builder's
    // accelerator. Neither is an edit of its own; later edits' undo steps start from the
    // followed spec. Only a change follows: an unrelated project edit keeps the user's choice.
    connect(document, &ProjectDocument::specChanged, this, [this, document] {
        m_panel->setPlatformNpus(document->spec().platform.npuCount());
        followAccelerator(document->spec().platform.accelerator);
        m_shown = m_panel->spec();
    });
    connect(m_panel, &widgets::ModelBuilderPanel::generateRequested, this,
            [this](const generate::GeneratorSpec& spec) { startGeneratedRun(spec); });
}

void WorkloadController::followAccelerator(const std::string& name) {
    if (name == m_platformAccelerator)
        return;
    m_platformAccelerator = name;
    if (name.empty())
        return; // a platform that names no accelerator leaves the builder's
    m_followingProject = true;
    m_panel->setAccelerator(QString::fromStdString(name));
    m_followingProject = false;
}

void WorkloadController::applySpec(const generate::GeneratorSpec& spec,
                                   const QString& description) {
    auto show = [this](const generate::GeneratorSpec& shown) {
        m_shown = shown;
        m_panel->setSpec(shown);
    };
    const generate::GeneratorSpec before = m_panel->spec(); // as shown, whoever set it
    show(spec);
    m_project->document()->undoStack()->push(new SnapshotCommand<generate::GeneratorSpec>(
        kGeneratorApplyId, {}, description, before, m_panel->spec(), std::move(show)));
}

int WorkloadController::startGeneratedRun(const generate::GeneratorSpec& generator) {
    if (!m_project->hasProject()) {
        emit errorOccurred(tr("Cannot Run"),
                           tr("Open or create a project first: the generated workload runs on "
                              "the project's platform."),
                           {});
        return 0;
    }
    const ProjectDocument* document = m_project->document();
    const int64_t needed = generator.parallel.npus();
    const int available = document->spec().platform.npuCount();
    if (needed != available) {
        emit errorOccurred(
            tr("Cannot Run"),
            tr("The generated workload needs %1 (TP %2 x PP %3 x DP %4) but the project's "
               "platform has %5. Change the parallelism in the Workload panel or the platform "
               "in the Topology tab so that they match.")
                .arg(counted(needed, tr("NPU"), tr("NPUs")))
                .arg(generator.parallel.tp)
                .arg(generator.parallel.pp)
                .arg(generator.parallel.dp)
                .arg(counted(available, tr("NPU"), tr("NPUs"))),
            {});
        return 0;
    }
    SimulationSpec spec = document->spec();
    const QString model = generator.model.name.empty()
                              ? tr("generated model")
                              : QString::fromStdString(generator.model.name);
    // Named after the model actually generated (the panel says "custom (from GPT-2 124M)" once
    // a preset's architecture was edited) and its split: "GPT-2 124M tp1·pp1·dp8 on demo #3".
    const generate::ParallelSpec& p = generator.parallel;
    QString split = QStringLiteral("tp%1\u00b7pp%2\u00b7dp%3").arg(p.tp).arg(p.pp).arg(p.dp);
    if (p.ep > 1)
        split += QStringLiteral("\u00b7ep%1").arg(p.ep);
    const QString project = document->displayName();
    spec.workload.kind = WorkloadSource::Kind::ChakraTrace;
    spec.workload.tracePrefix = "generated:" + model.toStdString();
    // Memory is tracked from tensor lists: the builder's "Tensor lists" asks for both, and a
    // project that tracks local memory gets the lists it needs (without them it would report
    // nothing in use).
    generate::GeneratorSpec run = generator;
    run.output.tensors = generator.output.tensors || spec.system.trackLocalMemory;
    spec.system.trackLocalMemory = run.output.tensors;
    // Generating is O(NPUs x nodes): it runs on the worker thread too, before the simulation.
    return m_runs->startNamed(
        std::move(spec),
        [&](int number) { return tr("%1 %2 on %3 #%4").arg(model, split, project).arg(number); },
        [run](SimulationSpec& s) {
            generate::GeneratedWorkload workload = generate::generateWorkload(run);
            s.commGroups = std::move(workload.groups);
            return std::move(workload.traces);
        });
}

} // namespace astrolabe::gui
