#include "compare/MetricsTableModel.h"

#include "core/Units.h"

#include <QColor>
#include <QFont>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

void MetricsTableModel::setRuns(const CompareRuns& runs) {
    beginResetModel();
    m_names.clear();
    std::vector<ComparisonInput> inputs;
    for (const CompareRun& r : runs) {
        m_names << r.name;
        inputs.push_back({r.result.get(), r.result ? collectiveTimings(*r.result)
                                                   : std::vector<CollectiveTiming>{}});
    }
    m_rows = comparisonRows(inputs); // max over NPUs, max per collective type and size
    m_baseline = 0;
    endResetModel();
}

void MetricsTableModel::setBaseline(int run) {
    if (run < 0 || run >= m_names.size() || run == m_baseline)
        return;
    m_baseline = run;
    if (!m_rows.empty())
        emit dataChanged(index(0, FirstRunColumn), index(rowCount() - 1, columnCount() - 1));
    emit headerDataChanged(Qt::Horizontal, FirstRunColumn, columnCount() - 1);
}

int MetricsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MetricsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : FirstRunColumn + static_cast<int>(m_names.size());
}

namespace {

/// One unit per row, chosen by the row's largest value, so the runs read side by side
/// ("0.11778" and "60.4658" in ms, not "117.78 µs" next to "60.4658 ms"). Times are stored in ns.
units::Scale rowScale(const MetricRow& row) {
    double largest = 0;
    for (const std::optional<double>& v : row.values)
        if (v)
            largest = std::max(largest, std::fabs(*v));
    switch (row.unit) {
    case MetricUnit::Nanoseconds: {
        units::Scale scale = units::timeScale(largest * 1e3, units::TimeSpelling::MicroSign);
        scale.factor /= 1e3;
        return scale;
    }
    case MetricUnit::Bytes:
        return units::sizeScale(largest);
    case MetricUnit::BytesPerSecond:
        return units::bandwidthScale(largest, row.like);
    }
    return {};
}

QString valueText(double v, const units::Scale& scale) {
    return QString::fromStdString(units::formatPlain(v / scale.factor, 5));
}

} // namespace

QVariant MetricsTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const MetricRow& row = m_rows[static_cast<size_t>(index.row())];
    const int run = index.column() - FirstRunColumn;
    // Plain doubles with flags: GCC 12 warns about optional<double> copies here (a false
    // positive -Wmaybe-uninitialized).
    bool hasValue = false, hasRatio = false;
    double v = 0, r = 0;
    if (run >= 0) {
        const std::optional<double>& cellValue = row.values[static_cast<size_t>(run)];
        hasValue = cellValue.has_value();
        v = cellValue.value_or(0);
        const std::optional<double> q =
            metricRatio(cellValue, row.values[static_cast<size_t>(m_baseline)]);
        hasRatio = q.has_value();
        r = q.value_or(0);
    }
    switch (role) {
    case Qt::DisplayRole: {
        if (index.column() == 0)
            return QString::fromStdString(row.label);
        const units::Scale scale = rowScale(row);
        if (index.column() == 1)
            return QString::fromUtf8(scale.symbol.data(),
                                     static_cast<qsizetype>(scale.symbol.size()));
        if (!hasValue)
            return QStringLiteral("–");
        if (run == m_baseline || !hasRatio)
            return valueText(v, scale);
        return QStringLiteral("%1   ×%2").arg(valueText(v, scale)).arg(r, 0, 'f', 3);
    }
    case Qt::ToolTipRole:
        if (index.column() == 0) // whole, where the column is too narrow for it
            return QString::fromStdString(row.label);
        // The exact value in the metric's base unit, for copying.
        if (hasValue)
            return QStringLiteral("%1 %2")
                .arg(QString::fromStdString(units::formatPlain(v, 15)))
                .arg(QString::fromLatin1(metricUnitName(row.unit)));
        return {};
    case Qt::TextAlignmentRole:
        if (run >= 0)
            return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        if (run == m_baseline) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        // Slower or more (ratio > 1) in red, faster or less in green, for times only.
        if (hasRatio && row.unit == MetricUnit::Nanoseconds && run != m_baseline &&
            std::abs(r - 1.0) > 1e-9)
            return r > 1.0 ? QColor(183, 28, 28) : QColor(27, 94, 32);
        return {};
    case ValueRole:
        return hasValue ? QVariant(v) : QVariant();
    case RatioRole:
        return hasRatio ? QVariant(r) : QVariant();
    default:
        return {};
    }
}

QVariant MetricsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    if (section == 0)
        return tr("Metric");
    if (section == 1)
        return tr("Unit");
    const int run = section - FirstRunColumn;
    if (run >= 0 && run < m_names.size())
        return headerName(run == m_baseline ? tr("%1 (baseline)").arg(m_names[run]) : m_names[run]);
    return {};
}

int MetricsTableModel::rowOfKey(const std::string& key) const {
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].key == key)
            return static_cast<int>(i);
    return -1;
}

} // namespace astrolabe::widgets
