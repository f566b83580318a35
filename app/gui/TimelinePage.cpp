#include "gui/TimelinePage.h"

#include "timeline/DatabaseTimelineSource.h"
#include "timeline/TimelineView.h"

#include <QVBoxLayout>

namespace astrolabe::gui {

TimelinePage::TimelinePage(QWidget* parent)
    : WorkspacePage(parent)
    , m_view(new widgets::TimelineView(this))
    , m_empty(new PlaceholderPage(PlaceholderPage::Content::Timeline, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_empty);
    layout->addWidget(m_view);
    m_view->setVisible(false);
}

void TimelinePage::showRun(const RunRecord* run) {
    const bool show = run && run->result;
    if (show && run->result != m_result) {
        m_result = run->result;
        // A result without activities but with stored ones was loaded without its timeline.
        m_fromDatabase = run->result->activities.empty() && run->activityCount > 0 &&
                         !run->databasePath.isEmpty();
        if (m_fromDatabase) {
            std::vector<int> sizes;
            for (const DimensionSpec& d : run->spec.platform.dimensions)
                sizes.push_back(d.size);
            m_view->setSource(std::make_shared<widgets::DatabaseTimelineSource>(
                                  run->databasePath.toStdString(), run->id, run->result),
                              sizes);
        } else {
            m_view->setResult(run->result, run->spec.platform);
        }
    }
    m_empty->showRun(run);
    m_empty->setVisible(!show);
    m_view->setVisible(show);
}

} // namespace astrolabe::gui
