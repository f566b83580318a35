// MainWindow: opening, saving, importing and presenting the project.
#include "common/ErrorBox.h"
#include "common/LogModel.h"
#include "config/ConfigurationPanel.h"
#include "core/Error.h"
#include "gui/ImportAstraDialog.h"
#include "gui/MainWindow.h"
#include "gui/NewProjectWizard.h"
#include "gui/Presets.h"
#include "gui/ProjectDocument.h"
#include "gui/ProjectExplorer.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "gui/WorkspacePages.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>

namespace astrolabe::gui {

bool MainWindow::hasProject() const {
    return m_hasProject;
}

void MainWindow::attachStore(const QString& projectPath) {
    m_runsModel->setStore(nullptr);
    m_store = m_services.openRunStore(projectPath);
    ++m_storeGeneration; // replies of workers for the previous store are dropped
    m_loading.clear();
    m_loaded.clear();
    m_runsModel->setStore(m_store.get());
    if (m_progressAction) // not while the constructor builds the window
        resetRunState();
}

void MainWindow::projectOpened() {
    m_hasProject = true;
    m_stack->setCurrentWidget(m_tabs);
    if (m_tabs->currentIndex() < 0)
        m_tabs->setCurrentIndex(ConfigurationTab);
    refreshExplorer();
    updateTitle();
    updateRunActions();
    showRun(0);
}

void MainWindow::newProjectFromPreset(const QString& presetId) {
    if (!maybeDiscard())
        return;
    try {
        m_document->reset(preset(presetId).spec, {}, false);
    } catch (const Error& e) {
        reportError(tr("New Project"), QString::fromStdString(e.what()));
        return;
    }
    attachStore({});
    projectOpened();
    m_tabs->setCurrentIndex(ConfigurationTab);
    m_log->append(widgets::LogModel::Severity::Info,
                  tr("New project \"%1\" from a preset").arg(m_document->displayName()));
    statusBar()->showMessage(tr("Press Run (F5) to simulate"), 8000);
}

void MainWindow::onNewProject() {
    NewProjectWizard wizard(this);
    if (wizard.exec() != QDialog::Accepted || !maybeDiscard())
        return;
    m_document->reset(wizard.spec(), {}, true);
    attachStore({});
    projectOpened();
    m_log->append(
        widgets::LogModel::Severity::Info,
        tr("New project \"%1\" (%2 preset)").arg(m_document->displayName(), wizard.presetId()));
}

bool MainWindow::openProject(const QString& path) {
    if (!maybeDiscard())
        return false;
    try {
        m_document->load(path);
    } catch (const Error& e) {
        reportError(tr("Open Project"), QString::fromStdString(e.what()),
                    QString::fromStdString(e.where().keyPath));
        return false;
    }
    attachStore(path);
    addRecent(path);
    projectOpened();
    m_log->append(widgets::LogModel::Severity::Info, tr("Opened %1").arg(path));
    return true;
}

void MainWindow::onOpen() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Project"), {},
                                                      tr("Astrolabe projects (*.yaml *.yml)"));
    if (!path.isEmpty())
        openProject(path);
}

bool MainWindow::saveProject() {
    if (!m_hasProject)
        return false;
    if (m_document->path().isEmpty())
        return onSaveAs();
    return saveProjectAs(m_document->path());
}

bool MainWindow::saveProjectAs(const QString& path) {
    try {
        m_document->saveAs(path);
    } catch (const Error& e) {
        reportError(tr("Save Project"), QString::fromStdString(e.what()));
        return false;
    }
    moveRunsToProjectStore(path);
    addRecent(path);
    m_log->append(widgets::LogModel::Severity::Info, tr("Saved %1").arg(path));
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

bool MainWindow::onSaveAs() {
    if (!m_hasProject)
        return false;
    const QString suggested = m_document->path().isEmpty()
                                  ? m_document->displayName() + QStringLiteral(".yaml")
                                  : m_document->path();
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Project As"), suggested,
                                                      tr("Astrolabe projects (*.yaml)"));
    return !path.isEmpty() && saveProjectAs(path);
}

