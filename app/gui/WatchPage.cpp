#include "gui/WatchPage.h"

#include "timeline/RunResultTimelineSource.h"
#include "timeline/TimelineWidget.h"
#include "topology/CollectiveAnimationView.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace astrolabe::gui {

WatchPage::WatchPage(QWidget* parent)
    : WorkspacePage(parent)
    , m_status(new QLabel(this))
    , m_record(new QPushButton(tr("Record and watch"), this))
    , m_animation(new widgets::CollectiveAnimationView(this))
    , m_timeline(new widgets::TimelineWidget(this)) {
    setObjectName(QStringLiteral("watchPage"));
    m_status->setWordWrap(true);
    m_record->setToolTip(tr("Run the shown run again (the project, when no run is shown), "
                            "recording every message of its collectives, and watch them here"));
    auto* top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_record);
    // Below the drawing the timeline may be as low as its axis and a row or two (its own tab's
    // minimum, 200 px, would take the drawing's room at large interface scales).
    m_timeline->setMinimumHeight(100);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(m_animation);
    m_splitter->addWidget(m_timeline);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_splitByUser = true; });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_splitter, 1);

    connect(m_record, &QPushButton::clicked, this, &WatchPage::requestRecording);
    // The two-way link: neither setter emits when nothing changes, so the pair settles.
    connect(m_timeline, &widgets::TimelineWidget::cursorMoved, m_animation,
            &widgets::CollectiveAnimationView::setTime);
    connect(m_animation, &widgets::CollectiveAnimationView::timeChanged, this, [this](qint64 ps) {
        m_timeline->setCursorTime(ps);
        emit timeChanged(ps);
    });
    showRun(nullptr);
}

void WatchPage::resizeEvent(QResizeEvent* event) {
    WorkspacePage::resizeEvent(event);
    // The drawing has four fifths of the split at any size and interface scale (the timeline's
    // rows grow with the font and would otherwise take the drawing's room), unless the user
    // dragged the handle.
    if (m_splitByUser)
        return;
    const int total = m_splitter->height() - m_splitter->handleWidth();
    if (total > 0)
        m_splitter->setSizes({total * 4 / 5, total - total * 4 / 5});
}

void WatchPage::setSpec(const SimulationSpec& spec) {
    m_spec = spec;
    updateRecordButton();
}

void WatchPage::updateRecordButton() {
    const int64_t npus = recordedSpec().platform.npuCount();
    m_record->setEnabled(npus > 0 && npus <= kMaxRecordedNpus);
}

void WatchPage::setTime(qint64 ps) {
    m_animation->setTime(ps);
}

void WatchPage::requestRecording() {
    SimulationSpec spec = recordedSpec();
    spec.options.recordTransfers = true;
    emit runRequested(spec, tr("recorded"));
}

void WatchPage::showRun(const RunRecord* run) {
    if (run && run->spec.platform.npuCount() > 0)
        m_runSpec = run->spec;
    else
        m_runSpec.reset();
    updateRecordButton();
    const bool recorded = run && run->result && !run->result->transfers.empty();
    if (!recorded) {
        m_shown.reset();
        m_status->setText(
            run ? tr("This run did not record its messages. Press Record and watch to run it "
                     "again with the recorder on.")
                : tr("Press Record and watch to run the project with its collective messages "
                     "recorded, then watch them move over the network."));
        m_animation->setRun(m_spec.platform, nullptr);
        m_timeline->setSource(nullptr, {}); // nothing of a run no longer shown
        return;
    }
    if (run->result == m_shown)
        return;
    m_shown = run->result;
    const RunResult& r = *m_shown;
    m_status->setText(
        tr("%1: %2 messages over %3 NPUs. Colours are pieces of the data; a red ring marks an NPU "
           "reducing what it received. Press or drag on the timeline's axis to move the cursor.")
            .arg(run->name)
            .arg(r.transfers.size())
            .arg(r.npuCount));
    m_animation->setRun(run->spec.platform, m_shown);
    std::vector<int> sizes;
    for (const DimensionSpec& d : run->spec.platform.dimensions)
        sizes.push_back(d.size);
    m_timeline->setSource(std::make_shared<widgets::RunResultTimelineSource>(m_shown), sizes);
    m_timeline->setCursorTime(m_animation->time().ps());
}

} // namespace astrolabe::gui
