#include "gui/WorkspacePages.h"

#include "compare/CompareView.h"
#include "config/QuantityEdit.h"
#include "core/Units.h"
#include "gui/Counted.h"
#include "gui/TimelinePage.h"
#include "serving/ServingCodec.h"
#include "serving/ServingCompare.h"
#include "serving/ServingRun.h"
#include "spec/AlgorithmLists.h"
#include "topology/TopologyEditor.h"
#include "utilization/UtilizationView.h"

#include <QApplication>
#include <QLabel>
#include <QPointer>
#include <QShowEvent>
#include <QSplitter>
#include <QThreadPool>
#include <QVBoxLayout>
#include <type_traits>

namespace astrolabe::gui {

namespace {

/// The platform editor. It records its edits (named, e.g. "Add Ring dimension") on the project's
/// undo stack itself; each change of its platform or of its memory tier, by an edit or by
/// undo/redo of one, is copied into the project without recording it twice. A platform or memory
/// changed elsewhere (open, an undo of a configuration edit) goes back into the editor without
/// touching the history.
class TopologyPage : public WorkspacePage {
public:
    TopologyPage(QWidget* parent, QUndoStack* undoStack)
        : WorkspacePage(parent)
        , m_editor(new widgets::TopologyEditor(undoStack, this)) {
        auto* layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_editor);
        connect(m_editor, &widgets::TopologyEditor::sweepRequested, this,
                &WorkspacePage::sweepRequested);
        connect(m_editor, &widgets::TopologyEditor::platformChanged, this, [this] {
            const PlatformSpec platform = m_editor->platform();
            if (platform == m_shown)
                return;
            m_shown = platform;
            emit editRecorded(
                widgets::SpecEdit{QStringLiteral("platform.dimensions"), tr("Edit the platform"),
                                  [platform](SimulationSpec& spec) {
                                      // A dimension dragged in gets its block's algorithm.
                                      followPlatformEdit(spec.system, spec.platform, platform);
                                      const std::string source = spec.platform.sourceFile;
                                      spec.platform = platform;
                                      spec.platform.sourceFile = source;
                                  },
                                  true});
        });
        connect(m_editor, &widgets::TopologyEditor::memoryChanged, this, [this] {
            const RemoteMemoryConfig memory = m_editor->memory();
            if (memory == m_shownMemory)
                return;
            m_shownMemory = memory;
            emit editRecorded(
                widgets::SpecEdit{QStringLiteral("memory"), tr("Edit the memory tier"),
                                  [memory](SimulationSpec& spec) { spec.memory = memory; }, true});
        });
    }
    void setSpec(const SimulationSpec& spec) override {
        if (spec.memory != m_shownMemory) {
            m_shownMemory = spec.memory;
            m_editor->setMemory(spec.memory);
        }
        if (spec.platform == m_shown)
            return;
        m_shown = spec.platform;
        m_editor->showPlatform(spec.platform);
    }

private:
    widgets::TopologyEditor* m_editor;
    PlatformSpec m_shown;
    RemoteMemoryConfig m_shownMemory;
};

/// A view of one run's result (timeline or utilization): shows the selected run, or says how
/// to get one.
template <typename View> class RunResultPage : public WorkspacePage {
public:
    RunResultPage(PlaceholderPage::Content content, QWidget* parent)
        : WorkspacePage(parent)
        , m_view(new View(this))
        , m_empty(new PlaceholderPage(content, this)) {
        auto* layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_empty);
        layout->addWidget(m_view);
        m_view->setVisible(false);
        if constexpr (std::is_same_v<View, widgets::UtilizationView>)
            connect(m_view, &widgets::UtilizationView::congestionAwareRunRequested, this, [this] {
                SimulationSpec spec = m_spec;
                spec.options.backend = NetworkBackend::CongestionAware;
                emit runRequested(spec, tr("congestion-aware"));
            });
    }
    void showRun(const RunRecord* run) override {
        const bool show = run && run->result;
        if (show && run->result != m_result) {
            m_result = run->result;
            m_spec = run->spec;
            m_stale = true;
        }
        m_empty->showRun(run);
        m_empty->setVisible(!show);
        m_view->setVisible(show);
        refresh();
    }

protected:
    void showEvent(QShowEvent* event) override {
        WorkspacePage::showEvent(event);
        refresh();
    }

private:
    /// The view takes a new result only once its tab is the current one: a run loaded while
    /// another tab is shown costs the GUI thread nothing here (the utilization tables and
    /// charts of a 2-million-interval run take tens of milliseconds).
    void refresh() {
        if (m_stale && m_result && isVisibleTo(window())) {
            m_stale = false;
            if constexpr (std::is_same_v<View, widgets::UtilizationView>)
                m_view->setResult(m_result, m_spec.platform, &m_spec.system);
            else
                m_view->setResult(m_result, m_spec.platform);
        }
    }

