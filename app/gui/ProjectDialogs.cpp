#include "gui/ProjectDialogs.h"

#include "gui/ImportAstraDialog.h"
#include "gui/LayoutController.h"
#include "gui/NewProjectWizard.h"
#include "gui/ProjectController.h"
#include "gui/ProjectDocument.h"

#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QUndoStack>

namespace astrolabe::gui {

ProjectDialogs::ProjectDialogs(QWidget* window, ProjectController* project)
    : QObject(window)
    , m_window(window)
    , m_project(project) {
    using Choice = ProjectController::DiscardChoice;
    ProjectController::Prompts prompts;
    prompts.discard = [window](const QString& name) {
        const auto answer = QMessageBox::warning(
            window, tr("Unsaved Changes"),
            tr("The project \"%1\" has unsaved changes. Save them?").arg(name),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Save)
            return Choice::Save;
        return answer == QMessageBox::Discard ? Choice::Discard : Choice::Cancel;
    };
    prompts.savePath = [window](const QString& suggested) {
        return QFileDialog::getSaveFileName(window, tr("Save Project As"), suggested,
                                            tr("Astrolabe projects (*.yaml)"));
    };
    m_project->setPrompts(std::move(prompts));
}

void ProjectDialogs::addFileActions(QMenu* file, LayoutController* layout) {
    file->addAction(tr("&New Project\u2026"), QKeySequence::New, this, &ProjectDialogs::newProject);
    file->addAction(tr("&Open\u2026"), QKeySequence::Open, this, &ProjectDialogs::open);
    layout->attachRecentMenu(file->addMenu(tr("Open &Recent")));
    file->addAction(tr("&Save"), QKeySequence::Save, m_project, &ProjectController::save);
    file->addAction(tr("Save &As\u2026"), QKeySequence::SaveAs, m_project,
                    &ProjectController::saveAsPrompted);
    file->addSeparator();
    file->addAction(tr("&Import ASTRA-sim Configuration\u2026"), this,
                    &ProjectDialogs::importAstra);
}

void ProjectDialogs::addEditActions(QMenu* edit) {
    // The project's one history: topology editor, configuration panels and model builder all
    // record on the document's undo stack, and these two actions are the only owners of the keys.
    QUndoStack* history = m_project->document()->undoStack();
    QAction* undo = history->createUndoAction(m_window, tr("&Undo"));
    undo->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Z)});
    QAction* redo = history->createRedoAction(m_window, tr("&Redo"));
    redo->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    for (QAction* action : {undo, redo}) {
        action->setShortcutContext(Qt::WindowShortcut);
        edit->addAction(action);
    }
}

void ProjectDialogs::newProject() {
    NewProjectWizard wizard(m_window);
    if (wizard.exec() == QDialog::Accepted)
        m_project->newFromSpec(wizard.spec(), wizard.presetId());
}

void ProjectDialogs::open() {
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open Project"), {},
                                                      tr("Astrolabe projects (*.yaml *.yml)"));
    if (!path.isEmpty())
        m_project->open(path);
}

void ProjectDialogs::importAstra() {
    ImportAstraDialog dialog(m_window);
    if (dialog.exec() == QDialog::Accepted)
        m_project->importAstra(dialog.request());
}

} // namespace astrolabe::gui
