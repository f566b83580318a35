#include "gui/RunSession.h"

#include "common/LogModel.h"
#include "core/Units.h"
#include "gui/Counted.h"
#include "gui/ProjectDocument.h"
#include "gui/RunStoreController.h"

namespace astrolabe::gui {

namespace {
QString rateText(double eventsPerSecond) {
    if (eventsPerSecond >= 1e6)
        return QStringLiteral("%1 M events/s").arg(eventsPerSecond / 1e6, 0, 'f', 2);
    if (eventsPerSecond >= 1e3)
        return QStringLiteral("%1 k events/s").arg(eventsPerSecond / 1e3, 0, 'f', 1);
    return QStringLiteral("%1 events/s").arg(eventsPerSecond, 0, 'f', 0);
}
} // namespace

RunSession::RunSession(RunController* runner, ProjectDocument* document, RunStoreController* store,
                       widgets::LogModel* log, QObject* parent)
    : QObject(parent)
    , m_runner(runner)
    , m_document(document)
    , m_store(store)
    , m_log(log) {
    connect(m_runner, &RunController::runStarted, this, [this](int id) { onStarted(id); });
    connect(m_runner, &RunController::progressed, this, &RunSession::onProgress);
    connect(m_runner, &RunController::runFinished, this, &RunSession::onFinished);
    connect(m_runner, &RunController::runFailed, this, &RunSession::onFailed);
    connect(m_runner, &RunController::runDropped, this, [this](int id) {
        const auto it = m_pending.find(id);
        if (it == m_pending.end())
            return;
        m_log->append(widgets::LogModel::Severity::Warning,
                      tr("%1 was removed from the queue").arg(it->second.name));
        m_pending.erase(it);
    });
    connect(m_runner, &RunController::queueChanged, this, [this](int queued) {
        emit queueTextChanged(queued > 0 ? counted(queued, tr("run waiting"), tr("runs waiting"))
                                         : QString());
        emit stateChanged();
    });
    connect(m_runner, &RunController::idle, this, [this] {
        emit progressVisibleChanged(false); // the text keeps the last run's outcome
        emit stateChanged();
    });
}

int RunSession::start(SimulationSpec spec, const QString& variant) {
    const QString project = m_document->displayName();
    return startNamed(std::move(spec), [&](int number) {
        QString name = tr("%1 #%2").arg(project).arg(number);
        if (!variant.isEmpty())
            name += QStringLiteral(" (%1)").arg(variant);
        return name;
    });
}

int RunSession::startNamed(SimulationSpec spec, const std::function<QString(int)>& name,
                           RunController::TraceFactory traces) {
    PendingRun pending;
    pending.spec = std::move(spec);
    pending.number = m_store->takeRunNumber();
    pending.name = name(pending.number);
    pending.spec.name = pending.name.toStdString();
    pending.asConfigured = traces ? m_document->spec() : pending.spec;
    pending.asConfigured.name = pending.spec.name;
    pending.queued = QDateTime::currentDateTime();
    const bool waits = m_runner->isBusy();
    // enqueue may emit runStarted at once, before the entry exists: onStarted is called below.
    const int id = traces ? m_runner->enqueue(pending.spec, std::move(traces))
                          : m_runner->enqueue(pending.spec);
    m_pending.emplace(id, std::move(pending));
    if (waits)
        m_log->append(widgets::LogModel::Severity::Info,
                      tr("%1 queued").arg(m_pending.at(id).name));
    else
        onStarted(id);
    emit stateChanged();
    return id;
}

void RunSession::stop() {
    if (!isActive())
        return;
    m_log->append(widgets::LogModel::Severity::Warning, tr("Stopping\u2026"));
    m_runner->stop();
    emit statusMessage(tr("Stopping\u2026"), 0);
}

void RunSession::reset() {
    if (isActive()) {
        m_log->append(widgets::LogModel::Severity::Warning,
                      tr("Stopped the previous project's runs"));
        m_runner->stop();
    }
    m_pending.clear(); // their late results are not this project's
    emit progressVisibleChanged(false);
    emit progressTextChanged({});
    emit queueTextChanged({});
    emit statusMessage(tr("Ready"), 0);
    emit stateChanged();
}

void RunSession::onStarted(int id) {
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return; // startNamed() reports it once the entry exists
    m_log->append(widgets::LogModel::Severity::Info,
                  tr("%1 started: %2").arg(it->second.name, keySettings(it->second.spec)));
    emit progressVisibleChanged(true);
    emit progressTextChanged(tr("%1: starting\u2026").arg(it->second.name));
    emit statusMessage(tr("Running %1").arg(it->second.name), 0);
    emit stateChanged();
}

void RunSession::onProgress(int id, const Progress& p) {
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    emit progressTextChanged(
        tr("%1: simulated %2 \u00B7 %3 \u00B7 %4 s")
            .arg(it->second.name,
                 QString::fromStdString(units::formatTime(p.now, units::TimeSpelling::MicroSign)),
                 rateText(p.eventsPerSecond))
            .arg(p.wallSeconds, 0, 'f', 1));
}

void RunSession::onFinished(int id, std::shared_ptr<const RunResult> result, double wallSeconds) {
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    m_document->setLastRunSpec(it->second.asConfigured);
    RunRecord record;
    record.status = RunStatus::Finished;
    record.simulatedTime = result->endTime;
    record.events = result->events;
    record.wallSeconds = wallSeconds;
    record.result = std::move(result);
    const QString wall = wallSeconds < 1 ? tr("%1 ms").arg(wallSeconds * 1e3, 0, 'f', 1)
                                         : tr("%1 s").arg(wallSeconds, 0, 'f', 3);
    const QString line = tr("%1 finished: simulated time %2, wall time %3")
                             .arg(it->second.name,
                                  QString::fromStdString(units::formatTime(
                                      record.simulatedTime, units::TimeSpelling::MicroSign)),
                                  wall);
    m_log->append(widgets::LogModel::Severity::Info, line);
    emit progressTextChanged(line);
    emit statusMessage(line, 10000);
    store(id, std::move(record));
}

void RunSession::onFailed(int id, const QString& message, const QString& keyPath, bool cancelled,
                          double wallSeconds) {
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    const QString name = it->second.name;
    RunRecord record;
    record.status = cancelled ? RunStatus::Cancelled : RunStatus::Failed;
    record.wallSeconds = wallSeconds;
    record.message = message;
    record.keyPath = keyPath;
    store(id, std::move(record));
    emit progressVisibleChanged(false);
    if (cancelled) {
        m_log->append(widgets::LogModel::Severity::Warning, tr("%1 stopped").arg(name));
        emit progressTextChanged(tr("%1 stopped after %2 s").arg(name).arg(wallSeconds, 0, 'f', 2));
        emit statusMessage(tr("%1 stopped").arg(name), 10000);
        emit stateChanged();
        return;
    }
    emit progressTextChanged(tr("%1 failed").arg(name));
    emit statusMessage(tr("%1 failed").arg(name), 10000);
    emit stateChanged();
    emit errorOccurred(tr("Run Failed"), tr("%1 failed:\n%2").arg(name, message), keyPath);
}

void RunSession::store(int id, RunRecord record) {
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    record.name = it->second.name;
    record.number = it->second.number;
    record.started = it->second.queued;
    record.spec = it->second.spec;
    m_pending.erase(it);
    m_store->save(std::move(record));
}

} // namespace astrolabe::gui