bool MainWindow::importAstra(const AstraImportRequest& request) {
    if (!maybeDiscard())
        return false;
    try {
        m_document->importAstra(request);
    } catch (const Error& e) {
        reportError(tr("Import ASTRA-sim Configuration"), QString::fromStdString(e.what()));
        return false;
    }
    attachStore({});
    projectOpened();
    m_log->append(widgets::LogModel::Severity::Info,
                  tr("Imported %1 and %2").arg(request.networkYaml, request.systemJson));
    return true;
}

void MainWindow::onImport() {
    ImportAstraDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted)
        importAstra(dialog.request());
}

bool MainWindow::maybeDiscard() {
    if (!m_hasProject || !m_document->isModified() || !m_askBeforeDiscarding)
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved Changes"),
        tr("The project \"%1\" has unsaved changes. Save them?").arg(m_document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return saveProject();
    return answer == QMessageBox::Discard;
}

void MainWindow::updateTitle() {
    if (!m_hasProject) {
        setWindowTitle(QStringLiteral("Astrolabe"));
        setWindowModified(false);
        return;
    }
    const QString where =
        m_document->path().isEmpty() ? tr("not saved") : QFileInfo(m_document->path()).fileName();
    setWindowTitle(
        QStringLiteral("%1 (%2)[*] \u2014 Astrolabe").arg(m_document->displayName(), where));
    setWindowModified(m_document->isModified());
}

void MainWindow::refreshExplorer() {
    if (!m_hasProject)
        return;
    m_explorer->showProject(m_document->displayName(), m_document->spec());
    m_explorer->showRuns(m_store.get());
}

void MainWindow::showRun(int id) {
    const RunRecord* run = m_runsModel->run(id);
    if (run && !run->result && run->status == RunStatus::Finished && !run->databasePath.isEmpty())
        loadResult(*run); // the pages say "loading" until onResultLoaded shows it
    for (WorkspacePage* page : m_pages)
        page->showRun(run);
}

void MainWindow::onExplorerActivated(int part, int runId, const QString& key) {
    switch (static_cast<ProjectExplorer::Part>(part)) {
    case ProjectExplorer::Part::Platform:
        m_tabs->setCurrentIndex(TopologyTab);
        break;
    case ProjectExplorer::Part::Run:
        m_runsPanel->selectRun(runId);
        m_tabs->setCurrentIndex(TimelineTab);
        break;
    case ProjectExplorer::Part::Runs:
        m_tabs->setCurrentIndex(CompareTab);
        break;
    case ProjectExplorer::Part::System:
    case ProjectExplorer::Part::Memory:
    case ProjectExplorer::Part::Workload:
        m_tabs->setCurrentIndex(ConfigurationTab);
        if (!key.isEmpty())
            m_config->focusKey(key);
        break;
    case ProjectExplorer::Part::Project:
        break;
    }
}

void MainWindow::reportError(const QString& title, const QString& message, const QString& keyPath) {
    m_log->append(widgets::LogModel::Severity::Error, message);
    // The first line only: the box has the rest.
    statusBar()->showMessage(widgets::elideErrorLine(message.section(u'\n', 0, 0)), 10000);
    bool jumped = false;
    if (!keyPath.isEmpty() && m_hasProject && m_config->editorForKey(keyPath)) {
        m_tabs->setCurrentIndex(ConfigurationTab);
        jumped = m_config->focusKey(keyPath);
    }
    // Not modal: a long message must not stop runs or the event loop.
    QMessageBox* box = widgets::createErrorBox(this, title, message);
    if (jumped)
        box->setInformativeText(tr("The setting is highlighted in the Configuration tab."));
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (jumped) // back to the offending field once the message is read
        connect(box, &QDialog::finished, this, [this, keyPath] {
            if (QWidget* editor = m_config->editorForKey(keyPath))
                editor->setFocus(Qt::OtherFocusReason);
        });
    box->open();
}

} // namespace astrolabe::gui
