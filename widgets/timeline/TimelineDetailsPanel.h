#pragma once
// Details of the selected interval: the node, its collective and phases, its dependencies when a
// provider knows them (RunResult does not record the graph), and its place on the critical path.

#include "timeline/TimelineSource.h"

#include <QTextBrowser>
#include <functional>
#include <memory>

namespace astrolabe::widgets {

class TimelineDetailsPanel : public QTextBrowser {
    Q_OBJECT
public:
    using DependencyProvider = std::function<std::vector<uint64_t>(int npu, uint64_t nodeId)>;

    explicit TimelineDetailsPanel(QWidget* parent = nullptr);

    void setSource(std::shared_ptr<const TimelineSource> source);
    void setDependencyProvider(DependencyProvider provider) {
        m_dependencies = std::move(provider);
    }
    void showActivity(const ActivityInterval& activity);
    void showSummary();

    /// `name` with a zero-width space at each of its word boundaries (after _ . / : and before a
    /// capitalised word): where a wrapped name may break.
    static QString breakableName(const QString& name);

    /// The HTML shown for an activity (exposed for tests).
    QString activityHtml(const ActivityInterval& activity) const;

protected:
    /// Copies without the zero-width spaces breakableName() adds.
    QMimeData* createMimeDataFromSelection() const override;

private:
    std::shared_ptr<const TimelineSource> m_source;
    DependencyProvider m_dependencies;
};

} // namespace astrolabe::widgets
