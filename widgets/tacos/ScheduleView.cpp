#include "tacos/ScheduleView.h"

#include "core/Units.h"

#include <QColor>
#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace astrolabe::widgets {

ScheduleModel::ScheduleModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void ScheduleModel::setSchedule(Schedule schedule) {
    beginResetModel();
    m_schedule = std::move(schedule);
    const size_t steps = static_cast<size_t>(m_schedule.steps);
    m_cell.assign(m_schedule.links.size() * steps, -1);
    m_stepStart.assign(steps, m_schedule.finishNs);
    m_active = -1;
    for (size_t i = 0; i < m_schedule.sends.size(); ++i) {
        const ChunkSend& c = m_schedule.sends[i];
        double& start = m_stepStart[static_cast<size_t>(c.step)];
        start = std::min(start, c.startNs);
        m_cell[static_cast<size_t>(c.link) * steps + static_cast<size_t>(c.step)] =
            static_cast<int32_t>(i);
    }
    endResetModel();
}

void ScheduleModel::setActiveStep(int step) {
    if (step < -1 || step >= m_schedule.steps)
        step = -1;
    if (step == m_active)
        return;
    const int old = m_active;
    m_active = step;
    const int last = rowCount() - 1;
    for (const int column : {old, step})
        if (column >= 0 && last >= 0) {
            emit dataChanged(index(0, column), index(last, column));
            emit headerDataChanged(Qt::Horizontal, column, column);
        }
}

int ScheduleModel::stepAt(double ns) const {
    if (m_stepStart.empty() || ns < m_stepStart.front() || ns >= m_schedule.finishNs)
        return -1;
    const auto it = std::upper_bound(m_stepStart.begin(), m_stepStart.end(), ns);
    return static_cast<int>(it - m_stepStart.begin()) - 1;
}

int ScheduleModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_schedule.links.size());
}

int ScheduleModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : m_schedule.steps;
}

QVariant ScheduleModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const int32_t send =
        m_cell[static_cast<size_t>(index.row()) * static_cast<size_t>(m_schedule.steps) +
               static_cast<size_t>(index.column())];
    if (send < 0)
        return {};
    const ChunkSend& c = m_schedule.sends[static_cast<size_t>(send)];
    switch (role) {
    case Qt::DisplayRole:
        return c.chunk;
    case Qt::BackgroundRole: {
        // Chunks spread over the hue circle; all-gather lighter than reduce-scatter.
        const int hue = static_cast<int>((static_cast<int64_t>(c.chunk) * 137) % 360);
        const bool gather = c.phase == 1 || m_schedule.kind == SynthesisKind::AllGather;
        if (index.column() == m_active) // the step at the timeline's cursor: full colour
            return QColor::fromHsv(hue, 255, 215);
        return QColor::fromHsv(hue, gather ? 70 : 140, 250);
    }
    case Qt::ForegroundRole: {
        if (index.column() != m_active)
            return {};
        const QColor back = data(index, Qt::BackgroundRole).value<QColor>();
        return back.lightness() < 130 ? QColor(Qt::white) : QColor(Qt::black);
    }
    case Qt::FontRole: {
        if (index.column() != m_active)
            return {};
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    case Qt::TextAlignmentRole:
        return int(Qt::AlignCenter);
    case Qt::ToolTipRole:
        return QStringLiteral("chunk %1 on %2 -> %3: %4 to %5 ns")
            .arg(c.chunk)
            .arg(m_schedule.links[static_cast<size_t>(c.link)].src)
            .arg(m_schedule.links[static_cast<size_t>(c.link)].dst)
            .arg(c.startNs, 0, 'f', 1)
            .arg(c.endNs, 0, 'f', 1);
    default:
        return {};
    }
}

QVariant ScheduleModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && section == m_active && role == Qt::FontRole) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Horizontal)
        return section == m_active ? QStringLiteral("\u25b6%1").arg(section)
                                   : QString::number(section);
    const SynthLink& l = m_schedule.links[static_cast<size_t>(section)];
    // "=>": through switches (as in astrolabe-cli synthesize --table).
    return (l.switches > 0 ? QStringLiteral("%1 => %2") : QStringLiteral("%1 -> %2"))
        .arg(l.src)
        .arg(l.dst);
}

ScheduleView::ScheduleView(QWidget* parent)
    : QWidget(parent)
    , m_model(new ScheduleModel(this))
    , m_table(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_cursor(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_cursor);
    layout->addWidget(m_table);
    m_table->setModel(m_model);
    m_table->horizontalHeader()->setDefaultSectionSize(34);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_summary->setWordWrap(true);
}

void ScheduleView::setSchedule(Schedule schedule) {
    // Counts with their nouns agreeing ("1 chunk per NPU", "1 step"), and the time in the unit
    // that reads best.
    const auto count = [](uint64_t n, const char* one, const char* many) {
        return QString::fromStdString(units::countOf(n, one, many));
    };
    m_summary->setText(
        tr("TACOS %1 on %2: %3 per NPU, %4, %5, %6. "
           "Rows: links; columns: steps; cells: the chunk that starts on the link.")
            .arg(QString::fromLatin1(synthesisKindName(schedule.kind)))
            .arg(count(static_cast<uint64_t>(schedule.npus), "NPU", "NPUs"))
            .arg(count(static_cast<uint64_t>(schedule.chunksPerNpu), "chunk", "chunks"))
            .arg(count(static_cast<uint64_t>(schedule.steps), "step", "steps"))
            .arg(count(schedule.sends.size(), "chunk send", "chunk sends"))
            .arg(QString::fromStdString(units::formatTime(SimTime::fromNsRounded(schedule.finishNs),
                                                          units::TimeSpelling::MicroSign))));
    if (std::any_of(schedule.links.begin(), schedule.links.end(),
                    [](const SynthLink& l) { return l.switches > 0; }))
        m_summary->setText(m_summary->text() +
                           tr(" Rows a => b: a link through switches (switches hold no chunks)."));
    m_model->setSchedule(std::move(schedule));
    m_cursor->clear();
}

void ScheduleView::setCursorTime(qint64 ps) {
    const Schedule& s = m_model->schedule();
    if (s.steps == 0)
        return;
    const double ns = static_cast<double>(ps) / 1000.0;
    const int step = m_model->stepAt(ns);
    m_model->setActiveStep(step);
    const QString at = QString::fromStdString(
        units::formatTime(SimTime::fromPs(ps), units::TimeSpelling::MicroSign));
    if (step >= 0) {
        m_cursor->setText(tr("Cursor at %1: step %2 of %3 (started at %4).")
                              .arg(at)
                              .arg(step)
                              .arg(s.steps)
                              .arg(QString::fromStdString(units::formatTime(
                                  SimTime::fromNsRounded(m_model->stepStartNs(step)),
                                  units::TimeSpelling::MicroSign))));
        int row = 0;
        while (row < m_model->rowCount() && !m_model->index(row, step).data().isValid())
            ++row;
        m_table->scrollTo(m_model->index(std::min(row, m_model->rowCount() - 1), step));
    } else {
        m_cursor->setText(ns < m_model->stepStartNs(0)
                              ? tr("Cursor at %1: before the first step.").arg(at)
                              : tr("Cursor at %1: after the schedule's end.").arg(at));
    }
}

} // namespace astrolabe::widgets
