#include "compare/MetricsTableModel.h"

#include <QColor>
#include <QFont>
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
QString valueText(double v, MetricUnit unit) {
    switch (unit) {
    case MetricUnit::Nanoseconds:
        return formatNs(v);
    case MetricUnit::Bytes:
        return formatBytes(v);
    case MetricUnit::BytesPerSecond:
        return formatBandwidth(v);
    }
    return QString::number(v);
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
    case Qt::DisplayRole:
        if (index.column() == 0)
            return QString::fromStdString(row.label);
        if (index.column() == 1)
            return QString::fromLatin1(metricUnitName(row.unit));
        if (!hasValue)
            return QStringLiteral("–");
        if (run == m_baseline || !hasRatio)
            return valueText(v, row.unit);
        return QStringLiteral("%1   ×%2").arg(valueText(v, row.unit)).arg(r, 0, 'f', 3);
    case Qt::ToolTipRole:
        if (hasValue)
            return QStringLiteral("%1 %2").arg(v, 0, 'f', 3).arg(metricUnitName(row.unit));
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
        return run == m_baseline ? tr("%1 (baseline)").arg(m_names[run]) : m_names[run];
    return {};
}

int MetricsTableModel::rowOfKey(const std::string& key) const {
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].key == key)
            return static_cast<int>(i);
    return -1;
}

} // namespace astrolabe::widgets