    View* m_view;
    PlaceholderPage* m_empty;
    std::shared_ptr<const RunResult> m_result;
    bool m_stale = false;  ///< m_result is not in the view yet
    SimulationSpec m_spec; ///< the shown run's settings
};

/// Runs side by side (widgets::CompareView), fed by "Compare selected" in the runs list. When
/// the compared runs are serving runs, their percentiles, goodput and overlaid CDFs show below
/// (widgets::ServingCompareView), decoded on a worker thread.
class ComparePage : public WorkspacePage {
public:
    explicit ComparePage(QWidget* parent)
        : WorkspacePage(parent)
        , m_view(new widgets::CompareView(this))
        , m_serving(new widgets::ServingCompareView(this)) {
        auto* layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* split = new QSplitter(Qt::Vertical, this);
        split->addWidget(m_view);
        split->addWidget(m_serving);
        layout->addWidget(split);
        m_serving->hide();
    }
    void compareRuns(const std::vector<const RunRecord*>& runs) override {
        widgets::CompareRuns list;
        std::vector<std::pair<QString, std::shared_ptr<const RunResult>>> served;
        for (const RunRecord* r : runs)
            if (r) {
                // Names repeat when one project is run again and again: "#3 Quick start", unless
                // the name already ends in its number ("2-D torus #3", the window's own runs).
                const QString number = QStringLiteral("#%1").arg(r->number > 0 ? r->number : r->id);
                const QString& stored = r->name;
                const QString name = stored.endsWith(QLatin1Char(' ') + number)
                                         ? stored
                                         : number + QLatin1Char(' ') + stored;
                list.push_back({name, r->spec, r->result});
                if (r->result)
                    served.emplace_back(name, r->result);
            }
        m_view->setRuns(std::move(list));
        const uint64_t request = ++m_request;
        QPointer<ComparePage> self(this);
        QThreadPool::globalInstance()->start([self, request, served] {
            std::vector<widgets::NamedServingRun> decoded;
            for (const auto& [name, result] : served) {
                try {
                    if (auto records = serving::servingRecordsOf(*result))
                        decoded.push_back({name, std::make_shared<const serving::ServingResult>(
                                                     std::move(*records))});
                } catch (const std::exception&) {
                    // A damaged record leaves that run out of the serving comparison.
                }
            }
            QMetaObject::invokeMethod(
                qApp,
                [self, request, decoded] {
                    if (!self || self->m_request != request)
                        return;
                    self->m_serving->setVisible(!decoded.empty());
                    self->m_serving->setRuns(decoded);
                },
                Qt::QueuedConnection);
        });
    }

private:
    widgets::CompareView* m_view;
    widgets::ServingCompareView* m_serving;
    uint64_t m_request = 0; ///< the latest comparison; older decodes are dropped
};

} // namespace

WorkspacePage* createTopologyPage(QWidget* parent, QUndoStack* undoStack) {
    return new TopologyPage(parent, undoStack);
}
WorkspacePage* createTimelinePage(QWidget* parent) {
    return new TimelinePage(parent);
}
WorkspacePage* createUtilizationPage(QWidget* parent) {
    return new RunResultPage<widgets::UtilizationView>(PlaceholderPage::Content::Utilization,
                                                       parent);
}
WorkspacePage* createComparePage(QWidget* parent) {
    return new ComparePage(parent);
}

