#include "gui/ErrorReporter.h"

#include "common/ErrorBox.h"
#include "common/LogModel.h"
#include "gui/WorkspaceTabs.h"

#include <QMessageBox>
#include <QStatusBar>

namespace astrolabe::gui {

ErrorReporter::ErrorReporter(QWidget* window, widgets::LogModel* log, QStatusBar* status,
                             WorkspaceTabs* tabs, std::function<bool()> canJump)
    : QObject(window)
    , m_window(window)
    , m_log(log)
    , m_status(status)
    , m_tabs(tabs)
    , m_canJump(std::move(canJump)) {}

void ErrorReporter::report(const QString& title, const QString& message, const QString& keyPath) {
    m_log->append(widgets::LogModel::Severity::Error, message);
    // The first line only, the box has the rest; a line that only leads in ("#2 failed:") takes
    // the next one with it.
    QString line = message.section(u'\n', 0, 0);
    if (line.endsWith(u':'))
        line += u' ' + message.section(u'\n', 1, 1).trimmed();
    m_status->showMessage(widgets::elideErrorLine(line), 10000);
    const bool jumped = !keyPath.isEmpty() && m_canJump() && m_tabs->focusSetting(keyPath);
    // Not modal: a long message must not stop runs or the event loop.
    QMessageBox* box = widgets::createErrorBox(m_window, title, message);
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (jumped) { // back to the offending field once the message is read
        box->setInformativeText(tr("The setting is highlighted in the Configuration tab."));
        connect(box, &QDialog::finished, m_tabs,
                [tabs = m_tabs, keyPath] { tabs->refocusSetting(keyPath); });
    }
    box->open();
}

} // namespace astrolabe::gui
