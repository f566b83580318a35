#pragma once
// The Bandwidth tab's wiring: LIBRA's bandwidth allocation (docs/libra.md) for the open project.
// "Optimize" runs engine/optimize's paretoFront on the project's spec off the GUI thread (one
// thread; a newer request waits for the running one, closing cancels it between simulations);
// the front arrives by queued call. "Apply selected" sets the platform's bandwidths as one
// undoable step of the project's history. MainWindow owns one.

#include <QObject>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

class QMenu;

namespace astrolabe::widgets {
class BandwidthOptimizerView;
}

namespace astrolabe::gui {

class ErrorReporter;
class ProjectDocument;
class WorkspaceTabs;

class BandwidthOptimizerSession : public QObject {
    Q_OBJECT
public:
    /// Adds the Bandwidth tab to `tabs`.
    BandwidthOptimizerSession(WorkspaceTabs* tabs, ProjectDocument* document, ErrorReporter* errors,
                              QObject* parent);
    ~BandwidthOptimizerSession() override; ///< cancels a running optimization and waits

    /// Run > Optimize bandwidth…: shows the tab.
    void addActions(QMenu* run);
    /// Optimizes the open project for `totalGBps` per NPU over `points` budgets, under the
    /// floors, ceilings and budget given in the tab; false while another optimization runs, or
    /// when the constraints cannot hold (reported, `finished(false)` emitted).
    bool optimize(double totalGBps, int points);
    /// Sets the platform's bandwidths (GB/s per dimension) as one undoable step.
    void apply(const std::vector<double>& gbps);
    bool isRunning() const { return m_running; }
    widgets::BandwidthOptimizerView* view() const { return m_view; }

signals:
    /// The front is on screen (or the optimization failed: `ok` false).
    void finished(bool ok);

private:
    void showPlatform();

    WorkspaceTabs* m_tabs;
    ProjectDocument* m_document;
    ErrorReporter* m_errors;
    widgets::BandwidthOptimizerView* m_view = nullptr;
    std::thread m_thread;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_running = false;
    QStringList m_dimensions;
};

} // namespace astrolabe::gui
