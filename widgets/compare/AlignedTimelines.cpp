#include "compare/AlignedTimelines.h"

#include "common/InterfaceScale.h"
#include "timeline/RowLayout.h"
#include "timeline/RunResultTimelineSource.h"
#include "timeline/TimelinePalette.h"
#include "timeline/TimelineWidget.h"

#include <QCheckBox>
#include <QEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

/// A transparent layer over a timeline's viewport drawing the shared cursor.
class TimelineCursor : public QWidget {
public:
    explicit TimelineCursor(QWidget* viewport)
        : QWidget(viewport) {
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        resize(viewport->size());
    }
    void setX(double x) {
        m_x = x;
        update();
    }
    double x() const { return m_x; }

protected:
    void paintEvent(QPaintEvent*) override {
        if (m_x < 0)
            return;
        QPainter p(this);
        p.setPen(QPen(QColor(0, 0, 0, 170), 1, Qt::DashLine));
        p.drawLine(QPointF(m_x, 0), QPointF(m_x, height()));
    }

private:
    double m_x = -1;
};

AlignedTimelines::AlignedTimelines(QWidget* parent)
    : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_normalize = new QCheckBox(tr("Normalize each run to its own length"), this);
    m_normalize->setToolTip(tr("Off: one absolute time axis for all runs. On: the same x is the "
                               "same fraction of every run."));
    connect(m_normalize, &QCheckBox::toggled, this, &AlignedTimelines::setNormalized);
    layout->addWidget(m_normalize);
    // One colour key for all the runs (the Timeline tab's): what is drawn in which colour.
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("compareTimelinesLegend"));
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    layout->addWidget(m_legend);
    // The runs share the height, each at least its header, time axis and three NPU rows; when
    // that is more than there is (presentation zoom, many runs, a small screen) they scroll: a
    // splitter squeezed below that would show each run's header alone.
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_stack = new QSplitter(Qt::Vertical, scroll);
    m_stack->setChildrenCollapsible(false);
    scroll->setWidget(m_stack);
    layout->addWidget(scroll, 1);
    // After the new fonts have reached the labels.
    connect(&InterfaceScale::instance(), &InterfaceScale::changed, this,
            [this] { QTimer::singleShot(0, this, &AlignedTimelines::applyMinimumHeights); });
}

void AlignedTimelines::applyMinimumHeights() {
    for (TimelineWidget* timeline : m_timelines) {
        QWidget* box = timeline->parentWidget();
        const QWidget* label = box->findChild<QLabel*>();
        box->setMinimumHeight((label ? label->sizeHint().height() : 0) + timeline->axisHeight() +
                              3 * InterfaceScale::px(RowLayout::kNpuRowHeight) +
                              InterfaceScale::px(8));
    }
}

void AlignedTimelines::setRuns(const CompareRuns& runs) {
    clear();
    std::vector<uint8_t> present; // colour keys drawn in any of the runs
    bool critical = false;
    for (const CompareRun& run : runs) {
        if (!run.result)
            continue;
        auto* box = new QWidget;
        auto* boxLayout = new QVBoxLayout(box);
        boxLayout->setContentsMargins(0, 0, 0, 0);
        boxLayout->setSpacing(2);
        auto* label =
            new QLabel(QStringLiteral("<b>%1</b> — end %2")
                           .arg(run.name.toHtmlEscaped(), formatNs(run.result->endTime.ns())),
                       box);
        boxLayout->addWidget(label);
        auto* timeline = new TimelineWidget(box);
        std::vector<int> sizes;
        for (const DimensionSpec& d : run.spec.platform.dimensions)
            sizes.push_back(d.size);
        timeline->setSource(std::make_shared<RunResultTimelineSource>(run.result), sizes);
        boxLayout->addWidget(timeline, 1);
        m_stack->addWidget(box);
        const int index = static_cast<int>(m_timelines.size());
        connect(timeline, &TimelineWidget::windowChanged, this,
                [this, index](qint64 t0, qint64 t1) { followWindow(index, t0, t1); });
        timeline->viewport()->installEventFilter(this);
        m_cursors.push_back(new TimelineCursor(timeline->viewport()));
        m_timelines.push_back(timeline);
        m_ends.push_back(std::max<int64_t>(1, run.result->endTime.ps()));
        const std::vector<uint8_t>& keys = timeline->source()->presentColorKeys();
        present.insert(present.end(), keys.begin(), keys.end());
        critical = critical || !timeline->source()->criticalPath().empty();
    }
    m_legend->setText(
        TimelinePalette::legendHtml(TimelinePalette::legend(present, true, critical)));
    applyMinimumHeights();
    applyLimits();
}

