#pragma once
// The Sweep tab's wiring: Run > Run sweep…, "Sweep this setting…" from a configuration field,
// the SweepController that runs a sweep file off the GUI thread, and what follows a sweep (the
// runs list read again, "Compare selected" into the Compare tab). MainWindow owns one.

#include <QObject>
#include <QString>
#include <functional>

class QMenu;
class QStatusBar;
class QWidget;

namespace astrolabe::widgets {
class SweepView;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class ErrorReporter;
class ProjectDocument;
class RunStoreController;
class SweepController;
class WorkspaceTabs;

class SweepSession : public QObject {
    Q_OBJECT
public:
    /// What the session asks of the window: read the runs list again from the project
    /// database, and show runs side by side in the Compare tab.
    struct Window {
        QWidget* widget = nullptr; ///< parent of the dialogs
        QStatusBar* statusBar = nullptr;
        std::function<bool()> hasProject;
        std::function<void()> reloadRuns;
        std::function<void(const QList<int>&)> compareRuns;
        /// Saves the project (asking where when it has no file yet); false when it was not.
        std::function<bool()> saveProject;
    };

    /// Adds the Sweep tab to `tabs` and answers its "Sweep this setting…" requests
    /// (configuration fields, topology dimensions).
    SweepSession(Window window, WorkspaceTabs* tabs, ProjectDocument* document,
                 RunStoreController* store, ErrorReporter* errors, QObject* parent);
    ~SweepSession() override; ///< cancels a running sweep and waits for its threads

    /// Run > Run sweep…
    void addActions(QMenu* run);
    /// Plans and runs a sweep file in the Sweep tab; false (shown) while another sweep runs.
    bool runSweep(const QString& sweepPath, int jobs = 2);
    /// "Sweep this setting…": asks for the values, writes a sweep file beside the project and
    /// runs it. A project never saved, or changed since, is offered to be saved first (a sweep
    /// runs the file). Returns the sweep file, empty when nothing was started.
    QString sweepSetting(const QString& keyPath, const QString& label, const QString& current);

    /// "Apply to project": the open project takes the point's settings (the sweep's set: values
    /// and its coordinates) as one undoable step; the other settings stay as they are. False
    /// (reported) when the point's settings do not fit the project.
    bool applyPoint(size_t point);

    /// Another project is open (its runs list attached): a sweep of a previous project's
    /// database is cancelled and the Sweep tab cleared.
    void projectOpened();

    SweepController* controller() const { return m_controller; }
    widgets::SweepView* view() const { return m_view; }

private:
    /// Whether the open project's runs list is the database the sweep stores into.
    bool storesHere() const;
    void compareSelected(const QList<int>& ids);

    Window m_window;
    WorkspaceTabs* m_tabs;
    ProjectDocument* m_document;
    RunStoreController* m_store;
    ErrorReporter* m_errors;
    widgets::SweepView* m_view = nullptr;
    SweepController* m_controller = nullptr;
};

} // namespace astrolabe::gui
