// MainWindow: queueing runs, showing their progress, storing their results.
#include "common/LogModel.h"
#include "config/ConfigurationPanel.h"
#include "core/Units.h"
#include "gui/Counted.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "gui/ProjectExplorer.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "gui/WorkspacePages.h"
#include "store/ProjectDatabase.h"

#include <QAction>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QStatusBar>
#include <QTabWidget>

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

void MainWindow::connectRunController() {
    connect(m_runs, &RunController::runStarted, this, &MainWindow::onRunStarted);
    connect(m_runs, &RunController::progressed, this, &MainWindow::onRunProgress);
    connect(m_runs, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(m_runs, &RunController::runFailed, this, &MainWindow::onRunFailed);
    connect(m_runs, &RunController::runDropped, this, [this](int id) {
        const auto it = m_pending.find(id);
        if (it == m_pending.end())
            return;
        m_log->append(widgets::LogModel::Severity::Warning,
                      tr("%1 was removed from the queue").arg(it->second.name));
        m_pending.erase(it);
    });
    connect(m_runs, &RunController::queueChanged, this, [this](int queued) {
        m_queueLabel->setText(queued > 0 ? counted(queued, tr("run waiting"), tr("runs waiting"))
                                         : QString());
        updateRunActions();
    });
    connect(m_runs, &RunController::idle, this, [this] {
        m_progressAction->setVisible(false); // the label keeps the last run's outcome
        updateRunActions();
    });
}

void MainWindow::updateRunActions() {
    m_runAction->setEnabled(m_hasProject);
    m_stopAction->setEnabled(m_runs->isBusy() || m_runs->queuedCount() > 0);
}

int MainWindow::startRun() {
    if (!m_hasProject)
        return 0;
    m_config->setSpec(m_document->spec()); // checks against files again (traces made since)
    const QStringList invalid = m_config->invalidFields();
    if (!invalid.isEmpty()) {
        reportError(tr("Cannot Run"),
                    tr("Some settings are not valid yet: %1. Fix the fields marked in red, "
                       "then run again.")
                        .arg(invalid.join(QStringLiteral(", "))));
        m_tabs->setCurrentIndex(ConfigurationTab);
        m_config->focusFirstInvalid();
        return 0;
    }
    return startRunOf(m_document->spec(), QString());
}

int MainWindow::startRunOf(SimulationSpec spec, const QString& variant) {
    if (!m_hasProject)
        return 0;
    PendingRun pending;
    pending.spec = std::move(spec);
    pending.number = m_store->takeRunNumber();
    pending.name = tr("%1 #%2").arg(m_document->displayName()).arg(pending.number);
    if (!variant.isEmpty())
        pending.name += QStringLiteral(" (%1)").arg(variant);
    pending.spec.name = pending.name.toStdString();
    pending.queued = QDateTime::currentDateTime();
    const bool waits = m_runs->isBusy();
    const int id = m_runs->enqueue(pending.spec); // may emit runStarted at once
    m_pending.emplace(id, std::move(pending));
    if (waits)
        m_log->append(widgets::LogModel::Severity::Info,
                      tr("%1 queued").arg(m_pending.at(id).name));
    else
        onRunStarted(id, m_pending.at(id).name); // runStarted came before the entry existed
    updateRunActions();
    return id;
}

void MainWindow::stopRuns() {
    if (!m_runs->isBusy() && m_runs->queuedCount() == 0)
        return;
    m_log->append(widgets::LogModel::Severity::Warning, tr("Stopping\u2026"));
    m_runs->stop();
    statusBar()->showMessage(tr("Stopping\u2026"));
}

void MainWindow::resetRunState() {
    if (m_runs->isBusy() || m_runs->queuedCount() > 0) {
        m_log->append(widgets::LogModel::Severity::Warning,
                      tr("Stopped the previous project's runs"));
        m_runs->stop();
    }
    m_pending.clear(); // their late results are not this project's
    m_progressAction->setVisible(false);
    m_progress->setRange(0, 0);
    m_progressLabel->clear();
    m_queueLabel->clear();
    statusBar()->showMessage(tr("Ready"));
    updateRunActions();
}

void MainWindow::onRunStarted(int id, const QString&) {
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return; // startRun() reports it once the entry exists
    m_log->append(widgets::LogModel::Severity::Info,
                  tr("%1 started: %2").arg(it->second.name, keySettings(it->second.spec)));
    m_progress->setRange(0, 0); // busy: the end time is unknown until the run ends
    m_progressAction->setVisible(true);
    m_progressLabel->setText(tr("%1: starting\u2026").arg(it->second.name));
    statusBar()->showMessage(tr("Running %1").arg(it->second.name));
    updateRunActions();
}

void MainWindow::onRunProgress(int id, const Progress& p) {
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    m_progressLabel->setText(
        tr("%1: simulated %2 \u00B7 %3 \u00B7 %4 s")
            .arg(it->second.name,
                 QString::fromStdString(units::formatTime(p.now, units::TimeSpelling::MicroSign)),
                 rateText(p.eventsPerSecond))
            .arg(p.wallSeconds, 0, 'f', 1));
}

void MainWindow::onRunFinished(int id, std::shared_ptr<const RunResult> result,
                               double wallSeconds) {
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    m_document->setLastRunSpec(it->second.spec);
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
    m_progressLabel->setText(line);
    statusBar()->showMessage(line, 10000);
    storeRun(id, std::move(record));
}

void MainWindow::onRunFailed(int id, const QString& message, const QString& keyPath, bool cancelled,
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
    storeRun(id, std::move(record));
    m_progressAction->setVisible(false);
    if (cancelled) {
        m_log->append(widgets::LogModel::Severity::Warning, tr("%1 stopped").arg(name));
        m_progressLabel->setText(tr("%1 stopped after %2 s").arg(name).arg(wallSeconds, 0, 'f', 2));
        statusBar()->showMessage(tr("%1 stopped").arg(name), 10000);
        updateRunActions();
        return;
    }
    m_progressLabel->setText(tr("%1 failed").arg(name));
    statusBar()->showMessage(tr("%1 failed").arg(name), 10000);
    updateRunActions();
    reportError(tr("Run Failed"), tr("%1 failed:\n%2").arg(name, message), keyPath);
}

void MainWindow::compareRuns(const QList<int>& ids) {
    std::vector<const RunRecord*> runs;
    for (int id : ids) {
        const RunRecord* run = m_runsModel->run(id);
        if (!run)
            continue;
        if (!run->result && !run->databasePath.isEmpty()) {
            // A stored run not loaded yet: the comparison needs its summaries and spans (not its
            // timeline), a quick read.
            try {
                const ProjectDatabase db(run->databasePath.toStdString());
                m_runsModel->setResult(id, db.loadResult(id, false, true));
            } catch (const std::exception& e) {
                reportError(tr("Compare"),
                            tr("Run %1 could not be loaded: %2").arg(id).arg(e.what()));
            }
            run = m_runsModel->run(id);
        }
        runs.push_back(run);
    }
    // m_pages has no Configuration page: find the Compare page by its tab.
    if (auto* page = qobject_cast<WorkspacePage*>(m_tabs->widget(CompareTab)))
        page->compareRuns(runs);
    m_tabs->setCurrentIndex(CompareTab);
}

} // namespace astrolabe::gui
