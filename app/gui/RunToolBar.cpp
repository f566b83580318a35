#include "gui/RunToolBar.h"

#include "gui/RunSession.h"

#include <QAction>
#include <QLabel>
#include <QProgressBar>
#include <QStyle>

namespace astrolabe::gui {

RunToolBar::RunToolBar(RunSession* session, QWidget* parent)
    : QToolBar(tr("Run"), parent)
    , m_session(session) {
    setObjectName(QStringLiteral("runToolBar"));
    setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_run = addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"));
    m_run->setShortcut(Qt::Key_F5);
    m_run->setToolTip(tr("Run the simulation with the current settings (F5). Runs started "
                         "while another is running wait in a queue."));
    connect(m_run, &QAction::triggered, this, &RunToolBar::runRequested);
    m_stop = addAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Stop"));
    m_stop->setShortcut(Qt::SHIFT | Qt::Key_F5);
    m_stop->setToolTip(tr("Stop the running simulation and drop the queued ones"));
    connect(m_stop, &QAction::triggered, m_session, &RunSession::stop);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(180);
    m_progress->setTextVisible(false);
    m_progress->setRange(0, 0); // busy: the end time is unknown until the run ends
    // Hidden while idle; a tool bar shows and hides its widgets through their actions.
    m_progressAction = addWidget(m_progress);
    m_progressAction->setVisible(false);
    m_label = new QLabel(this);
    m_label->setContentsMargins(8, 0, 8, 0);
    m_label->setMinimumWidth(360);
    addWidget(m_label);
    connect(m_session, &RunSession::progressVisibleChanged, m_progressAction, &QAction::setVisible);
    connect(m_session, &RunSession::progressTextChanged, m_label, &QLabel::setText);
    connect(m_session, &RunSession::stateChanged, this, &RunToolBar::updateActions);
    updateActions();
}

void RunToolBar::setProjectOpen(bool open) {
    m_projectOpen = open;
    updateActions();
}

void RunToolBar::updateActions() {
    m_run->setEnabled(m_projectOpen);
    m_stop->setEnabled(m_session->isActive());
}

} // namespace astrolabe::gui
