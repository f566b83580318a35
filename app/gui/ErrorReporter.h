#pragma once
// How the window reports an error: a log line, its first line in the status bar, a non-modal
// message box, and, when the error names a setting of the open project, a jump to that
// setting's editor (focused again once the box is closed).

#include <QObject>
#include <functional>

class QStatusBar;
class QWidget;

namespace astrolabe::widgets {
class LogModel;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class WorkspaceTabs;

class ErrorReporter : public QObject {
    Q_OBJECT
public:
    /// All observed, not owned; `window` parents the message boxes. `canJump` says whether a
    /// project is open (whose settings an error may name).
    ErrorReporter(QWidget* window, widgets::LogModel* log, QStatusBar* status, WorkspaceTabs* tabs,
                  std::function<bool()> canJump);

public slots:
    void report(const QString& title, const QString& message, const QString& keyPath = {});

private:
    QWidget* m_window;
    widgets::LogModel* m_log;
    QStatusBar* m_status;
    WorkspaceTabs* m_tabs;
    std::function<bool()> m_canJump;
};

} // namespace astrolabe::gui
