#include "gui/ProjectDialogs.h"

#include "gui/ImportAstraDialog.h"
#include "gui/LayoutController.h"
#include "gui/NewProjectWizard.h"
#include "gui/ProjectController.h"
#include "gui/ProjectDocument.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QFileDialog>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QUndoStack>

namespace astrolabe::gui {
namespace {

/// A text field claims Ctrl+Z and Ctrl+Shift+Z / Ctrl+Y for its own history even when that
/// history is empty, as it is right after a spin box commits a number (rewriting its text clears
/// the history). This lets the keys through to the project's Undo and Redo whenever the field has
/// nothing of its own to undo or redo, so that a half-typed value is still taken back first.
class FieldUndoFilter : public QObject {
public:
    explicit FieldUndoFilter(QWidget* window)
        : QObject(window)
        , m_window(window) {}

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::ShortcutOverride)
            return false;
        auto* widget = qobject_cast<QWidget*>(watched);
        if (widget == nullptr || widget->window() != m_window)
            return false;
        auto* line = qobject_cast<QLineEdit*>(widget);
        if (auto* spin = qobject_cast<QAbstractSpinBox*>(widget))
            line = spin->findChild<QLineEdit*>();
        if (line == nullptr)
            return false;
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->matches(QKeySequence::Undo))
            return !line->isUndoAvailable(); // filtered: not overridden, the window's Undo runs
        if (key->matches(QKeySequence::Redo) ||
            key->keyCombination() == QKeyCombination(Qt::ControlModifier, Qt::Key_Y))
            return !line->isRedoAvailable();
        return false;
    }

private:
    QWidget* m_window;
};

} // namespace

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
    qApp->installEventFilter(new FieldUndoFilter(m_window));
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
