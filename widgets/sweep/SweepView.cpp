#include "sweep/SweepView.h"

#include "sweep/SweepCharts.h"
#include "sweep/SweepHeatmap.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <set>

namespace astrolabe::widgets {
namespace {

QString duration(double seconds) {
    if (seconds < 60)
        return QObject::tr("%1 s").arg(static_cast<int>(seconds + 0.5));
    return QObject::tr("%1 min %2 s")
        .arg(static_cast<int>(seconds / 60))
        .arg(static_cast<int>(seconds) % 60, 2, 10, QLatin1Char('0'));
}

} // namespace

SweepView::SweepView(QWidget* parent)
    : QWidget(parent)
    , m_model(new SweepResultsModel(this))
    , m_sorted(new QSortFilterProxyModel(this))
    , m_title(new QLabel(this))
    , m_table(new QTableView(this))
    , m_charts(new QTabWidget(this))
    , m_endTimeStack(new QStackedWidget(this))
    , m_line(new SweepLineChart(this))
    , m_heatmap(new SweepHeatmap(this))
    , m_pareto(new SweepParetoChart(this))
    , m_note(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_progressText(new QLabel(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_compare(new QPushButton(tr("Compare selected"), this))
    , m_selectBest(new QPushButton(tr("Select best"), this))
    , m_apply(new QPushButton(tr("Apply to project"), this))
    , m_redraw(new QTimer(this)) {
    setObjectName(QStringLiteral("SweepView"));
    m_title->setText(noSweepText());
    m_title->setWordWrap(true);
    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(SweepResultsModel::SortRole);
    m_table->setModel(m_sorted);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(SweepResultsModel::PointColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_endTimeStack->addWidget(m_line);
    m_endTimeStack->addWidget(m_heatmap);
    auto* endTime = new QWidget(this);
    auto* endLayout = new QVBoxLayout(endTime);
    endLayout->setContentsMargins(0, 0, 0, 0);
    m_note->setWordWrap(true);
    m_note->hide();
    endLayout->addWidget(m_note);
    endLayout->addWidget(m_endTimeStack, 1);
    m_charts->addTab(endTime, tr("End time"));
    m_charts->addTab(m_pareto, tr("Pareto"));

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(m_charts);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    m_cancel->setEnabled(false);
    m_compare->setEnabled(false);
    m_progress->setTextVisible(false);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_progress, 1);
    bottom->addWidget(m_progressText);
    bottom->addWidget(m_cancel);
    bottom->addWidget(m_compare);
    bottom->addWidget(m_selectBest);
    bottom->addWidget(m_apply);
    m_apply->setEnabled(false);
    m_apply->setToolTip(tr("Put the selected point's settings into the project (one undoable "
                           "step)"));
    m_selectBest->setEnabled(false);
    m_selectBest->setToolTip(tr("Select the finished point with the highest objective"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(split, 1);
    layout->addLayout(bottom);

    m_redraw->setSingleShot(true);
    m_redraw->setInterval(100); // at most 10 redraws a second
    connect(m_redraw, &QTimer::timeout, this, &SweepView::rebuildCharts);
    connect(m_model, &SweepResultsModel::pointUpdated, this, [this] {
        updateProgress();
        if (!m_redraw->isActive())
            m_redraw->start();
    });
    // A reset (another sweep, another project, none) drops the selection without a
    // selectionChanged: the buttons that act on it follow both.
    const auto selectionButtons = [this] {
        m_compare->setEnabled(selectedRunIds().size() >= 1);
        m_apply->setEnabled(selectedPoint().has_value());
    };
    connect(m_model, &QAbstractItemModel::modelReset, this, [this, selectionButtons] {
        m_table->resizeColumnsToContents();
        updateProgress();
        refreshCharts();
        selectionButtons();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            selectionButtons);
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (const std::optional<size_t> point = selectedPoint())
            emit applyRequested(*point);
    });
    connect(m_selectBest, &QPushButton::clicked, this, [this] {
        if (const std::optional<size_t> best = m_model->bestPoint())
            selectPoint(*best);
    });
    connect(m_compare, &QPushButton::clicked, this,
            [this] { emit compareRequested(selectedRunIds()); });
    connect(m_cancel, &QPushButton::clicked, this, &SweepView::cancelRequested);
    connect(m_charts, &QTabWidget::currentChanged, this, &SweepView::refreshCharts);
}

void SweepView::setTitle(const QString& title) {
    m_title->setText(title);
}

void SweepView::clear() {
    m_model->setRows({}, {});
    m_title->setText(noSweepText());
    setRunning(false);
}

QString SweepView::noSweepText() {
    return tr("No sweep yet: Run > Run sweep… opens a sweep file (docs/sweeps.md).");
}

void SweepView::setRunning(bool running) {
    m_running = running;
    m_cancel->setEnabled(running);
    if (running) {
        m_clock.start();
        m_finishedAtStart = m_model->finished();
    }
    updateProgress();
    if (!running)
        refreshCharts();
}

void SweepView::refreshCharts() {
    m_redraw->stop();
    rebuildCharts();
}

QList<int> SweepView::selectedRunIds() const {
    std::set<int> ids;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
        const QModelIndex source = m_sorted->mapToSource(index);
        const SweepRow& row = m_model->rows().at(static_cast<size_t>(source.row()));
        if (row.summary.runId > 0)
            ids.insert(static_cast<int>(row.summary.runId));
    }
    return QList<int>(ids.begin(), ids.end());
}

std::optional<size_t> SweepView::selectedPoint() const {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.size() != 1)
        return std::nullopt;
    const QModelIndex source = m_sorted->mapToSource(rows.front());
    const SweepRow& row = m_model->rows().at(static_cast<size_t>(source.row()));
    if (row.summary.status == SweepPointStatus::Skipped)
        return std::nullopt;
    return row.summary.index;
}

void SweepView::selectPoint(size_t point) {
    if (point >= m_model->rows().size())
        return;
    const QModelIndex row = m_sorted->mapFromSource(m_model->index(static_cast<int>(point), 0));
    m_table->selectionModel()->select(row, QItemSelectionModel::ClearAndSelect |
                                               QItemSelectionModel::Rows);
    m_table->scrollTo(row);
}

void SweepView::updateProgress() {
    m_selectBest->setVisible(m_model->isServing());
    m_selectBest->setEnabled(m_model->isServing() && m_model->bestPoint().has_value());
    const size_t total = m_model->runnable(), done = m_model->finished();
    m_progress->setRange(0, static_cast<int>(std::max<size_t>(total, 1)));
    m_progress->setValue(static_cast<int>(done));
    QString text = tr("%1 / %2 points").arg(done).arg(total);
    const size_t skipped = m_model->rows().size() - total;
    if (skipped > 0)
        text += tr(" (%1 skipped)").arg(skipped);
    const size_t doneNow = done - std::min(done, m_finishedAtStart);
    if (m_running && doneNow > 0 && done < total) {
        const double elapsed = static_cast<double>(m_clock.elapsed()) / 1e3;
        const double left =
            elapsed / static_cast<double>(doneNow) * static_cast<double>(total - done);
        text +=
            left < 1 ? tr(" · under a second left") : tr(" · about %1 left").arg(duration(left));
    } else if (!m_running && total > 0 && done == total) {
        text += tr(" · done");
    }
    m_progressText->setText(text);
}

void SweepView::rebuildCharts() {
    // The heatmap only keeps its grid (painting happens when shown); the Qt Charts are fed
    // only while their tab is the current one, and once more when it becomes current.
    const std::vector<std::string>& axes = m_model->axisNames();
    const std::vector<SweepRow>& rows = m_model->rows();
    const bool endTimeShown = m_charts->currentIndex() == 0;
    if (axes.empty()) { // no sweep (cleared): an empty grid, nothing of a previous sweep
        m_heatmap->setData(HeatmapData{});
        m_endTimeStack->setCurrentWidget(m_heatmap);
        m_note->hide();
    } else if (axes.size() == 1) {
        if (endTimeShown)
            m_line->setRows(axes, rows, 0);
        m_endTimeStack->setCurrentWidget(m_line);
        m_note->hide();
    } else if (axes.size() >= 2) {
        m_heatmap->setData(heatmapData(axes, rows, 0, 1));
        m_endTimeStack->setCurrentWidget(m_heatmap);
        m_note->setVisible(axes.size() > 2);
        m_note->setText(tr("%1 axes: the heatmap shows the first two (%2 and %3); each cell "
                           "holds the shortest end time over the other axes.")
                            .arg(axes.size())
                            .arg(QString::fromStdString(axes[0]), QString::fromStdString(axes[1])));
    }
    if (!endTimeShown)
        m_pareto->setRows(axes, rows);
}

} // namespace astrolabe::widgets
