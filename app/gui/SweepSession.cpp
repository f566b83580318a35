#include "gui/SweepSession.h"

#include "gui/ErrorReporter.h"
#include "gui/ProjectDocument.h"
#include "gui/RunStoreController.h"
#include "gui/SqliteRunStore.h"
#include "gui/SweepController.h"
#include "gui/SweepSettingDialog.h"
#include "gui/WorkspaceTabs.h"
#include "sweep/SweepPlan.h"
#include "sweep/SweepView.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

namespace astrolabe::gui {

SweepSession::SweepSession(Window window, WorkspaceTabs* tabs, ProjectDocument* document,
                           RunStoreController* store, ErrorReporter* errors, QObject* parent)
    : QObject(parent)
    , m_window(std::move(window))
    , m_tabs(tabs)
    , m_document(document)
    , m_store(store)
    , m_errors(errors) {
    m_view = new widgets::SweepView(tabs);
    tabs->addTab(m_view, tr("Sweep"));
    tabs->setTabToolTip(WorkspaceTabs::SweepTab,
                        tr("Run every point of a sweep file (Run > Run sweep…) and see end time "
                           "over its axes"));
    m_controller = new SweepController(m_view, this);
    connect(tabs, &WorkspaceTabs::sweepRequested, this, &SweepSession::sweepSetting);
    connect(m_controller, &SweepController::errorOccurred, errors, &ErrorReporter::report);
    connect(m_controller, &SweepController::finished, this, [this](bool cancelled) {
        if (storesHere())
            m_window.reloadRuns();
        m_window.statusBar->showMessage(cancelled ? tr("Sweep cancelled: run it again to finish it")
                                                  : tr("Sweep finished"));
    });
    connect(m_view, &widgets::SweepView::compareRequested, this, &SweepSession::compareSelected);
    connect(m_view, &widgets::SweepView::applyRequested, this, &SweepSession::applyPoint);
}

SweepSession::~SweepSession() {
    delete m_controller; // its threads stop (cancelled) before the window's controllers go
}

void SweepSession::addActions(QMenu* run) {
    run->addAction(tr("Run s&weep…"), this, [this] {
        const QString start =
            m_window.hasProject() ? QFileInfo(m_document->path()).absolutePath() : QString();
        const QString path =
            QFileDialog::getOpenFileName(m_window.widget, tr("Run sweep"), start,
                                         tr("Sweep files (*.yaml *.yml);;All files (*)"));
        if (!path.isEmpty())
            runSweep(path);
    });
}

bool SweepSession::runSweep(const QString& sweepPath, int jobs) {
    if (!m_controller->start(sweepPath, jobs)) {
        m_errors->report(tr("Cannot Run Sweep"),
                         tr("A sweep is running: cancel it or wait for it to finish."));
        return false;
    }
    if (m_window.hasProject()) // the tabs are showing, not the welcome page
        m_tabs->setCurrentIndex(WorkspaceTabs::SweepTab);
    return true;
}

QString SweepSession::sweepSetting(const QString& keyPath, const QString& label,
                                   const QString& current) {
    if (!m_window.hasProject())
        return {};
    if (m_document->path().isEmpty() || m_document->isModified()) {
        QMessageBox ask(QMessageBox::Question, tr("Sweep %1").arg(label),
                        m_document->path().isEmpty()
                            ? tr("A sweep runs the project file, each point with one value of "
                                 "%1. This project has not been saved yet: save it now?")
                                  .arg(label)
                            : tr("A sweep runs the project file, each point with one value of "
                                 "%1. Save your changes to it now?")
                                  .arg(label),
                        QMessageBox::Save | QMessageBox::Cancel, m_window.widget);
        ask.setObjectName(QStringLiteral("saveBeforeSweep"));
        ask.setDefaultButton(QMessageBox::Save);
        if (ask.exec() != QMessageBox::Save || !m_window.saveProject || !m_window.saveProject())
            return {};
    }
    SweepSettingDialog dialog(keyPath, label, current, m_window.widget);
    if (dialog.exec() != QDialog::Accepted)
        return {};
    QString path;
    try {
        path = writeSettingSweep(m_document->path(), keyPath, dialog.values());
    } catch (const std::exception& e) {
        m_errors->report(tr("Cannot Sweep"), QString::fromStdString(e.what()));
        return {};
    }
    return runSweep(path) ? path : QString();
}

void SweepSession::projectOpened() {
    if (storesHere())
        return; // the sweep under way or shown is this project's own
    if (m_controller->isRunning())
        m_controller->cancel();
    m_view->clear();
}

bool SweepSession::storesHere() const {
    const auto* store = dynamic_cast<const SqliteRunStore*>(m_store->store());
    return store && !m_controller->databasePath().isEmpty() &&
           QFileInfo(store->databasePath()) == QFileInfo(m_controller->databasePath());
}

bool SweepSession::applyPoint(size_t point) {
    const std::shared_ptr<const SweepPlan> plan = m_controller->plan();
    if (!plan || !m_window.hasProject() || point >= plan->points.size())
        return false;
    if (!m_document->path().isEmpty() &&
        QFileInfo(m_document->path()) != QFileInfo(QString::fromStdString(plan->file.projectPath)))
        m_window.statusBar->showMessage(
            tr("The sweep's base project is %1: its point's settings go into the open project")
                .arg(QString::fromStdString(plan->file.projectPath)));
    SimulationSpec applied;
    const std::string projectPath =
        m_document->path().isEmpty() ? plan->file.projectPath : m_document->path().toStdString();
    try {
        applied = applySweepPoint(m_document->spec(), projectPath, *plan, point);
    } catch (const std::exception& e) {
        m_errors->report(tr("Cannot Apply Point"), QString::fromStdString(e.what()));
        return false;
    }
    const QString label = QString::fromStdString(plan->point(point).label());
    widgets::SpecEdit edit;
    edit.keyPath = QStringLiteral("sweep.point");
    edit.description = tr("Apply sweep point %1 (%2)").arg(point).arg(label);
    edit.apply = [applied](SimulationSpec& spec) { spec = applied; };
    m_document->applyEdit(edit);
    m_window.statusBar->showMessage(tr("Applied point %1: %2").arg(point).arg(label));
    return true;
}

void SweepSession::compareSelected(const QList<int>& ids) {
    if (!storesHere()) {
        m_errors->report(tr("Compare"), tr("The sweep's runs are in %1: open its project to "
                                           "compare them.")
                                            .arg(m_controller->databasePath()));
        return;
    }
    for (const int id : ids)
        if (m_store->store()->rowOf(id) < 0) { // stored by the sweep since the list was read
            m_window.reloadRuns();
            break;
        }
    m_window.compareRuns(ids);
}

} // namespace astrolabe::gui