AlignedTimelines::~AlignedTimelines() {
    clear();
}

void AlignedTimelines::clear() {
    // Out of the lists first: deleting a timeline sends its viewport's events to our filter.
    std::vector<TimelineWidget*> old;
    old.swap(m_timelines);
    m_cursors.clear();
    m_ends.clear();
    m_cursorRun = -1;
    for (TimelineWidget* t : old) {
        t->viewport()->removeEventFilter(this);
        delete t->parentWidget(); // the box holding the label and the timeline
    }
}

void AlignedTimelines::setNormalized(bool normalized) {
    m_normalized = normalized;
    if (m_normalize->isChecked() != normalized)
        m_normalize->setChecked(normalized);
    applyLimits();
}

void AlignedTimelines::applyLimits() {
    const int64_t longest = m_ends.empty() ? 1 : *std::max_element(m_ends.begin(), m_ends.end());
    m_syncing = true;
    for (size_t i = 0; i < m_timelines.size(); ++i)
        m_timelines[i]->setTimeLimits(0, m_normalized ? m_ends[i] : longest);
    m_syncing = false;
    m_cursorRun = -1;
    for (TimelineCursor* c : m_cursors)
        c->setX(-1);
}

int64_t AlignedTimelines::mapTime(int from, int to, int64_t ps) const {
    if (!m_normalized || from == to)
        return ps;
    const double fraction = static_cast<double>(ps) / static_cast<double>(m_ends[size_t(from)]);
    return std::llround(fraction * static_cast<double>(m_ends[static_cast<size_t>(to)]));
}

void AlignedTimelines::followWindow(int source, int64_t t0, int64_t t1) {
    if (m_syncing)
        return;
    m_syncing = true;
    for (int i = 0; i < count(); ++i)
        if (i != source)
            m_timelines[size_t(i)]->setWindow(mapTime(source, i, t0), mapTime(source, i, t1),
                                              false);
    m_syncing = false;
    if (m_cursorRun >= 0) // the cursor stays on its time, which moved on screen
        setCursor(m_cursorRun, m_cursorPs);
}

void AlignedTimelines::setCursor(int run, int64_t ps) {
    m_cursorRun = run;
    m_cursorPs = ps;
    for (int i = 0; i < count(); ++i) {
        const TimeMapper& m = m_timelines[size_t(i)]->mapper();
        const int64_t t = mapTime(run, i, ps);
        m_cursors[size_t(i)]->setX(t >= m.t0() && t <= m.t1() ? m.timeToX(t) : -1);
    }
}

int64_t AlignedTimelines::cursorTime(int run) const {
    if (m_cursorRun < 0 || run < 0 || run >= count())
        return -1;
    return mapTime(m_cursorRun, run, m_cursorPs);
}

bool AlignedTimelines::eventFilter(QObject* watched, QEvent* event) {
    for (int i = 0; i < count(); ++i) {
        if (watched != m_timelines[size_t(i)]->viewport())
            continue;
        if (event->type() == QEvent::Resize)
            m_cursors[size_t(i)]->resize(m_timelines[size_t(i)]->viewport()->size());
        else if (event->type() == QEvent::MouseMove) {
            const auto* mouse = static_cast<QMouseEvent*>(event);
            const TimeMapper& m = m_timelines[size_t(i)]->mapper();
            if (mouse->position().x() >= m.left())
                setCursor(i, m.xToTime(mouse->position().x()));
        }
        break;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace astrolabe::widgets
