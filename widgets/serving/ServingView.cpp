#include "serving/ServingView.h"

#include "core/Units.h"
#include "serving/CdfChart.h"
#include "serving/ReplicaTableModel.h"
#include "serving/RequestPath.h"
#include "serving/RequestTimeline.h"
#include "serving/ServingPools.h"
#include "serving/ServingSeriesChart.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace astrolabe::widgets {

LatencySamples latencySamples(const serving::ServingResult& result) {
    LatencySamples s;
    for (const serving::RequestRecord& r : result.requests) {
        if (!r.finished())
            continue;
        s.ttft.push_back(r.firstToken - r.arrival);
        s.e2e.push_back(r.lastToken - r.arrival);
        if (r.outputTokens > 1)
            s.tpot.push_back((r.lastToken - r.firstToken) / (r.outputTokens - 1));
    }
    for (std::vector<double>* v : {&s.ttft, &s.tpot, &s.e2e})
        std::sort(v->begin(), v->end());
    return s;
}

ServingView::ServingView(QWidget* parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_timeline(new RequestTimeline(this))
    , m_path(new QPlainTextEdit(this))
    , m_ttft(new CdfChart(tr("TTFT"), this))
    , m_tpot(new CdfChart(tr("TPOT"), this))
    , m_e2e(new CdfChart(tr("End to end"), this))
    , m_series(new ServingSeriesChart(this))
    , m_replicas(new ReplicaTableModel(this))
    , m_replicaTable(new QTableView(this)) {
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_path->setReadOnly(true);
    m_path->setMinimumWidth(fontMetrics().averageCharWidth() * 36);
    m_path->setPlaceholderText(tr("Click a request to see its path."));
    m_replicaTable->setModel(m_replicas);
    m_replicaTable->verticalHeader()->hide();
    m_replicaTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* legend = new QLabel(this);
    QString keys;
    for (RequestPhase p : {RequestPhase::Queueing, RequestPhase::Prefill, RequestPhase::Transfer,
                           RequestPhase::Decode})
        keys += QStringLiteral("<span style='color:%1'>&#9632;</span> %2 &nbsp; ")
                    .arg(requestPhaseColor(p).name(), tr(requestPhaseName(p)));
    legend->setText(keys + tr("(wheel: zoom; Shift+wheel: scroll requests; Ctrl+wheel: zoom "
                              "requests; drag: pan)"));
    auto* fit = new QPushButton(tr("Show all"), this);
    connect(fit, &QPushButton::clicked, m_timeline, &RequestTimeline::showAll);
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(legend, 1);
    keyRow->addWidget(fit);

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(m_timeline);
    top->addWidget(m_path);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 1);
    top->setSizes({900, 340});
    auto* charts = new QWidget(this);
    auto* chartRow = new QHBoxLayout(charts);
    chartRow->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w : {static_cast<QWidget*>(m_ttft), static_cast<QWidget*>(m_tpot),
                       static_cast<QWidget*>(m_e2e)})
        chartRow->addWidget(w);
    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(m_series);
    bottom->addWidget(m_replicaTable);
    m_pools = new ServingPoolsView(this);
    m_pools->setToolTip(tr("The deployment on the platform: each GPU in its pool's colour"));
    bottom->addWidget(m_pools);
    auto* vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(top);
    vertical->addWidget(charts);
    vertical->addWidget(bottom);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 2);
    vertical->setStretchFactor(2, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(keyRow);
    layout->addWidget(vertical, 1);
    connect(m_timeline, &RequestTimeline::requestClicked, this, &ServingView::showRequest);
}

void ServingView::setResult(std::shared_ptr<const serving::ServingResult> result) {
    m_result = std::move(result);
    m_timeline->setResult(m_result);
    m_series->setResult(m_result);
    m_replicas->setResult(m_result);
    m_path->clear();
    m_pools->setDeployment(m_project,
                           m_result ? m_result->replicas : std::vector<serving::ReplicaStats>());
    if (!m_result) {
        m_summary->clear();
        for (CdfChart* c : {m_ttft, m_tpot, m_e2e})
            c->setSeries({}, 0);
        return;
    }
    const serving::ServingSummary& s = m_result->summary;
    const auto plain = [](double v) { return QString::fromStdString(units::formatPlain(v, 4)); };
    m_summary->setText(
        tr("%1 of %2 requests in %3 s on %4 GPUs · %5 output tokens/s per GPU · goodput %6 "
           "requests/s (%7% meet TTFT ≤ %8 ms and TPOT ≤ %9 ms) · TTFT p99 %10 ms · TPOT p99 "
           "%11 ms")
            .arg(s.completed)
            .arg(s.requests)
            .arg(plain(s.durationSeconds))
            .arg(s.gpus)
            .arg(plain(s.outputTokensPerGpuSecond))
            .arg(plain(s.goodputRequestsPerSecond))
            .arg(s.sloAttainment * 100, 0, 'f', 1)
            .arg(plain(s.ttftSloSeconds * 1e3))
            .arg(plain(s.tpotSloSeconds * 1e3))
            .arg(plain(s.ttft.p99 * 1e3))
            .arg(plain(s.tpot.p99 * 1e3)));
    LatencySamples samples = latencySamples(*m_result);
    const QColor color(0x00, 0x72, 0xb2);
    m_ttft->setSeries({CdfSeries{QString(), color, std::move(samples.ttft)}}, s.ttftSloSeconds);
    m_tpot->setSeries({CdfSeries{QString(), color, std::move(samples.tpot)}}, s.tpotSloSeconds);
    m_e2e->setSeries({CdfSeries{QString(), color, std::move(samples.e2e)}}, 0);
}

void ServingView::setProject(const SimulationSpec& spec) {
    m_project = spec;
}

void ServingView::showRequest(int request) {
    if (!m_result || request < 0 || request >= int(m_result->requests.size()))
        return;
    m_timeline->select(request);
    QStringList lines;
    for (const std::string& line : describePath(*m_result, requestPath(*m_result, request)))
        lines << QString::fromStdString(line);
    m_path->setPlainText(lines.join(QLatin1Char('\n')));
}

QString ServingView::pathText() const {
    return m_path->toPlainText();
}

} // namespace astrolabe::widgets
