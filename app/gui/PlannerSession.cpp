#include "gui/PlannerSession.h"

#include "core/Error.h"
#include "core/Simulator.h"
#include "core/WorkerThreads.h"
#include "generator/ModelBuilderPanel.h"
#include "generator/PlanCandidatesModel.h"
#include "generator/PlannerPanel.h"
#include "gui/ProjectDocument.h"
#include "gui/WorkloadController.h"
#include "plan/NetworkCosts.h"
#include "plan/PlanSimulation.h"

#include <QLocale>
#include <vector>

namespace astrolabe::gui {

PlannerSession::PlannerSession(widgets::PlannerPanel* panel, widgets::ModelBuilderPanel* builder,
                               ProjectDocument* document, WorkloadController* workload,
                               QObject* parent)
    : QObject(parent)
    , m_panel(panel)
    , m_builder(builder)
    , m_document(document)
    , m_workload(workload) {
    connect(m_panel, &widgets::PlannerPanel::planRequested, this, &PlannerSession::plan);
    connect(m_panel, &widgets::PlannerPanel::simulateRequested, this, &PlannerSession::simulateTop);
    connect(m_panel, &widgets::PlannerPanel::cancelRequested, this, &PlannerSession::cancel);
    connect(m_panel, &widgets::PlannerPanel::applyRequested, this, &PlannerSession::apply);
    connect(m_builder, &widgets::ModelBuilderPanel::specChanged, this, &PlannerSession::showModel);
    // A new platform size proposes itself as the GPU count; other edits keep what was typed.
    connect(m_document, &ProjectDocument::specChanged, this, [this] {
        const int npus = m_document->spec().platform.npuCount();
        if (npus != m_gpus) {
            m_gpus = npus;
            m_panel->setRequestDefaults(npus, m_panel->globalBatch());
        }
        // A ranking of another platform (another project opened, the topology edited) is not
        // this one's: its rows and simulations would be read as the project's.
        if (m_result && !m_running && !(m_document->spec().platform == m_plannedOn)) {
            m_result.reset();
            m_panel->setResult({}, nullptr);
            m_panel->setStatus(tr("The project's platform changed: Plan ranks the candidates "
                                  "on the new one."));
        }
    });
    m_gpus = m_document->spec().platform.npuCount();
    m_batch = m_builder->spec().training.globalBatch;
    m_panel->setRequestDefaults(m_gpus, int(m_batch));
    showModel();
}

PlannerSession::~PlannerSession() {
    if (m_cancel)
        m_cancel->cancel();
    join();
}

void PlannerSession::join() {
    if (m_thread.joinable())
        m_thread.join();
}

void PlannerSession::showModel() {
    const generate::GeneratorSpec spec = m_builder->spec();
    // The builder's global batch is the planner's to start from: a preset chosen there (Llama-3
    // 8B's 64) replaces the one shown, so Apply does not silently set the builder to another.
    if (spec.training.globalBatch != m_batch) {
        m_batch = spec.training.globalBatch;
        m_panel->setRequestDefaults(m_panel->gpus(), int(m_batch));
    }
    m_panel->setModelName(spec.model.name.empty() ? tr("the model builder's")
                                                  : QString::fromStdString(spec.model.name));
}

bool PlannerSession::plan(int gpus, int globalBatch) {
    if (m_running)
        return false;
    join(); // the previous run's thread, already past its last queued call
    // The request is read here, on the GUI thread: the builder's model, the project's platform.
    SimulationSpec spec = m_document->spec();
    m_plannedOn = spec.platform;
    plan::PlanRequest request{m_builder->spec(), gpus, {}};
    request.base.training.globalBatch = globalBatch;
    plan::offloadTierOf(request, spec.memory); // the project's memory tier, if any
    try {
        plan::resizePlatform(spec.platform, gpus);
        plan::NetworkCosts probe(spec.platform, spec.system); // throws for a graph platform
    } catch (const Error& e) {
        m_panel->setStatus(tr("Cannot plan: %1").arg(QString::fromStdString(e.message())));
        emit planned(false);
        return false;
    }
    const uint64_t id = ++m_id;
    m_running = true;
    m_panel->setRunning(true);
    m_panel->setStatus(tr("Ranking every legal configuration of %1 on %2 GPUs…")
                           .arg(QString::fromStdString(request.base.model.name))
                           .arg(gpus));
    m_thread = std::thread([this, id, spec, request] {
        std::shared_ptr<const plan::PlanResult> result;
        QString failure;
        try {
            const plan::NetworkCosts network(spec.platform, spec.system);
            result = std::make_shared<const plan::PlanResult>(
                plan::rankConfigurations(request, network));
        } catch (const std::exception& e) {
            failure = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, id, spec, request, result, failure] {
                m_running = false;
                m_panel->setRunning(false);
                if (id != m_id)
                    return; // a newer plan replaced this one
                if (!failure.isEmpty() || !result->unsatisfiable.empty()) {
                    m_panel->setStatus(tr("Cannot plan: %1")
                                           .arg(failure.isEmpty()
                                                    ? QString::fromStdString(result->unsatisfiable)
                                                    : failure));
                    emit planned(false);
                    return;
                }
                m_project = spec;
                m_request = request;
                m_result = result;
                m_panel->setResult(request, result);
                const QLocale locale;
                m_panel->setStatus(
                    tr("%1 legal configurations, %2 refused for memory, %3 rows ranked in "
                       "%4 s%5. Select one to see its memory and arguments; Simulate top K to "
                       "confirm the best by simulation.")
                        .arg(locale.toString(qulonglong(result->enumerated)),
                             locale.toString(qulonglong(result->rejectedForMemory)),
                             locale.toString(qulonglong(result->ranked.size())))
                        .arg(result->rankingSeconds, 0, 'f', 2)
                        .arg(result->twins == 0
                                 ? QString()
                                 : tr(" (a row marked + stands for %1 other rank orders in all, "
                                      "which place every group alike)")
                                       .arg(locale.toString(qulonglong(result->twins)))));
                emit planned(true);
            },
            Qt::QueuedConnection);
    });
    return true;
}

