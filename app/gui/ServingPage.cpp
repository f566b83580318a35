#include "gui/ServingPage.h"

#include "serving/ServingCodec.h"
#include "serving/ServingView.h"

#include <QApplication>
#include <QLabel>
#include <QPointer>
#include <QThreadPool>
#include <QVBoxLayout>
#include <algorithm>

namespace astrolabe::gui {

ServingPage::ServingPage(QWidget* parent)
    : WorkspacePage(parent)
    , m_view(new widgets::ServingView(this))
    , m_empty(new QLabel(this)) {
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setText(hint());
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_empty);
    layout->addWidget(m_view, 1);
    m_view->hide();
}

QString ServingPage::hint() {
    return tr("Select a serving run to see its requests. A project with a serving: section runs "
              "as serving (Run, or astrolabe-cli serve).");
}

QString ServingPage::message() const {
    return m_empty->isVisibleTo(this) ? m_empty->text() : QString();
}

void ServingPage::showRun(const RunRecord* run) {
    const std::shared_ptr<const RunResult> result = run ? run->result : nullptr;
    if (result == m_result)
        return;
    m_result = result;
    ++m_request;
    const bool serving =
        result && std::any_of(result->attachments.begin(), result->attachments.end(),
                              [](const auto& a) { return a.first == serving::kServingAttachment; });
    if (!serving) {
        m_pending = false;
        m_view->setResult(nullptr);
        m_view->hide();
        m_empty->setText(hint()); // not the last serving run's "Reading…" or error
        m_empty->show();
        return;
    }
    m_pending = true;
    m_view->setProject(run->spec);
    m_empty->setText(tr("Reading the run's requests…"));
    QPointer<ServingPage> self(this);
    const uint64_t request = m_request;
    QThreadPool::globalInstance()->start([self, request, result] {
        std::shared_ptr<const serving::ServingResult> records;
        QString error;
        try {
            if (auto decoded = serving::servingRecordsOf(*result))
                records = std::make_shared<const serving::ServingResult>(std::move(*decoded));
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(
            qApp,
            [self, request, records, error] {
                if (!self || self->m_request != request)
                    return;
                self->m_pending = false;
                if (!records) {
                    self->m_empty->setText(tr("Cannot read this run's requests: %1").arg(error));
                    return;
                }
                self->m_view->setResult(records);
                self->m_empty->hide();
                self->m_view->show();
                emit self->recordsReady();
            },
            Qt::QueuedConnection);
    });
}

} // namespace astrolabe::gui
