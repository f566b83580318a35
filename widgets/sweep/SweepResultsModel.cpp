#include "sweep/SweepResultsModel.h"

#include "core/Error.h"
#include "core/Units.h"
#include "serving/ServingRun.h"
#include "sweep/SweepPlan.h"

#include <QBrush>
#include <QColor>
#include <algorithm>

namespace astrolabe::widgets {

const char* sweepPointStatusName(SweepPointStatus status) {
    switch (status) {
    case SweepPointStatus::Pending:
        return "pending";
    case SweepPointStatus::Running:
        return "running";
    case SweepPointStatus::Ok:
        return "ok";
    case SweepPointStatus::Failed:
        return "failed";
    case SweepPointStatus::Skipped:
        return "skipped";
    }
    return "";
}

SweepResultsModel::SweepResultsModel(QObject* parent)
    : QAbstractTableModel(parent) {}

SweepTable sweepTableOf(const SweepPlan& plan) {
    SweepTable table;
    for (const SweepGroup& g : plan.file.groups)
        for (const SweepAxis& a : g.axes)
            table.axisNames.push_back(a.name);
    // The alpha-beta curve is for size sweeps of a microbenchmark; its terms need each point's
    // project (a fraction of a millisecond to read), so a sweep too long to chart one gets none.
    constexpr size_t kMaxCurvePoints = 256;
    const bool curve = plan.file.generator.empty() && plan.points.size() <= kMaxCurvePoints;
    for (const PlannedPoint& p : plan.points)
        if (p.runnable() && plan.file.generator.empty()) {
            try { // the first point's project says whether the sweep is over a serving project
                table.serving = serving::isServingProject(plan.work(p.index).spec);
            } catch (const Error&) {
            }
            break;
        }
    table.rows.reserve(plan.points.size());
    for (const PlannedPoint& p : plan.points) {
        SweepRow row;
        for (const SweepCoordinate& c : plan.point(p.index).coordinates)
            row.values.push_back(c.value);
        row.summary.index = p.index;
        if (p.runnable() && curve) {
            try {
                row.alphaBeta = alphaBetaTerm(plan.work(p.index).spec);
            } catch (const Error&) {
                // The point's project is invalid: it fails when it runs, and draws no term.
            }
        }
        if (!p.runnable()) {
            row.summary.status = SweepPointStatus::Skipped;
            row.summary.message = p.skipReason;
        }
        table.rows.push_back(std::move(row));
    }
    table.objective = plan.file.serving.objective;
    return table;
}

void SweepResultsModel::setPlan(const SweepPlan& plan) {
    setTable(sweepTableOf(plan));
}

void SweepResultsModel::setTable(SweepTable table) {
    m_serving = table.serving;
    m_objective = std::move(table.objective);
    setRows(std::move(table.axisNames), std::move(table.rows));
}

std::optional<size_t> SweepResultsModel::bestPoint() const {
    std::optional<size_t> best;
    for (const SweepRow& r : m_rows)
        if (r.summary.status == SweepPointStatus::Ok && r.summary.serving &&
            (!best || r.summary.objective > m_rows[*best].summary.objective))
            best = r.summary.index;
    return best;
}

void SweepResultsModel::setRows(std::vector<std::string> axisNames, std::vector<SweepRow> rows) {
    beginResetModel();
    m_axisNames = std::move(axisNames);
    m_rows = std::move(rows);
    updateTimeScales();
    endResetModel();
}

bool SweepResultsModel::updateTimeScales() {
    double endPs = 0, exposedPs = 0;
    for (const SweepRow& r : m_rows)
        if (r.summary.status == SweepPointStatus::Ok) {
            endPs = std::max(endPs, static_cast<double>(r.summary.endTime.ps()));
            exposedPs = std::max(exposedPs, static_cast<double>(r.summary.maxExposedComm.ps()));
        }
    const units::Scale end = units::timeScale(endPs, units::TimeSpelling::MicroSign);
    const units::Scale exposed = units::timeScale(exposedPs, units::TimeSpelling::MicroSign);
    const bool changed = end.factor != m_endTimeScale.factor ||
                         exposed.factor != m_exposedScale.factor ||
                         end.symbol != m_endTimeScale.symbol;
    m_endTimeScale = end;
    m_exposedScale = exposed;
    return changed;
}

void SweepResultsModel::updatePoint(const SweepPointSummary& summary) {
    if (summary.index >= m_rows.size())
        return;
    m_rows[summary.index].summary = summary;
    const int row = static_cast<int>(summary.index);
    if (updateTimeScales()) // every time cell is written in the new unit
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    else
        emit dataChanged(index(row, 0), index(row, columnCount() - 1));
    emit pointUpdated(summary.index);
}

size_t SweepResultsModel::runnable() const {
    return static_cast<size_t>(std::count_if(m_rows.begin(), m_rows.end(), [](const SweepRow& r) {
        return r.summary.status != SweepPointStatus::Skipped;
    }));
}

size_t SweepResultsModel::finished() const {
    return static_cast<size_t>(std::count_if(m_rows.begin(), m_rows.end(), [](const SweepRow& r) {
        return r.summary.status == SweepPointStatus::Ok ||
               r.summary.status == SweepPointStatus::Failed;
    }));
}

int SweepResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int SweepResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : column(m_serving ? Fixed::Tpot : Fixed::Run) + 1;
}

