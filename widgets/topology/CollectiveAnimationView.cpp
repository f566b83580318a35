#include "topology/CollectiveAnimationView.h"

#include "common/InterfaceScale.h"
#include "core/Units.h"
#include "topology/DimensionColors.h"
#include "topology/ShapeBatches.h"

#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>

namespace astrolabe::widgets {

namespace {

constexpr int kSliderSteps = 10000;
constexpr size_t kMaxHighlightedLinks = 256;

const std::array<QColor, CollectiveAnimation::kColors>& chunkColors() {
    static const std::array<QColor, CollectiveAnimation::kColors> colors = {
        QColor(0xe6, 0x19, 0x4b), QColor(0x3c, 0xb4, 0x4b), QColor(0x43, 0x63, 0xd8),
        QColor(0xf5, 0x82, 0x31), QColor(0x91, 0x1e, 0xb4), QColor(0x46, 0xf0, 0xf0),
        QColor(0xf0, 0x32, 0xe6), QColor(0xbc, 0xf6, 0x0c), QColor(0x00, 0x80, 0x80),
        QColor(0x9a, 0x63, 0x24), QColor(0x80, 0x00, 0x00), QColor(0x00, 0x00, 0x75)};
    return colors;
}

// The style's media icons: the Unicode media glyphs are missing from many fonts.
QToolButton* toolButton(QStyle::StandardPixmap icon, const QString& tip, QWidget* parent) {
    auto* b = new QToolButton(parent);
    b->setIcon(parent->style()->standardIcon(icon));
    b->setToolTip(tip);
    return b;
}

} // namespace

CollectiveAnimationView::CollectiveAnimationView(QWidget* parent)
    : QWidget(parent)
    , m_view(new NetworkView(this))
    , m_previous(toolButton(QStyle::SP_MediaSkipBackward, tr("Previous step"), this))
    , m_play(toolButton(QStyle::SP_MediaPlay, tr("Play / pause"), this))
    , m_next(toolButton(QStyle::SP_MediaSkipForward, tr("Next step"), this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_speedBox(new QComboBox(this))
    , m_clock(new QLabel(this)) {
    m_view->setOverlay(this);
    m_view->setMaxFitScale(6.0); // an 8-NPU ring as large as the view allows
    m_slider->setRange(0, kSliderSteps);
    m_slider->setToolTip(tr("Time in the run"));
    for (double s : {0.25, 0.5, 1.0, 2.0, 4.0})
        m_speedBox->addItem(QStringLiteral("%1\u00d7").arg(s), s);
    m_speedBox->setCurrentIndex(2);
    m_speedBox->setToolTip(tr("Speed: at 1\u00d7 the whole run plays in %1 s").arg(kSecondsPerRun));
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_previous);
    controls->addWidget(m_play);
    controls->addWidget(m_next);
    controls->addWidget(m_slider, 1);
    controls->addWidget(m_clock);
    controls->addWidget(m_speedBox);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addLayout(controls);

    connect(m_previous, &QToolButton::clicked, this, &CollectiveAnimationView::stepBackward);
    connect(m_next, &QToolButton::clicked, this, &CollectiveAnimationView::stepForward);
    connect(m_play, &QToolButton::clicked, this, &CollectiveAnimationView::togglePlay);
    connect(m_slider, &QSlider::sliderMoved, this, [this](int v) {
        const double span = static_cast<double>((m_animation.end() - m_animation.begin()).ps());
        setTime(m_animation.begin().ps() + static_cast<qint64>(span * v / kSliderSteps));
    });
    connect(m_speedBox, &QComboBox::activated, this,
            [this](int index) { setSpeed(m_speedBox->itemData(index).toDouble()); });
    m_timer.setInterval(16);
    connect(&m_timer, &QTimer::timeout, this, &CollectiveAnimationView::advance);
    updateControls();
}

void CollectiveAnimationView::setRun(const PlatformSpec& platform,
                                     std::shared_ptr<const RunResult> run) {
    pause();
    m_platform = platform;
    m_run = std::move(run);
    m_view->setPlatform(m_platform);
    m_animation = m_run ? CollectiveAnimation(m_run->transfers, m_view->networkLayout(),
                                              m_view->graphDrawing())
                        : CollectiveAnimation();
    m_time = SimTime::fromPs(-1); // so that setTime below always refreshes
    setTime(m_animation.begin().ps());
}

void CollectiveAnimationView::setSpeed(double speed) {
    m_speed = std::clamp(speed, 0.01, 100.0);
    const int index = m_speedBox->findData(m_speed);
    if (index >= 0)
        m_speedBox->setCurrentIndex(index);
}

void CollectiveAnimationView::setTime(qint64 ps) {
    const SimTime t =
        SimTime::fromPs(std::clamp<int64_t>(ps, m_animation.begin().ps(), m_animation.end().ps()));
    if (t == m_time)
        return;
    m_time = t;
    m_animation.frameAt(m_time, m_frame);
    updateControls();
    m_view->update();
    emit timeChanged(m_time.ps());
}

void CollectiveAnimationView::play() {
    if (m_animation.empty())
        return;
    if (m_time >= m_animation.end())
        setTime(m_animation.begin().ps());
    m_wall.start();
    m_timer.start();
    updateControls();
}

void CollectiveAnimationView::pause() {
    m_timer.stop();
    updateControls();
}

void CollectiveAnimationView::togglePlay() {
    if (playing())
        pause();
    else
        play();
}

void CollectiveAnimationView::stepForward() {
    pause();
    setTime(m_animation.nextStep(m_time).ps());
}

void CollectiveAnimationView::stepBackward() {
    pause();
    setTime(m_animation.previousStep(m_time).ps());
}

void CollectiveAnimationView::advance() {
    const double span = static_cast<double>((m_animation.end() - m_animation.begin()).ps());
    const double wallSeconds = static_cast<double>(m_wall.restart()) / 1000.0;
    const auto delta = static_cast<qint64>(span * wallSeconds * m_speed / kSecondsPerRun);
    setTime(m_time.ps() + std::max<qint64>(1, delta));
    if (m_time >= m_animation.end())
        pause();
}

void CollectiveAnimationView::updateControls() {
    const bool any = !m_animation.empty();
    for (QWidget* w : {static_cast<QWidget*>(m_previous), static_cast<QWidget*>(m_play),
                       static_cast<QWidget*>(m_next), static_cast<QWidget*>(m_slider)})
        w->setEnabled(any);
    m_play->setIcon(
        style()->standardIcon(playing() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    const int64_t span = (m_animation.end() - m_animation.begin()).ps();
    if (!m_slider->isSliderDown())
        m_slider->setValue(
            span > 0 ? static_cast<int>((m_time - m_animation.begin()).ps() * kSliderSteps / span)
                     : 0);
    m_clock->setText(
        any ? QString::fromStdString(units::formatTime(m_time, units::TimeSpelling::MicroSign))
            : tr("no recorded messages"));
}

void CollectiveAnimationView::paint(QPainter& p, const NetworkView& view) const {
    if (m_animation.empty())
        return;
    if (!m_animation.perChunk()) {
        paintGroups(p, view);
        paintCounts(p, view);
        return;
    }
    // Chunks grow with the drawing (readable on a projector), at most 2/3 of an NPU's size.
    const double node =
        view.graphDrawing() ? GraphDrawing::kDeviceRadius : NetworkLayout::kNodeRadius;
    const double radius = std::clamp(node * view.scale() * 0.7, 4.0, 16.0);
    p.setRenderHint(QPainter::Antialiasing, true);
    // The links in use: one batch with a cosmetic pen. A wide pen would make Qt stroke all
    // the lines as one path, whose fill costs tens of milliseconds once they cross (every
    // path meets at a switch's hub; a direct all-reduce uses all 2,016 links of 64 NPUs).
    std::vector<QLineF> lines;
    lines.reserve(m_frame.links.size());
    for (const QLineF& l : m_frame.links)
        lines.emplace_back(view.sceneToWidget(l.p1()), view.sceneToWidget(l.p2()));
    QPen linkPen(QColor(0x33, 0x33, 0x33, 140), 1.0);
    linkPen.setCosmetic(true);
    p.setPen(linkPen);
    // Beyond a few hundred links (a direct all-reduce uses every link at once) the highlight
    // says nothing the drawing does not, and costs more than a frame: leave it out.
    if (lines.size() <= kMaxHighlightedLinks)
        p.drawLines(lines.data(), static_cast<int>(lines.size()));
    // Receivers combining what arrived: a thick ring around the NPU.
    p.setPen(QPen(QColor(0xd6, 0x27, 0x28), std::max(2.0, radius * 0.45)));
    p.setBrush(Qt::NoBrush);
    for (const QPointF& r : m_frame.reducers)
        p.drawEllipse(view.sceneToWidget(r), radius * 1.9, radius * 1.9);
    // Receivers of a chunk to reduce, while it travels: a thinner ring of the same red.
    p.setPen(QPen(QColor(0xd6, 0x27, 0x28), std::max(1.5, radius * 0.22)));
    for (const QPointF& r : m_frame.reduceTargets)
        p.drawEllipse(view.sceneToWidget(r), radius * 1.9, radius * 1.9);
    // The chunks: one stamped batch per colour.
    std::array<std::vector<QRectF>, CollectiveAnimation::kColors> byColor;
    for (size_t i = 0; i < m_frame.chunks.size(); ++i) {
        const QPointF c = view.sceneToWidget(m_frame.chunks[i]);
        byColor[m_frame.colors[i]].emplace_back(c.x() - radius, c.y() - radius, 2 * radius,
                                                2 * radius);
    }
    for (int c = 0; c < CollectiveAnimation::kColors; ++c) {
        const QColor color = chunkColors()[static_cast<size_t>(c)];
        p.setPen(QPen(color.darker(160), 1.2));
        p.setBrush(color);
        stampShapes(p, byColor[static_cast<size_t>(c)], true);
    }
    paintNpuNumbers(p, view);
    paintCounts(p, view);
}

void CollectiveAnimationView::paintNpuNumbers(QPainter& p, const NetworkView& view) const {
    // A chunk leaving or reaching an NPU sits on its number: the numbers go on top again, white
    // in a dark outline, readable on every chunk colour. At the drawing's own size (NetworkPainter
    // writes them only on nodes of 18 px and more).
    const GraphDrawing* graph = view.graphDrawing();
    const double nodePixels =
        2 * (graph ? GraphDrawing::kDeviceRadius : NetworkLayout::kNodeRadius) * view.scale();
    if (nodePixels < 18 || m_frame.chunks.empty())
        return;
    p.save();
    QFont font = p.font();
    font.setPixelSize(std::clamp(static_cast<int>(nodePixels * 0.42), InterfaceScale::px(8),
                                 InterfaceScale::px(14)));
    font.setBold(true);
    p.setFont(font);
    const NetworkLayout& layout = view.networkLayout();
    for (int id = 0; id < layout.npuCount(); ++id) {
        const QPointF c = view.sceneToWidget(graph ? graph->position(id) : layout.npuPosition(id));
        const QRectF box(c.x() - nodePixels / 2, c.y() - nodePixels / 2, nodePixels, nodePixels);
        const QString text = QString::number(id);
        p.setPen(QColor(0x11, 0x11, 0x11));
        for (const QPointF shift : {QPointF(-1, 0), QPointF(1, 0), QPointF(0, -1), QPointF(0, 1)})
            p.drawText(box.translated(shift), Qt::AlignCenter, text);
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, text);
    }
    p.restore();
}

void CollectiveAnimationView::paintGroups(QPainter& p, const NetworkView& view) const {
    // Beyond kMaxAnimatedNpus NPUs the drawing of every NPU is washed out, and each group of
    // the aggregated level becomes one node: filled, in the colour of the dimension it sends
    // most on, as strongly as the share of its NPUs sending, with that count written in it.
    // Messages between groups are one line per (from, to, dimension), as thick as their
    // share of the busiest such flow, with a dot at their mean progress.
    p.fillRect(view.rect(), QColor(255, 255, 255, 190));
    const int groups = m_animation.groupCount();
    if (groups == 0)
        return;
    p.setRenderHint(QPainter::Antialiasing, true);
    const auto centre = [&](int g) {
        return view.sceneToWidget(m_animation.groupRect(g).center());
    };
    int busiest = 1;
    for (const AnimationFrame::Flow& f : m_frame.flows)
        busiest = std::max(busiest, f.count);
    for (const AnimationFrame::Flow& f : m_frame.flows) {
        const QPointF a = centre(f.from), b = centre(f.to);
        QColor color = dimensionColor(f.dimension);
        color.setAlpha(200);
        p.setPen(QPen(color, 2.0 + 8.0 * f.count / busiest, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(a, b);
        p.setPen(QPen(color.darker(170), 1.5));
        p.setBrush(Qt::white);
        p.drawEllipse(a + (b - a) * f.progress, 5.0, 5.0);
    }
    const QRectF first = m_animation.groupRect(0);
    const double radius =
        std::clamp(0.42 * std::min(first.width(), first.height()) * view.scale(), 9.0, 70.0);
    const auto dims = static_cast<size_t>(m_animation.dimensionCount());
    QFont font = p.font();
    font.setBold(true);
    p.setFont(font);
    for (int g = 0; g < groups; ++g) {
        int sending = 0, most = 0;
        size_t dominant = 0;
        for (size_t d = 0; d < dims; ++d) {
            const int n = m_frame.groupSending[static_cast<size_t>(g) * dims + d];
            sending += n;
            if (n > most) {
                most = n;
                dominant = d;
            }
        }
        const double share =
            std::min(1.0, static_cast<double>(sending) / m_animation.npusPerGroup());
        QColor fill = dimensionColor(static_cast<int>(dominant));
        fill.setAlpha(sending > 0 ? static_cast<int>(60 + 195 * share) : 0);
        p.setPen(QPen(QColor(0x44, 0x44, 0x44), 1.5));
        p.setBrush(sending > 0 ? QBrush(fill) : QBrush(Qt::white));
        const QPointF c = centre(g);
        p.drawEllipse(c, radius, radius);
        if (radius >= 12) {
            p.setPen(share > 0.6 ? Qt::white : QColor(0x22, 0x22, 0x22));
            p.drawText(QRectF(c.x() - radius, c.y() - radius, 2 * radius, 2 * radius),
                       Qt::AlignCenter, QString::number(sending));
        }
    }
    font.setBold(false);
    p.setFont(font);
}

QString CollectiveAnimationView::stepText(const AnimationFrame& frame) {
    if (frame.stepCount == 0)
        return {};
    return (frame.stepReduces ? tr("reduce-scatter step %1 of %2") : tr("all-gather step %1 of %2"))
        .arg(frame.step)
        .arg(frame.stepCount);
}

void CollectiveAnimationView::paintCounts(QPainter& p, const NetworkView& view) const {
    // Per dimension: messages in flight and receivers reducing, bottom left; beyond
    // kMaxAnimatedNpus NPUs with a bar of the share of NPUs sending on that dimension.
    const QFontMetrics fm(p.font());
    const bool bars = !m_animation.perChunk();
    const double npus = std::max(1, m_view->networkLayout().npuCount());
    const int lineH = fm.height() + 2;
    const int dims = static_cast<int>(m_frame.inFlightPerDimension.size());
    int y = view.height() - 8 - lineH * dims;
    if (m_frame.stepCount > 0) {
        // The step, above the counts, in bold: what a class follows step by step.
        QFont bold = p.font();
        bold.setBold(true);
        p.save();
        p.setFont(bold);
        p.setPen(QColor(0x22, 0x22, 0x22));
        p.drawText(QPoint(8, y - 4 - QFontMetrics(bold).descent()), stepText(m_frame));
        p.restore();
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    for (int d = 0; d < dims; ++d, y += lineH) {
        const auto i = static_cast<size_t>(d);
        const QString text = tr("d%1: %2 in flight, %3 reducing")
                                 .arg(d)
                                 .arg(m_frame.inFlightPerDimension[i])
                                 .arg(m_frame.reducersPerDimension[i]);
        p.setPen(Qt::NoPen);
        p.setBrush(dimensionColor(d));
        if (bars) {
            const int width = fm.horizontalAdvance(QLatin1Char('m')) * 8;
            const double share = std::min(1.0, m_frame.inFlightPerDimension[i] / npus);
            p.drawRect(QRectF(8, y + 3, width * share, lineH - 6));
            p.setBrush(Qt::NoBrush);
            p.setPen(dimensionColor(d));
            p.drawRect(QRectF(8, y + 3, width, lineH - 6));
            p.setPen(QColor(0x22, 0x22, 0x22));
            p.drawText(QPoint(16 + width, y + fm.ascent() + 1), text);
            continue;
        }
        p.drawRect(QRect(8, y + 3, 10, lineH - 6));
        p.setPen(QColor(0x22, 0x22, 0x22));
        p.drawText(QPoint(24, y + fm.ascent() + 1), text);
    }
}

} // namespace astrolabe::widgets
