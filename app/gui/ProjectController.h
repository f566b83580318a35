#pragma once
// The open project as the user handles it: new (from a preset or the wizard's spec), open,
// save, save as, import, and the question before unsaved changes are dropped. The document
// (spec, path, undo history, modified flag) is ProjectDocument; this class adds whether a
// project is open at all and the file operations' errors, log lines and prompts. Prompts are
// functions so that tests (and scripted use) answer without dialogs.

#include "gui/ProjectIo.h"

#include <QObject>
#include <functional>

namespace astrolabe::widgets {
class LogModel;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class ProjectDocument;

class ProjectController : public QObject {
    Q_OBJECT
public:
    enum class DiscardChoice { Save, Discard, Cancel };
    struct Prompts {
        /// Asked before unsaved changes of the named project are dropped; empty: Discard.
        std::function<DiscardChoice(const QString& projectName)> discard;
        /// Asked for the path of a project never saved; empty result (or function): cancel.
        std::function<QString(const QString& suggestedPath)> savePath;
    };

    /// `document` and `log` are observed, not owned.
    ProjectController(ProjectDocument* document, widgets::LogModel* log, QObject* parent = nullptr);

    ProjectDocument* document() const { return m_document; }
    bool hasProject() const { return m_hasProject; }
    void setPrompts(Prompts prompts) { m_prompts = std::move(prompts); }
    /// When false, closing or replacing a modified project does not ask (tests, scripted use).
    void setAskBeforeDiscarding(bool ask) { m_askBeforeDiscarding = ask; }

    // Each returns false (after errorOccurred, or when the user cancelled) if nothing changed.
    bool newFromPreset(const QString& presetId);
    /// A new, unsaved project of the wizard's spec (counts as modified).
    bool newFromSpec(const SimulationSpec& spec, const QString& presetId);
    bool open(const QString& path);
    /// Saves to the project's path, or asks for one when it has none.
    bool save();
    bool saveAs(const QString& path);
    /// Asks for a path (Prompts::savePath) and saves there.
    bool saveAsPrompted();
    bool importAstra(const AstraImportRequest& request);
    /// True when there is nothing unsaved to lose, or the user saved or chose to discard it.
    bool maybeDiscard();

    /// "Astrolabe" without a project, else "<name> (<file or 'not saved'>)[*] — Astrolabe".
    QString windowTitle() const;
    /// The name a "save as" dialog suggests.
    QString suggestedPath() const;

signals:
    /// A project replaced the previous one; its runs live beside `path` (empty: unsaved).
    void projectOpened(const QString& path);
    /// The project was written to `path`.
    void saved(const QString& path);
    /// A project file was opened or saved (for the recent list).
    void fileUsed(const QString& path);
    void statusMessage(const QString& text, int timeoutMs);
    void errorOccurred(const QString& title, const QString& message, const QString& keyPath);

private:
    void opened(const QString& path, const QString& logLine);

    ProjectDocument* m_document;
    widgets::LogModel* m_log;
    Prompts m_prompts;
    bool m_hasProject = false;
    bool m_askBeforeDiscarding = true;
};

} // namespace astrolabe::gui
