#pragma once
// The Serving tab: a serving run's request timeline, latency CDFs, throughput and KV occupancy,
// and replicas (widgets/serving/ServingView). The run's records (its "serving" attachment) are
// decoded on a worker thread; a run without them says what the tab needs.

#include "gui/WorkspacePages.h"

#include <memory>

class QLabel;

namespace astrolabe::widgets {
class ServingView;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class ServingPage : public WorkspacePage {
    Q_OBJECT
public:
    explicit ServingPage(QWidget* parent = nullptr);
    void showRun(const RunRecord* run) override;
    widgets::ServingView* view() const { return m_view; }
    /// False while the shown run's records are being decoded.
    bool isReady() const { return !m_pending; }
    /// The line shown instead of a serving run ("" while one is shown).
    QString message() const;
    /// What the tab says when the run shown is not a serving run.
    static QString hint();

signals:
    /// The shown run's records were decoded and are shown.
    void recordsReady();

private:
    widgets::ServingView* m_view;
    QLabel* m_empty;
    std::shared_ptr<const RunResult> m_result;
    bool m_pending = false;
    uint64_t m_request = 0; ///< the latest decode; older ones are dropped
};

} // namespace astrolabe::gui
