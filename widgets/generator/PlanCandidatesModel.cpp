#include "generator/PlanCandidatesModel.h"

#include "plan/PlanSpace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace astrolabe::widgets {

namespace {
constexpr double kNotSimulated = std::numeric_limits<double>::quiet_NaN();
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
} // namespace

PlanCandidatesModel::PlanCandidatesModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void PlanCandidatesModel::setResult(std::shared_ptr<const plan::PlanResult> result) {
    beginResetModel();
    m_result = std::move(result);
    const size_t n = m_result ? m_result->ranked.size() : 0;
    m_order.resize(n);
    std::iota(m_order.begin(), m_order.end(), size_t{0});
    m_simulated.assign(n, kNotSimulated);
    m_errors.assign(n, QString());
    endResetModel();
}

void PlanCandidatesModel::setSimulated(size_t ranked, double seconds, const QString& error) {
    if (ranked >= m_simulated.size())
        return;
    m_simulated[ranked] = error.isEmpty() ? seconds : kNotSimulated;
    m_errors[ranked] = error;
    const int row = rowOf(ranked);
    if (row >= 0)
        emit dataChanged(index(row, Simulated), index(row, Mfu));
}

double PlanCandidatesModel::simulatedSeconds(size_t ranked) const {
    return ranked < m_simulated.size() ? m_simulated[ranked] : kNotSimulated;
}

int PlanCandidatesModel::rankedIndex(int row) const {
    return row >= 0 && size_t(row) < m_order.size() ? int(m_order[size_t(row)]) : -1;
}

int PlanCandidatesModel::rowOf(size_t ranked) const {
    // Linear, but called once per simulation (a few dozen times per plan), never per paint.
    const auto it = std::find(m_order.begin(), m_order.end(), ranked);
    return it == m_order.end() ? -1 : int(it - m_order.begin());
}

int PlanCandidatesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_order.size());
}

int PlanCandidatesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double PlanCandidatesModel::sortValue(size_t ranked, int column) const {
    const plan::RankedCandidate& r = m_result->ranked[ranked];
    switch (column) {
    case Cp:
        return r.candidate.cp;
    case Recompute:
        return r.candidate.recompute ? 2 : r.candidate.selectiveRecompute ? 1 : 0;
    case Offload:
        return r.candidate.offloadOptimizer ? 1 : 0;
    case Estimate:
        return r.seconds();
    case Simulated:
        return m_simulated[ranked];
    case Memory:
        return r.memoryBytes;
    case Mfu: {
        const double simulated = m_simulated[ranked];
        return m_result->mfu(std::isnan(simulated) ? r.seconds() : simulated);
    }
    default:
        return double(ranked);
    }
}

QVariant PlanCandidatesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !m_result || size_t(index.row()) >= m_order.size())
        return {};
    const size_t ranked = m_order[size_t(index.row())];
    const int column = index.column();
    if (role == SortRole)
        return sortValue(ranked, column);
    if (role == Qt::TextAlignmentRole)
        return column == Configuration || column == Recompute || column == Offload
                   ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                   : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && column == Simulated && !m_errors[ranked].isEmpty())
        return tr("Not simulated: %1").arg(m_errors[ranked]);
    if (role == Qt::ToolTipRole && column == Configuration &&
        m_result->ranked[ranked].twinPlacements)
        return tr("Also the rank orders %1: they put every group on the same dimension with the "
                  "same hops, so the estimate cannot tell them apart.")
            .arg(QString::fromStdString(plan::twinPlacementsText(m_result->ranked[ranked])));
    if (role != Qt::DisplayRole)
        return {};
    const double value = sortValue(ranked, column);
    switch (column) {
    case Rank:
        return qulonglong(ranked + 1);
    case Configuration:
        return QString::fromStdString(plan::candidateLabel(m_result->ranked[ranked].candidate) +
                                      (m_result->ranked[ranked].twinPlacements ? " +" : ""));
    case Cp:
        return int(value);
    case Recompute:
        return value >= 2 ? tr("full") : value >= 1 ? tr("selective") : tr("none");
    case Offload:
        return value > 0 ? tr("optimizer") : QString();
    case Estimate:
        return QString::number(value, 'f', 3);
    case Simulated:
        if (!m_errors[ranked].isEmpty())
            return m_errors[ranked] == kCancelled ? tr("cancelled") : tr("failed");
        return std::isnan(value) ? QString() : QString::number(value, 'f', 3);
    case Memory:
        return QString::number(value / kGiB, 'f', 1);
    case Mfu:
        return QString::number(100 * value, 'f', 1);
    default:
        return {};
    }
}

QVariant PlanCandidatesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Rank:
            return tr("Place in the estimate's ranking");
        case Cp:
            return tr("Context parallelism: the ranks each sequence is split over (fused "
                      "attention only)");
        case Recompute:
            return tr("Activation recomputation: none, selective (the attention core, "
                      "unfused attention) or full");
        case Offload:
            return tr("Optimizer states offloaded to the project's memory tier");
        case Estimate:
            return tr("The planner's analytical estimate of one iteration (docs/planner.md)");
        case Simulated:
            return tr("One iteration simulated exactly on the project's platform");
        case Memory:
            return tr("Memory per GPU of the worst pipeline stage (GiB)");
        case Mfu:
            return tr("Model FLOPs utilisation: of the simulated time where there is one, "
                      "else of the estimate");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Rank:
        return tr("Rank");
    case Configuration:
        return tr("Configuration");
    case Cp:
        return tr("cp");
    case Recompute:
        return tr("Recompute");
    case Offload:
        return tr("Offload");
    case Estimate:
        return tr("Estimate (s)");
    case Simulated:
        return tr("Simulated (s)");
    case Memory:
        return tr("Memory (GiB)");
    case Mfu:
        return tr("MFU (%)");
    default:
        return {};
    }
}

void PlanCandidatesModel::sort(int column, Qt::SortOrder order) {
    if (!m_result || column < 0 || column >= ColumnCount)
        return;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<size_t> rankedOf;
    rankedOf.reserve(size_t(before.size()));
    for (const QModelIndex& i : before)
        rankedOf.push_back(m_order[size_t(i.row())]);
    const bool descending = order == Qt::DescendingOrder;
    std::stable_sort(m_order.begin(), m_order.end(), [&](size_t a, size_t b) {
        const double x = sortValue(a, column), y = sortValue(b, column);
        if (std::isnan(x) || std::isnan(y))
            return !std::isnan(x) && std::isnan(y); // not simulated: last either way
        return descending ? y < x : x < y;
    });
    std::vector<int> rowOfRanked(m_order.size());
    for (size_t row = 0; row < m_order.size(); ++row)
        rowOfRanked[m_order[row]] = int(row);
    QModelIndexList after;
    for (int k = 0; k < before.size(); ++k)
        after << index(rowOfRanked[rankedOf[size_t(k)]], before[k].column());
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace astrolabe::widgets
