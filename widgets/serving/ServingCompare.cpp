#include "serving/ServingCompare.h"

#include "core/Units.h"
#include "serving/CdfChart.h"
#include "serving/ServingView.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QTableView>
#include <QVBoxLayout>

namespace astrolabe::widgets {

std::vector<ServingCompareRow> servingCompareRows(const std::vector<NamedServingRun>& runs) {
    struct Metric {
        const char* label;
        double (*value)(const serving::ServingSummary&);
    };
    static const Metric metrics[] = {
        {"TTFT p50 (ms)", [](const serving::ServingSummary& s) { return s.ttft.p50 * 1e3; }},
        {"TTFT p90 (ms)", [](const serving::ServingSummary& s) { return s.ttft.p90 * 1e3; }},
        {"TTFT p99 (ms)", [](const serving::ServingSummary& s) { return s.ttft.p99 * 1e3; }},
        {"TPOT p50 (ms)", [](const serving::ServingSummary& s) { return s.tpot.p50 * 1e3; }},
        {"TPOT p90 (ms)", [](const serving::ServingSummary& s) { return s.tpot.p90 * 1e3; }},
        {"TPOT p99 (ms)", [](const serving::ServingSummary& s) { return s.tpot.p99 * 1e3; }},
        {"E2E p50 (ms)", [](const serving::ServingSummary& s) { return s.e2e.p50 * 1e3; }},
        {"E2E p90 (ms)", [](const serving::ServingSummary& s) { return s.e2e.p90 * 1e3; }},
        {"E2E p99 (ms)", [](const serving::ServingSummary& s) { return s.e2e.p99 * 1e3; }},
        {"Output tokens/s per GPU",
         [](const serving::ServingSummary& s) { return s.outputTokensPerGpuSecond; }},
        {"Goodput (requests/s)",
         [](const serving::ServingSummary& s) { return s.goodputRequestsPerSecond; }},
        {"Goodput per GPU (requests/s)",
         [](const serving::ServingSummary& s) { return s.goodputPerGpu; }},
        {"Meet both SLOs (%)",
         [](const serving::ServingSummary& s) { return s.sloAttainment * 100; }},
    };
    std::vector<ServingCompareRow> rows;
    for (const Metric& m : metrics) {
        ServingCompareRow row{QString::fromLatin1(m.label), {}};
        for (const NamedServingRun& run : runs)
            row.values.push_back(run.result ? m.value(run.result->summary) : 0.0);
        rows.push_back(std::move(row));
    }
    return rows;
}

void ServingCompareModel::setRuns(const std::vector<NamedServingRun>& runs) {
    beginResetModel();
    m_names.clear();
    for (const NamedServingRun& r : runs)
        m_names.push_back(r.name);
    m_rows = servingCompareRows(runs);
    endResetModel();
}

int ServingCompareModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ServingCompareModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_names.size());
}

QVariant ServingCompareModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const double v = m_rows[size_t(index.row())].values[size_t(index.column())];
    if (role == Qt::UserRole)
        return v;
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::DisplayRole)
        return QString::fromStdString(units::formatPlain(v, 4)); // no e-notation
    return {};
}

QVariant ServingCompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (orientation == Qt::Horizontal)
        return section >= 0 && section < columnCount() ? QVariant(m_names[size_t(section)])
                                                       : QVariant();
    return section >= 0 && section < rowCount() ? QVariant(m_rows[size_t(section)].label)
                                                : QVariant();
}

ServingCompareView::ServingCompareView(QWidget* parent)
    : QWidget(parent)
    , m_model(new ServingCompareModel(this))
    , m_table(new QTableView(this))
    , m_ttft(new CdfChart(tr("TTFT"), this))
    , m_tpot(new CdfChart(tr("TPOT"), this))
    , m_e2e(new CdfChart(tr("End to end"), this)) {
    m_table->setModel(m_model);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* charts = new QHBoxLayout;
    for (CdfChart* c : {m_ttft, m_tpot, m_e2e})
        charts->addWidget(c);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(charts, 1);
}

void ServingCompareView::setRuns(std::vector<NamedServingRun> runs) {
    m_model->setRuns(runs);
    // Okabe-Ito colours, one per run.
    static const QColor colors[] = {QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00),
                                    QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                    QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9)};
    std::vector<CdfSeries> ttft, tpot, e2e;
    double ttftSlo = 0, tpotSlo = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
        if (!runs[i].result)
            continue;
        LatencySamples s = latencySamples(*runs[i].result);
        const QColor color = colors[i % std::size(colors)];
        ttft.push_back({runs[i].name, color, std::move(s.ttft)});
        tpot.push_back({runs[i].name, color, std::move(s.tpot)});
        e2e.push_back({runs[i].name, color, std::move(s.e2e)});
        if (ttftSlo == 0) {
            ttftSlo = runs[i].result->summary.ttftSloSeconds;
            tpotSlo = runs[i].result->summary.tpotSloSeconds;
        }
    }
    m_ttft->setSeries(std::move(ttft), ttftSlo);
    m_tpot->setSeries(std::move(tpot), tpotSlo);
    m_e2e->setSeries(std::move(e2e), 0);
}

} // namespace astrolabe::widgets
