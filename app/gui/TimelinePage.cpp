#include "gui/TimelinePage.h"

#include "gui/ScheduleFiles.h"
#include "serving/ServingRun.h"
#include "tacos/Evaluate.h"
#include "tacos/SchedulePanel.h"
#include "timeline/DatabaseTimelineSource.h"
#include "timeline/RunResultTimelineSource.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QPointer>
#include <QSplitter>
#include <QThreadPool>
#include <QVBoxLayout>

namespace astrolabe::gui {

TimelinePage::TimelinePage(QWidget* parent)
    : WorkspacePage(parent)
    , m_view(new widgets::TimelineView(this))
    , m_empty(new PlaceholderPage(PlaceholderPage::Content::Timeline, this)) {
    auto* timeline = new QWidget(this);
    auto* column = new QVBoxLayout(timeline);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(m_empty);
    column->addWidget(m_view);
    m_view->setVisible(false);
    m_schedule = new widgets::SchedulePanel(this);
    m_schedule->setVisible(false);
    // The schedule follows the timeline's cursor (pressed or dragged on the time axis).
    connect(m_view->timeline(), &widgets::TimelineWidget::cursorMoved, m_schedule,
            &widgets::SchedulePanel::setCursorTime);
    connect(m_schedule, &widgets::SchedulePanel::useRequested, this, [this] { useSchedule(); });
    connect(m_schedule, &widgets::SchedulePanel::saveRequested, this, [this] {
        const QString folder = QFileInfo(QString::fromStdString(m_spec.sourceFile)).absolutePath();
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save TACOS Schedule"), folder + QStringLiteral("/tacos.xml"),
            tr("MSCCL-IR XML (*.xml);;Chakra ET files, by prefix (*)"));
        if (!path.isEmpty())
            saveSchedule(path);
    });
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(timeline);
    split->addWidget(m_schedule);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

void TimelinePage::setSpec(const SimulationSpec& spec) {
    m_spec = spec;
    const std::optional<GraphSpec>& graph = spec.platform.graph;
    m_schedule->setVisible(graph.has_value());
    if (!graph)
        return;
    SynthesisOptions options; // a 1 MiB all-reduce unless the project's collective is one
    std::string custom;       // the project's own algorithm for that collective, if it has one
    const MicrobenchmarkSpec& micro = spec.workload.microbenchmark;
    if (spec.workload.kind == WorkloadSource::Kind::Microbenchmark && micro.sizeBytes > 0) {
        // Chakra's numbering (SimulationSpec.h): 0 all-reduce, 2 all-gather, 7 reduce-scatter.
        if (micro.collective == 0 || micro.collective == 2 || micro.collective == 7) {
            options.kind = micro.collective == 0   ? SynthesisKind::AllReduce
                           : micro.collective == 2 ? SynthesisKind::AllGather
                                                   : SynthesisKind::ReduceScatter;
            options.bytes = micro.sizeBytes;
            custom = micro.collective == 0   ? spec.system.customAllReduce
                     : micro.collective == 2 ? spec.system.customAllGather
                                             : spec.system.customReduceScatter;
        }
    }
    m_schedule->setProblem(*graph, options, custom);
}

QString TimelinePage::useSchedule() {
    const Schedule* schedule = m_schedule->schedule();
    if (!schedule)
        return {};
    if (m_spec.sourceFile.empty()) {
        m_schedule->status()->setText(
            tr("Save the project first: the schedule is written beside its file."));
        return {};
    }
    std::string source;
    try {
        source = writeScheduleBesideProject(*schedule, m_spec.sourceFile);
    } catch (const std::exception& e) {
        m_schedule->status()->setText(tr("Cannot write the schedule: %1").arg(e.what()));
        return {};
    }
    const SynthesisKind kind = schedule->kind;
    SimulationSpec spec = m_spec;
    setCustomSource(spec, kind, source);
    emit editRequested(widgets::SpecEdit{
        QStringLiteral("system.custom-algorithms"),
        tr("Use the TACOS schedule for %1").arg(QString::fromLatin1(synthesisKindName(kind))),
        [kind, source](SimulationSpec& s) { setCustomSource(s, kind, source); }, false});
    emit runRequested(spec, tr("TACOS"));
    return QString::fromStdString(source);
}

bool TimelinePage::saveSchedule(const QString& path) {
    const Schedule* schedule = m_schedule->schedule();
    if (!schedule)
        return false;
    try {
        const std::string written = writeScheduleFiles(*schedule, path.toStdString());
        m_schedule->status()->setText(path.endsWith(QStringLiteral(".xml"))
                                          ? tr("Saved %1.").arg(QString::fromStdString(written))
                                          : tr("Saved %1.0.et to %1.%2.et.")
                                                .arg(QString::fromStdString(written))
                                                .arg(schedule->npus - 1));
        return true;
    } catch (const std::exception& e) {
        m_schedule->status()->setText(tr("Cannot save the schedule: %1").arg(e.what()));
        return false;
    }
}

void TimelinePage::showRun(const RunRecord* run) {
    // A serving run's GPUs run no trace of their own: its timeline would be rows of idle time
    // and "no critical path". The placeholder says where its figures are instead.
    const bool show = run && run->result && !serving::isServingProject(run->spec);
    if (show && run->result != m_result) {
        m_result = run->result;
        ++m_request;
        // A result with fewer activities than stored was loaded without its timeline (with at
        // most the critical path's NPU, RunStoreController's loadForViews).
        m_fromDatabase =
            run->result->activities.size() < run->activityCount && !run->databasePath.isEmpty();
        m_pending = true;
        // Indexing a result (sorting, colour keys, millions of phase spans) takes tens of
        // milliseconds: the source is built on a worker and shown when ready; the run's summary
        // stays up meanwhile.
        std::vector<int> sizes;
        for (const DimensionSpec& d : run->spec.platform.dimensions)
            sizes.push_back(d.size);
        QPointer<TimelinePage> self(this);
        const uint64_t request = m_request;
        const std::string path = m_fromDatabase ? run->databasePath.toStdString() : std::string();
        QThreadPool::globalInstance()->start(
            [self, request, sizes, path, id = run->id, result = run->result] {
                std::shared_ptr<const widgets::TimelineSource> source;
                if (path.empty())
                    source = std::make_shared<widgets::RunResultTimelineSource>(result);
                else
                    source = std::make_shared<widgets::DatabaseTimelineSource>(path, id, result);
                // qApp outlives every page; the page may be gone by then (QPointer).
                QMetaObject::invokeMethod(
                    qApp,
                    [self, request, sizes, source] {
                        if (!self || self->m_request != request)
                            return;
                        self->m_pending = false;
                        self->m_view->setSource(source, sizes);
                        self->updateVisibility();
                        emit self->sourceReady();
                    },
                    Qt::QueuedConnection);
            });
    }
    m_shown = show;
    m_empty->showRun(run);
    updateVisibility();
}

void TimelinePage::updateVisibility() {
    const bool view = m_shown && !m_pending;
    m_empty->setVisible(!view);
    m_view->setVisible(view);
}

} // namespace astrolabe::gui
