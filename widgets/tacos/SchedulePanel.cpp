#include "tacos/SchedulePanel.h"

#include "core/Units.h"
#include "tacos/ScheduleRecognition.h"
#include "tacos/ScheduleView.h"

#include <QApplication>
#include <QHBoxLayout>
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
    , m_use(new QPushButton(tr("Use and Run"), this))
    , m_save(new QPushButton(tr("Save…"), this))
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
    m_use->setToolTip(tr("Write the schedule as MSCCL-IR XML beside the project, make it the "
                         "project's custom algorithm for this collective, and run the project"));
    m_save->setToolTip(tr("Write the schedule as MSCCL-IR XML or as Chakra ET files (one per "
                          "NPU), to run elsewhere or to name in custom-algorithms"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_synthesize);
    buttons->addWidget(m_use);
    buttons->addWidget(m_save);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    layout->addWidget(m_view, 1);
    m_view->setVisible(false);
    m_use->setEnabled(false);
    m_save->setEnabled(false);
    connect(m_synthesize, &QPushButton::clicked, this, &SchedulePanel::synthesize);
    connect(m_use, &QPushButton::clicked, this, &SchedulePanel::useRequested);
    connect(m_save, &QPushButton::clicked, this, &SchedulePanel::saveRequested);
}

void SchedulePanel::setProblem(const GraphSpec& graph, const SynthesisOptions& options,
                               const std::string& customSource) {
    if (m_graph && *m_graph == graph && m_options.kind == options.kind &&
        m_options.bytes == options.bytes && m_options.chunksPerNpu == options.chunksPerNpu &&
        m_customSource == customSource)
        return;
    m_graph = graph;
    m_options = options;
    m_customSource = customSource;
    m_customRecognized.reset();
    ++m_request;
    m_hasSchedule = false;
    m_scheduleShown.reset();
    m_view->setVisible(false);
    m_synthesize->setEnabled(true);
    m_use->setEnabled(false);
    m_save->setEnabled(false);
    m_status->setText(tr("%1 of %2 on this graph: not synthesized yet.")
                          .arg(QString::fromLatin1(synthesisKindName(options.kind)),
                               QString::fromStdString(units::formatSize(options.bytes))));
    if (!customSource.empty())
        m_status->setText(m_status->text() +
                          tr(" The project runs it from custom-algorithms %1; Synthesize checks "
                             "whether that is this graph's exported TACOS schedule.")
                              .arg(QString::fromStdString(customSource)));
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
    QThreadPool::globalInstance()->start(
        [self, request, graph = *m_graph, options = m_options, source = m_customSource] {
            auto schedule = std::make_shared<Schedule>();
            QString error;
            std::optional<bool> recognized;
            QString note;
            if (!source.empty()) {
                ScheduleRecognition r = recognizeExportedSchedule(graph, options, source);
                recognized = r.recognized;
                const QString file = QString::fromStdString(source);
                if (r.recognized) {
                    *schedule = std::move(r.schedule);
                    note = tr("The project runs this schedule: %1 is the exported TACOS schedule "
                              "of this graph (%2), node for node.")
                               .arg(file, QString::fromStdString(units::countOf(
                                              static_cast<uint64_t>(schedule->chunksPerNpu),
                                              "chunk per NPU", "chunks per NPU")));
                } else {
                    note = tr("The project runs %1, which is not this graph's exported TACOS "
                              "schedule (%2). Below: TACOS synthesized afresh.")
                               .arg(file, QString::fromStdString(r.reason));
                }
            }
            try {
                if (!recognized.value_or(false))
                    *schedule = astrolabe::synthesize(graph, options);
            } catch (const std::exception& e) {
                error = QString::fromUtf8(e.what());
            }
            // qApp outlives every panel; the panel may be gone by then (QPointer).
            QMetaObject::invokeMethod(
                qApp,
                [self, request, schedule, error, recognized, note] {
                    if (!self || self->m_request != request)
                        return;
                    self->m_synthesize->setEnabled(true);
                    self->m_customRecognized = recognized;
                    if (!error.isEmpty()) {
                        self->m_status->setText(tr("Cannot synthesize: %1").arg(error));
                        emit self->failed(error);
                        return;
                    }
                    self->m_view->setSchedule(*schedule);
                    self->m_view->setVisible(true);
                    self->m_hasSchedule = true;
                    self->m_scheduleShown = schedule;
                    self->m_save->setEnabled(true);
                    self->m_use->setEnabled(!recognized.value_or(false)); // already runs it
                    self->m_status->setText(note);
                    if (self->m_cursorPs)
                        self->m_view->setCursorTime(*self->m_cursorPs);
                    emit self->scheduleShown();
                },
                Qt::QueuedConnection);
        });
}

} // namespace astrolabe::widgets
