// MainWindow: the Workload tab (model builder) and runs of generated training iterations.
#include "common/LogModel.h"
#include "generate/WorkloadGenerator.h"
#include "generator/ModelBuilderPanel.h"
#include "gui/Counted.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "gui/SnapshotCommand.h"

#include <QScrollArea>
#include <QTabWidget>
#include <QUndoStack>

namespace astrolabe::gui {

namespace {
constexpr int kGeneratorEditId = 0x6e6e01; // QUndoCommand::id of model builder steps
} // namespace

void MainWindow::createWorkloadTab() {
    // A tab rather than a dock: the form and its live figures need the full width.
    auto* scroll = new QScrollArea(m_tabs);
    scroll->setObjectName(QStringLiteral("workloadTab"));
    m_modelBuilder = new widgets::ModelBuilderPanel(scroll);
    m_modelBuilder->setGenerateText(tr("Generate and Run"),
                                    tr("Generate one training iteration in memory and simulate "
                                       "it on the project's platform (the parallelism is fitted "
                                       "to its NPUs when the project opens or the count "
                                       "changes)"));
    scroll->setWidget(m_modelBuilder);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_tabs->insertTab(WorkloadTab, scroll, tr("Workload"));
    m_tabs->setTabToolTip(WorkloadTab, tr("Generate a training iteration of a transformer model "
                                          "and run it on the project's platform"));
    // Model builder edits are steps of the project's one history, named after the field; a
    // field typed digit by digit is one step.
    m_generatorShown = m_modelBuilder->spec();
    connect(m_modelBuilder, &widgets::ModelBuilderPanel::fieldEdited, this,
            [this](const QString& field) {
                const generate::GeneratorSpec after = m_modelBuilder->spec();
                const QString name = field.section(QStringLiteral(" ("), 0, 0);
                auto show = [this](const generate::GeneratorSpec& spec) {
                    m_generatorShown = spec;
                    m_modelBuilder->setSpec(spec);
                };
                m_document->undoStack()->push(new SnapshotCommand<generate::GeneratorSpec>(
                    kGeneratorEditId, field, tr("Change %1 in the model builder").arg(name),
                    m_generatorShown, after, std::move(show)));
                m_generatorShown = after;
            });
    // The builder follows the project: a new platform size (a project opened, a topology edit,
    // its undo) refits tp x pp x dp. The fit is not an edit of its own; later edits' undo steps
    // start from the fitted spec.
    connect(m_document, &ProjectDocument::specChanged, this, [this] {
        m_modelBuilder->setPlatformNpus(m_document->spec().platform.npuCount());
        m_generatorShown = m_modelBuilder->spec();
    });
    connect(m_modelBuilder, &widgets::ModelBuilderPanel::generateRequested, this,
            [this](const generate::GeneratorSpec& spec) { startGeneratedRun(spec); });
}

int MainWindow::startGeneratedRun(const generate::GeneratorSpec& generator) {
    if (!m_hasProject) {
        reportError(tr("Cannot Run"), tr("Open or create a project first: the generated "
                                         "workload runs on the project's platform."));
        return 0;
    }
    const SimulationSpec projectSpec = m_document->spec();
    const int needed = generator.parallel.npus();
    const int available = projectSpec.platform.npuCount();
    if (needed != available) {
        reportError(tr("Cannot Run"),
                    tr("The generated workload needs %1 (TP %2 x PP %3 x DP %4) but the "
                       "project's platform has %5. Change the parallelism in the Workload "
                       "panel or the platform in the Topology tab so that they match.")
                        .arg(counted(needed, tr("NPU"), tr("NPUs")))
                        .arg(generator.parallel.tp)
                        .arg(generator.parallel.pp)
                        .arg(generator.parallel.dp)
                        .arg(counted(available, tr("NPU"), tr("NPUs"))));
        return 0;
    }
    PendingRun pending;
    pending.spec = projectSpec;
    const QString model = generator.model.name.empty()
                              ? tr("generated model")
                              : QString::fromStdString(generator.model.name);
    pending.number = m_store->takeRunNumber();
    // Named after the model actually generated (the panel says "custom (from GPT-2 124M)" once
    // a preset's architecture was edited) and its split: "GPT-2 124M tp1·pp1·dp8 on demo #3".
    const generate::ParallelSpec& p = generator.parallel;
    QString split = QStringLiteral("tp%1\u00b7pp%2\u00b7dp%3").arg(p.tp).arg(p.pp).arg(p.dp);
    if (p.ep > 1)
        split += QStringLiteral("\u00b7ep%1").arg(p.ep);
    pending.name =
        tr("%1 %2 on %3 #%4").arg(model, split, m_document->displayName()).arg(pending.number);
    pending.spec.name = pending.name.toStdString();
    pending.spec.workload.kind = WorkloadSource::Kind::ChakraTrace;
    pending.spec.workload.tracePrefix = "generated:" + model.toStdString();
    pending.queued = QDateTime::currentDateTime();
    const bool waits = m_runs->isBusy();
    // Generating is O(NPUs x nodes): it runs on the worker thread too, before the simulation.
    const int id = m_runs->enqueue(pending.spec, [generator](SimulationSpec& spec) {
        generate::GeneratedWorkload workload = generate::generateWorkload(generator);
        spec.commGroups = std::move(workload.groups);
        return std::move(workload.traces);
    });
    m_pending.emplace(id, std::move(pending));
    if (waits)
        m_log->append(widgets::LogModel::Severity::Info,
                      tr("%1 queued").arg(m_pending.at(id).name));
    else
        onRunStarted(id, m_pending.at(id).name);
    updateRunActions();
    return id;
}

} // namespace astrolabe::gui
