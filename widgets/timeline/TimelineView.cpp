#include "timeline/TimelineView.h"

#include "core/Units.h"
#include "timeline/ImageExport.h"
#include "timeline/RunResultTimelineSource.h"
#include "timeline/TimelineDetailsPanel.h"
#include "timeline/TimelinePalette.h"
#include "timeline/TimelineWidget.h"

#include <QCheckBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace astrolabe::widgets {

namespace {
QToolButton* makeButton(const QString& text, const QString& tip, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    return button;
}

} // namespace

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent) {
    m_timeline = new TimelineWidget(this);
    m_details = new TimelineDetailsPanel(this);

    auto* toolbar = new QHBoxLayout;
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Find node by name"));
    m_search->setClearButtonEnabled(true);
    m_matches = new QLabel(this);
    auto* next = makeButton(tr("Next"), tr("Select the next match (Enter)"), this);
    m_back = makeButton(tr("Back"), tr("Previous zoom (Alt+Left)"), this);
    m_forward = makeButton(tr("Forward"), tr("Next zoom (Alt+Right)"), this);
    auto* all = makeButton(tr("Show all"), tr("Show the whole run (Home)"), this);
    auto* collapse = makeButton(tr("Collapse"), tr("Collapse all groups"), this);
    auto* expand = makeButton(tr("Expand"), tr("Expand all groups"), this);
    auto* exportButton =
        makeButton(tr("Export…"), tr("Save the visible timeline as PNG or SVG"), this);
    m_critical = new QCheckBox(tr("Critical path"), this);
    m_critical->setChecked(true);
    m_searchRow = new QHBoxLayout;
    m_searchRow->addWidget(m_search, 1);
    m_searchRow->addWidget(next);
    m_searchRow->addWidget(m_matches);
    m_buttonRow = new QHBoxLayout;
    m_buttonRow->addSpacing(12);
    for (QWidget* w : std::initializer_list<QWidget*>{m_back, m_forward, all, collapse, expand,
                                                      m_critical, exportButton})
        m_buttonRow->addWidget(w);
    m_buttonRow->addStretch();
    toolbar->addLayout(m_searchRow, 1);
    toolbar->addLayout(m_buttonRow);
    m_toolbar = toolbar;

    m_legend = new QLabel(this);
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_timeline);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(toolbar);
    layout->addWidget(m_legend);
    layout->addWidget(splitter, 1);

    connect(m_search, &QLineEdit::textChanged, this, &TimelineView::search);
    connect(m_search, &QLineEdit::returnPressed, m_timeline, &TimelineWidget::findNext);
    connect(next, &QToolButton::clicked, m_timeline, &TimelineWidget::findNext);
    connect(m_back, &QToolButton::clicked, m_timeline, &TimelineWidget::goBack);
    connect(m_forward, &QToolButton::clicked, m_timeline, &TimelineWidget::goForward);
    connect(all, &QToolButton::clicked, m_timeline, &TimelineWidget::showAll);
    connect(collapse, &QToolButton::clicked, this, [this] { m_timeline->collapseAll(true); });
    connect(expand, &QToolButton::clicked, this, [this] { m_timeline->collapseAll(false); });
    connect(m_critical, &QCheckBox::toggled, m_timeline, &TimelineWidget::setShowCriticalPath);
    connect(exportButton, &QToolButton::clicked, this, &TimelineView::exportWithDialog);
    connect(m_timeline, &TimelineWidget::historyChanged, this, &TimelineView::updateHistoryButtons);
    connect(m_timeline, &TimelineWidget::activitySelected, m_details,
            &TimelineDetailsPanel::showActivity);
    connect(m_timeline, &TimelineWidget::selectionCleared, m_details,
            &TimelineDetailsPanel::showSummary);
    updateHistoryButtons();
}

void TimelineView::setResult(std::shared_ptr<const RunResult> result,
                             const PlatformSpec& platform) {
    std::vector<int> sizes;
    for (const DimensionSpec& d : platform.dimensions)
        sizes.push_back(d.size);
    std::shared_ptr<const TimelineSource> source;
    if (result)
        source = std::make_shared<RunResultTimelineSource>(std::move(result));
    setSource(std::move(source), sizes);
}

void TimelineView::setSource(std::shared_ptr<const TimelineSource> source,
                             const std::vector<int>& dimensionSizes) {
    m_details->setSource(source);
    m_legendEntries.clear();
    if (source) {
        m_legendEntries = TimelinePalette::legend(source->presentColorKeys(), true,
                                                  !source->criticalPath().empty());
        if (const uint64_t scale = source->memoryScaleBytes(); scale > 0)
            m_legendEntries.push_back({tr("memory in use (line; top of a row = %1)")
                                           .arg(QString::fromStdString(units::formatSize(scale))),
                                       TimelinePalette::memoryLine(), false});
    }
    m_timeline->setSource(std::move(source), dimensionSizes);
    search(); // updates the legend
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    reflowToolbar();
}

void TimelineView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) // the interface scale changed the buttons' widths
        QTimer::singleShot(0, this, &TimelineView::reflowToolbar);
}

void TimelineView::reflowToolbar() {
    const QMargins margins = layout()->contentsMargins();
    const int sideBySide = m_searchRow->minimumSize().width() + m_buttonRow->minimumSize().width() +
                           m_toolbar->spacing() + margins.left() + margins.right();
    const auto direction =
        sideBySide <= width() ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_toolbar->direction() != direction)
        m_toolbar->setDirection(direction);
}

void TimelineView::updateLegend() {
    const auto& rows = m_timeline->rowLayout().rows();
    const bool groups = std::any_of(rows.begin(), rows.end(), [](const DisplayRow& row) {
        return row.kind == DisplayRow::Kind::Group;
    });
    m_legend->setText(TimelinePalette::legendHtml(m_legendEntries,
                                                  !m_search->text().trimmed().isEmpty(), groups));
}

void TimelineView::search() {
    const QString text = m_search->text().trimmed();
    const int names = m_timeline->setSearchText(text);
    m_matches->setText(text.isEmpty() ? QString()
                                      : (names == 1 ? tr("1 name") : tr("%1 names").arg(names)));
    updateLegend();
}

void TimelineView::updateHistoryButtons() {
    m_back->setEnabled(m_timeline->canGoBack());
    m_forward->setEnabled(m_timeline->canGoForward());
}

bool TimelineView::exportImage(const QString& path) const {
    const PaintFunction paint = [this](QPainter& painter) { m_timeline->render(painter); };
    if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive))
        return exportSvg(path, m_timeline->renderSize(), paint, QStringLiteral("Timeline"));
    return exportPng(path, m_timeline->renderSize(), paint);
}

void TimelineView::exportWithDialog() {
    const QString filter = svgExportAvailable() ? tr("PNG image (*.png);;SVG drawing (*.svg)")
                                                : tr("PNG image (*.png)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export timeline"),
                                                      QStringLiteral("timeline.png"), filter);
    if (!path.isEmpty())
        exportImage(path);
}

} // namespace astrolabe::widgets