PlaceholderPage::PlaceholderPage(Content content, QWidget* parent)
    : WorkspacePage(parent)
    , m_content(content)
    , m_detail(new QLabel(this)) {
    QString title, what;
    switch (content) {
    case Content::Topology:
        title = tr("Topology");
        what = tr("The platform: NPUs and the network that connects them, one building block "
                  "(ring, fully connected, switch) per dimension. The graphical editor will "
                  "appear here.");
        break;
    case Content::Timeline:
        title = tr("Timeline");
        what = tr("What every NPU did over time: compute, communication and waiting, one row "
                  "per NPU. Run the simulation, then pick a run in the Runs list.");
        break;
    case Content::Utilization:
        title = tr("Utilization");
        what = tr("How busy each link and dimension of the network was during a run.");
        break;
    case Content::Compare:
        title = tr("Compare");
        what = tr("Several runs side by side: what changed between them and how much faster or "
                  "slower it made them.");
        break;
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(32, 24, 32, 24);
    auto* heading = new QLabel(QStringLiteral("<h2>%1</h2><p>%2</p>").arg(title, what), this);
    heading->setWordWrap(true);
    heading->setTextFormat(Qt::RichText);
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setStyleSheet(QStringLiteral("QLabel { background: palette(base); border: 1px solid "
                                           "palette(mid); border-radius: 4px; padding: 12px; }"));
    layout->addWidget(heading);
    layout->addWidget(m_detail);
    layout->addStretch(1);
    m_detail->setVisible(false);
}

QString PlaceholderPage::detailText() const {
    return m_detail->text();
}

void PlaceholderPage::setSpec(const SimulationSpec& spec) {
    if (m_content != Content::Topology)
        return;
    QString text = tr("<b>%1</b> in %2:<ul>")
                       .arg(counted(spec.platform.npuCount(), tr("NPU"), tr("NPUs")),
                            counted(static_cast<long long>(spec.platform.dimensions.size()),
                                    tr("dimension"), tr("dimensions")));
    for (size_t d = 0; d < spec.platform.dimensions.size(); ++d) {
        const DimensionSpec& dim = spec.platform.dimensions[d];
        text += tr("<li>dimension %1: %2 of %3 NPUs, %4 and %5 per link</li>")
                    .arg(d)
                    .arg(QString::fromLatin1(blockKindName(dim.kind)))
                    .arg(dim.size)
                    .arg(widgets::QuantityEdit::format(widgets::QuantityEdit::Kind::Bandwidth,
                                                       dim.bandwidthBytesPerSecond))
                    .arg(QString::fromStdString(units::formatTime(
                        SimTime::fromNsRounded(dim.latencyNs), units::TimeSpelling::MicroSign)));
    }
    m_detail->setText(text + QStringLiteral("</ul>"));
    m_detail->setVisible(true);
}

void PlaceholderPage::showRun(const RunRecord* run) {
    if (m_content == Content::Topology)
        return;
    if (!run) {
        m_detail->setVisible(false);
        return;
    }
    QString text =
        tr("<b>%1</b> \u2014 %2").arg(run->name.toHtmlEscaped(), runStatusName(run->status));
    if (m_content == Content::Timeline && serving::isServingProject(run->spec)) {
        text += tr("<br>A serving run: its requests, iterations, time to first token and time "
                   "per output token are in the <b>Serving</b> tab, and the traffic between its "
                   "GPUs (KV-cache transfers, activations) in <b>Utilization</b>. Its GPUs run "
                   "no trace of their own, so there is no per-NPU timeline to show.");
    } else if (run->result) {
        const RunResult& r = *run->result;
        text += tr("<br>Simulated time: %1 on %4; %2 events in %3 s of wall time.")
                    .arg(QString::fromStdString(
                        units::formatTime(r.endTime, units::TimeSpelling::MicroSign)))
                    .arg(r.events)
                    .arg(run->wallSeconds, 0, 'f', 3)
                    .arg(counted(r.npuCount, tr("NPU"), tr("NPUs")));
        text += tr("<br>%1 activity intervals, %2 collective spans, %3 links recorded.")
                    .arg(std::max<uint64_t>(r.activities.size(), run->activityCount))
                    .arg(r.collectives.size())
                    .arg(r.links.size());
    } else if (run->status == RunStatus::Finished && !run->databasePath.isEmpty()) {
        text += tr("<br>Loading the result from the project database\u2026");
    } else if (!run->message.isEmpty()) {
        text += QStringLiteral("<br>") + run->message.toHtmlEscaped();
    }
    m_detail->setText(text);
    m_detail->setVisible(true);
}

} // namespace astrolabe::gui