bool PlannerSession::simulateTop(int k) {
    if (m_running || !m_result || m_result->ranked.empty() || k < 1)
        return false;
    join();
    const size_t count = std::min(size_t(k), m_result->ranked.size());
    const std::vector<plan::RankedCandidate> best(m_result->ranked.begin(),
                                                  m_result->ranked.begin() + std::ptrdiff_t(count));
    m_cancel = std::make_shared<CancelToken>();
    m_running = true;
    m_panel->setRunning(true);
    m_panel->setStatus(tr("Simulating the %1 best estimates, two at a time…").arg(count));
    const uint64_t id = m_id;
    m_thread = std::thread([this, id, best, project = m_project, request = m_request,
                            cancel = m_cancel] {
        runOnWorkerThreads<plan::SimulatedCandidate>(
            best.size(), 2,
            [&](size_t i) {
                if (cancel->cancelled()) {
                    plan::SimulatedCandidate skipped;
                    skipped.ranked = best[i];
                    skipped.error = "cancelled";
                    return skipped;
                }
                return plan::simulateCandidate(project, request, best[i], cancel.get());
            },
            [&](size_t i, plan::SimulatedCandidate&& outcome) {
                const QString error = outcome.ran ? QString()
                                      : cancel->cancelled()
                                          ? widgets::PlanCandidatesModel::kCancelled
                                          : QString::fromStdString(outcome.error);
                QMetaObject::invokeMethod(
                    this,
                    [this, id, i, seconds = outcome.simulatedSeconds, error] {
                        if (id == m_id) // rank i of the plan the simulations were asked of
                            m_panel->setSimulated(i, seconds, error);
                    },
                    Qt::QueuedConnection);
            });
        QMetaObject::invokeMethod(
            this, [this, id, cancelled = cancel->cancelled()] { simulationsDone(id, cancelled); },
            Qt::QueuedConnection);
    });
    return true;
}

void PlannerSession::simulationsDone(uint64_t id, bool cancelled) {
    m_running = false;
    m_panel->setRunning(false);
    if (id == m_id && m_result) {
        std::vector<double> estimated, measured;
        const widgets::PlanCandidatesModel* model = m_panel->model();
        for (size_t i = 0; i < m_result->ranked.size() && i < 4096; ++i)
            if (const double s = model->simulatedSeconds(i); s == s) { // not NaN
                estimated.push_back(m_result->ranked[i].seconds());
                measured.push_back(s);
            }
        QString text = cancelled ? tr("Cancelled: %1 simulated.").arg(measured.size())
                                 : tr("%1 simulated.").arg(measured.size());
        if (measured.size() >= 2)
            text += tr(" Spearman rank correlation of the estimate with the simulated times: "
                       "%1.")
                        .arg(plan::spearman(estimated, measured), 0, 'f', 3);
        m_panel->setStatus(text);
    }
    emit simulated(cancelled);
}

void PlannerSession::cancel() {
    if (m_cancel)
        m_cancel->cancel();
}

void PlannerSession::apply(int ranked) {
    if (!m_result || ranked < 0 || size_t(ranked) >= m_result->ranked.size())
        return;
    const plan::Candidate& c = m_result->ranked[size_t(ranked)].candidate;
    const generate::GeneratorSpec spec = plan::candidateSpec(m_request, c);
    const QString description =
        tr("Apply plan %1").arg(QString::fromStdString(plan::candidateLabel(c)));
    m_workload->applySpec(spec, description);
    emit applied(description);
    if (m_request.npus != m_document->spec().platform.npuCount())
        m_panel->setStatus(tr("Applied %1 for %2 GPUs; the project's platform has %3: change "
                              "it in the Topology tab before Generate and Run.")
                               .arg(QString::fromStdString(plan::candidateLabel(c)))
                               .arg(m_request.npus)
                               .arg(m_document->spec().platform.npuCount()));
}

} // namespace astrolabe::gui
