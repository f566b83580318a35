#include "gui/BandwidthOptimizerSession.h"

#include "core/Error.h"
#include "core/Units.h"
#include "gui/ErrorReporter.h"
#include "gui/ProjectDocument.h"
#include "gui/WorkspaceTabs.h"
#include "optimize/BandwidthOptimizer.h"
#include "optimize/BandwidthOptimizerView.h"
#include "optimize/SimulatedIterationTime.h"

#include <QMenu>
#include <QScrollArea>
#include <QTabBar>

namespace astrolabe::gui {

BandwidthOptimizerSession::BandwidthOptimizerSession(WorkspaceTabs* tabs, ProjectDocument* document,
                                                     ErrorReporter* errors, QObject* parent)
    : QObject(parent)
    , m_tabs(tabs)
    , m_document(document)
    , m_errors(errors) {
    // In a scroll area, as the Workload tab: at 200 % presentation scale the request rows, the
    // table and the chart are taller than a 1000-pixel screen.
    auto* scroll = new QScrollArea(tabs);
    scroll->setObjectName(QStringLiteral("bandwidthTab"));
    m_view = new widgets::BandwidthOptimizerView(scroll);
    scroll->setWidget(m_view);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    const int index = tabs->addTab(scroll, tr("Bandwidth"));
    tabs->tabBar()->setTabData(index, tr("BW"));    // its name under presentation zoom
    Q_ASSERT(index == WorkspaceTabs::BandwidthTab); // F1 help and the tests find it there
    tabs->setTabToolTip(index, tr("LIBRA: the bandwidth of each network dimension that "
                                  "minimizes the iteration time, and its cost"));
    connect(m_view, &widgets::BandwidthOptimizerView::optimizeRequested, this,
            [this](double total, int points) { optimize(total, points); });
    connect(m_view, &widgets::BandwidthOptimizerView::applyRequested, this,
            &BandwidthOptimizerSession::apply);
    connect(m_document, &ProjectDocument::specChanged, this,
            &BandwidthOptimizerSession::showPlatform);
    showPlatform();
}

BandwidthOptimizerSession::~BandwidthOptimizerSession() {
    if (m_cancel)
        *m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

void BandwidthOptimizerSession::addActions(QMenu* run) {
    run->addAction(tr("Optimize &bandwidth…"), this,
                   [this] { m_tabs->setCurrentIndex(WorkspaceTabs::BandwidthTab); });
}

void BandwidthOptimizerSession::showPlatform() {
    // A new platform shape starts over; a bandwidth edit (an applied point) keeps the front.
    const PlatformSpec& platform = m_document->spec().platform;
    QStringList labels;
    double total = 0;
    for (size_t d = 0; d < platform.dimensions.size(); ++d) {
        const DimensionSpec& dim = platform.dimensions[d];
        labels << tr("dim%1 %2 %3")
                      .arg(d)
                      .arg(QString::fromLatin1(blockKindName(dim.kind)))
                      .arg(dim.size);
        total += dim.bandwidthBytesPerSecond / 1e9;
    }
    if (labels == m_dimensions)
        return;
    m_dimensions = labels;
    m_view->setDimensions(labels, total > 0 ? total : 100.0);
}

bool BandwidthOptimizerSession::optimize(double totalGBps, int points) {
    if (m_running)
        return false;
    if (m_thread.joinable())
        m_thread.join(); // the previous run's thread, already past its last queued call
    // The problem is read from the tab here, on the GUI thread; one that cannot hold (floors
    // above the total or the budget, a floor above its ceiling) is said before anything runs.
    SimulationSpec spec = m_document->spec();
    optimize::AllocationProblem problem =
        optimize::defaultProblem(spec.platform, totalGBps, m_view->prices());
    m_view->constrain(problem);
    try {
        problem.validate();
    } catch (const Error& e) {
        const QString message = QString::fromStdString(e.message());
        m_view->setStatus(tr("The optimization could not run: %1").arg(message));
        m_errors->report(tr("Cannot Optimize Bandwidth"), message);
        emit finished(false);
        return false;
    }
    m_running = true;
    m_view->setRunning(true);
    m_view->setStatus(tr("Optimizing: about %1 simulations…").arg(points * 12));
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    if (const std::optional<MicrobenchmarkSpec> collective = m_view->workload()) {
        spec.workload = WorkloadSource{};
        spec.workload.kind = WorkloadSource::Kind::Microbenchmark;
        spec.workload.microbenchmark = *collective;
    }
    auto post = [this](auto call) {
        QMetaObject::invokeMethod(this, std::move(call), Qt::QueuedConnection);
    };
    m_thread = std::thread([this, spec, problem, points, cancel = m_cancel, post] {
        try {
            const optimize::IterationTime simulate = optimize::simulatedIterationTime(spec);
            const optimize::IterationTime time = [simulate,
                                                  cancel](const std::vector<double>& gbps) {
                if (*cancel)
                    throw Error(ErrorKind::Cancelled, "the optimization was cancelled");
                return simulate(gbps);
            };
            std::vector<optimize::EvaluatedAllocation> front =
                optimize::paretoFront(problem, optimize::equalAllocation(problem), time, points);
            post([this, front = std::move(front)]() mutable {
                m_running = false;
                m_view->setRunning(false);
                m_view->setStatus(
                    tr("Pareto front: %1 points, every one simulated. The last is the fastest "
                       "for the total; select one and Apply to set the platform's bandwidths.")
                        .arg(front.size()));
                m_view->setFront(std::move(front));
                emit finished(true);
            });
        } catch (const std::exception& e) {
            post([this, message = QString::fromStdString(e.what())] {
                m_running = false;
                m_view->setRunning(false);
                m_view->setStatus(tr("The optimization could not run: %1").arg(message));
                m_errors->report(tr("Cannot Optimize Bandwidth"), message);
                emit finished(false);
            });
        }
    });
    return true;
}

void BandwidthOptimizerSession::apply(const std::vector<double>& gbps) {
    QStringList values;
    for (double b : gbps)
        values << QString::number(b, 'f', 1);
    widgets::SpecEdit edit;
    edit.keyPath = QStringLiteral("platform.dimensions");
    edit.description = tr("Apply bandwidths %1 GB/s").arg(values.join(QLatin1Char('/')));
    edit.apply = [gbps](SimulationSpec& spec) {
        const PlatformSpec before = spec.platform;
        spec.platform = optimize::withGBps(spec.platform, gbps);
        // Each dimension keeps the unit family it was written in (GiB/s stays GiB/s), at four
        // significant digits: 31.8977 GB/s on a 50 GiB/s dimension becomes 29.71 GiB/s, within
        // 0.05 % of the optimizer's value and as short as the bandwidths a person types.
        for (size_t d = 0; d < spec.platform.dimensions.size(); ++d) {
            double& bytesPerSecond = spec.platform.dimensions[d].bandwidthBytesPerSecond;
            const units::Scale scale =
                units::bandwidthScale(bytesPerSecond, before.dimensions[d].bandwidthBytesPerSecond);
            bytesPerSecond =
                std::stod(units::formatPlain(bytesPerSecond / scale.factor, 4)) * scale.factor;
        }
    };
    m_document->applyEdit(edit);
}

} // namespace astrolabe::gui
