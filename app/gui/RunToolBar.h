#pragma once
// The Run tool bar: Run and Stop, a busy indicator while a run goes and one line about the
// current (or last) run. It shows a RunSession; Run is enabled while a project is open, Stop
// while a run goes or waits.

#include <QToolBar>

class QLabel;
class QProgressBar;

namespace astrolabe::gui {

class RunSession;

class RunToolBar : public QToolBar {
    Q_OBJECT
public:
    /// `session` is observed, not owned.
    explicit RunToolBar(RunSession* session, QWidget* parent = nullptr);

    QAction* runAction() const { return m_run; }
    QAction* stopAction() const { return m_stop; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* progressLabel() const { return m_label; }

    void setProjectOpen(bool open);
    /// Enables Run and Stop after the project or the session changed.
    void updateActions();

signals:
    /// Run was triggered (the window checks the settings before it starts a run).
    void runRequested();

private:
    RunSession* m_session;
    bool m_projectOpen = false;
    QAction* m_run;
    QAction* m_stop;
    QProgressBar* m_progress;
    QAction* m_progressAction;
    QLabel* m_label;
};

} // namespace astrolabe::gui
