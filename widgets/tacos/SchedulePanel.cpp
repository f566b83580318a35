#include "tacos/SchedulePanel.h"

#include "core/Units.h"
#include "tacos/ScheduleView.h"

#include <QApplication>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QThreadPool>
#include <QVBoxLayout>
#include <exception>
#include <memory>

namespace astrolabe::widgets {

SchedulePanel::SchedulePanel(QWidget* parent)
    : QWidget(parent)
    , m_synthesize(new QPushButton(tr("Synthesize"), this))
    , m_status(new QLabel(this))
    , m_view(new ScheduleView(this)) {
    m_synthesize->setToolTip(tr("Synthesize the project's collective with TACOS for this graph "
                                "and show which chunk crosses which link in which step"));
    m_status->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(tr("<b>TACOS schedule</b>"), this);
    layout->addWidget(title);
    layout->addWidget(m_status);
    layout->addWidget(m_synthesize, 0, Qt::AlignLeft);
    layout->addWidget(m_view, 1);
    m_view->setVisible(false);
    connect(m_synthesize, &QPushButton::clicked, this, &SchedulePanel::synthesize);
}

void SchedulePanel::setProblem(const GraphSpec& graph, const SynthesisOptions& options) {
    if (m_graph && *m_graph == graph && m_options.kind == options.kind &&
        m_options.bytes == options.bytes && m_options.chunksPerNpu == options.chunksPerNpu)
        return;
    m_graph = graph;
    m_options = options;
    ++m_request;
    m_hasSchedule = false;
    m_view->setVisible(false);
    m_synthesize->setEnabled(true);
    m_status->setText(tr("%1 of %2 on this graph: not synthesized yet.")
                          .arg(QString::fromLatin1(synthesisKindName(options.kind)),
                               QString::fromStdString(units::formatSize(options.bytes))));
}

void SchedulePanel::setCursorTime(qint64 ps) {
    m_cursorPs = ps;
    if (m_hasSchedule)
        m_view->setCursorTime(ps);
}

void SchedulePanel::synthesize() {
    if (!m_graph)
        return;
    const uint64_t request = ++m_request;
    m_synthesize->setEnabled(false);
    m_status->setText(tr("Synthesizing…"));
    QPointer<SchedulePanel> self(this);
    QThreadPool::globalInstance()->start([self, request, graph = *m_graph, options = m_options] {
        auto schedule = std::make_shared<Schedule>();
        QString error;
        try {
            *schedule = astrolabe::synthesize(graph, options);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        // qApp outlives every panel; the panel may be gone by then (QPointer).
        QMetaObject::invokeMethod(
            qApp,
            [self, request, schedule, error] {
                if (!self || self->m_request != request)
                    return;
                self->m_synthesize->setEnabled(true);
                if (!error.isEmpty()) {
                    self->m_status->setText(tr("Cannot synthesize: %1").arg(error));
                    emit self->failed(error);
                    return;
                }
                self->m_view->setSchedule(*schedule);
                self->m_view->setVisible(true);
                self->m_hasSchedule = true;
                self->m_status->clear();
                if (self->m_cursorPs)
                    self->m_view->setCursorTime(*self->m_cursorPs);
                emit self->scheduleShown();
            },
            Qt::QueuedConnection);
    });
}

} // namespace astrolabe::widgets
