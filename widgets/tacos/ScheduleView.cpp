#include "tacos/ScheduleView.h"

#include "core/Units.h"

#include <QColor>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace astrolabe::widgets {

ScheduleModel::ScheduleModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void ScheduleModel::setSchedule(Schedule schedule) {
    beginResetModel();
    m_schedule = std::move(schedule);
    const size_t steps = static_cast<size_t>(m_schedule.steps);
    m_cell.assign(m_schedule.links.size() * steps, -1);
    for (size_t i = 0; i < m_schedule.sends.size(); ++i) {
        const ChunkSend& c = m_schedule.sends[i];
        m_cell[static_cast<size_t>(c.link) * steps + static_cast<size_t>(c.step)] =
            static_cast<int32_t>(i);
    }
    endResetModel();
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
        return QColor::fromHsv(hue, gather ? 70 : 140, 250);
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
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Horizontal)
        return section;
    const SynthLink& l = m_schedule.links[static_cast<size_t>(section)];
    return QStringLiteral("%1 -> %2").arg(l.src).arg(l.dst);
}

ScheduleView::ScheduleView(QWidget* parent)
    : QWidget(parent)
    , m_model(new ScheduleModel(this))
    , m_table(new QTableView(this))
    , m_summary(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
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
    m_model->setSchedule(std::move(schedule));
}

} // namespace astrolabe::widgets