QVariant SweepResultsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const SweepRow& row = m_rows[static_cast<size_t>(index.row())];
    const SweepPointSummary& s = row.summary;
    const int col = index.column();
    const int axes = static_cast<int>(m_axisNames.size());
    const bool ok = s.status == SweepPointStatus::Ok;
    if (role == Qt::TextAlignmentRole)
        return col == column(Fixed::Status) ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                                            : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ForegroundRole && col == column(Fixed::Status)) {
        if (s.status == SweepPointStatus::Failed)
            return QBrush(QColor(0xc0, 0x20, 0x20));
        if (s.status == SweepPointStatus::Skipped || s.status == SweepPointStatus::Pending)
            return QBrush(QColor(0x80, 0x80, 0x80));
        return {};
    }
    if (role == Qt::ToolTipRole && !s.message.empty())
        return QString::fromStdString(s.message);
    if (role == SortRole) {
        if (col == PointColumn)
            return static_cast<qulonglong>(s.index);
        if (col == column(Fixed::EndTime))
            return ok ? QVariant(static_cast<double>(s.endTime.ps())) : QVariant();
        if (col == column(Fixed::MaxExposed))
            return ok ? QVariant(static_cast<double>(s.maxExposedComm.ps())) : QVariant();
        if (col == column(Fixed::Run))
            return static_cast<qlonglong>(s.runNumber);
        if (col == column(Fixed::Goodput))
            return ok ? QVariant(s.goodputPerGpu) : QVariant();
        if (col == column(Fixed::Tokens))
            return ok ? QVariant(s.outputTokensPerGpuSecond) : QVariant();
        if (col == column(Fixed::Tpot))
            return ok ? QVariant(s.tpotP50Seconds) : QVariant();
    }
    if (role != Qt::DisplayRole)
        return {};
    if (col == PointColumn)
        return static_cast<qulonglong>(s.index);
    if (col <= axes)
        return QString::fromStdString(row.values.at(static_cast<size_t>(col - 1)));
    if (col == column(Fixed::Status))
        return QString::fromLatin1(sweepPointStatusName(s.status));
    if (col == column(Fixed::EndTime))
        return ok ? QString::fromStdString(
                        units::formatScaled(static_cast<double>(s.endTime.ps()), m_endTimeScale, 5))
                  : QString();
    if (col == column(Fixed::MaxExposed))
        return ok ? QString::fromStdString(units::formatScaled(
                        static_cast<double>(s.maxExposedComm.ps()), m_exposedScale, 5))
                  : QString();
    if (col == column(Fixed::Run))
        return s.runNumber > 0 ? QStringLiteral("#%1").arg(s.runNumber) : QString();
    if (!ok || !s.serving)
        return {};
    if (col == column(Fixed::Goodput))
        return QString::fromStdString(units::formatPlain(s.goodputPerGpu, 4));
    if (col == column(Fixed::Tokens))
        return QString::fromStdString(units::formatPlain(s.outputTokensPerGpuSecond, 4));
    if (col == column(Fixed::Tpot))
        return QString::fromStdString(units::formatPlain(s.tpotP50Seconds * 1e3, 4));
    return {};
}

QVariant SweepResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    const int axes = static_cast<int>(m_axisNames.size());
    if (section == PointColumn)
        return tr("Point");
    if (section <= axes)
        return QString::fromStdString(m_axisNames.at(static_cast<size_t>(section - 1)));
    if (section == column(Fixed::Status))
        return tr("Status");
    if (section == column(Fixed::EndTime))
        return tr("End time");
    if (section == column(Fixed::MaxExposed))
        return tr("Max exposed comm");
    if (section == column(Fixed::Run))
        return tr("Run");
    if (section == column(Fixed::Goodput))
        return tr("Goodput/GPU (req/s)");
    if (section == column(Fixed::Tokens))
        return tr("Output tok/s/GPU");
    if (section == column(Fixed::Tpot))
        return tr("TPOT p50 (ms)");
    return {};
}

} // namespace astrolabe::widgets
