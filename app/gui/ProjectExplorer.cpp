#include "gui/ProjectExplorer.h"

#include "config/QuantityEdit.h"
#include "core/Collectives.h"
#include "core/Units.h"
#include "gui/Counted.h"
#include "gui/RunStore.h"
#include "serving/ServingRun.h"

#include <QHeaderView>
#include <QStandardItemModel>

namespace astrolabe::gui {

namespace {
QString memoryDescription(const RemoteMemoryConfig& m) {
    switch (m.type) {
    case RemoteMemoryType::NoMemoryExpansion:
        return QObject::tr("no remote memory");
    case RemoteMemoryType::PerNodeMemoryExpansion:
        return QObject::tr("per-node memory, %1 GB/s").arg(m.bandwidthBytesPerNs);
    case RemoteMemoryType::PerNpuMemoryExpansion:
        return QObject::tr("per-NPU memory, %1 GB/s").arg(m.bandwidthBytesPerNs);
    case RemoteMemoryType::MemoryPool:
        return QObject::tr("memory pool, %1 GB/s").arg(m.bandwidthBytesPerNs);
    case RemoteMemoryType::Pooled:
        return QObject::tr("pooled: %1 groups x %2 GB/s, %3 GB/s ports")
            .arg(m.groups)
            .arg(m.bandwidthBytesPerNs)
            .arg(m.fabricBytesPerNs);
    }
    return {};
}
} // namespace

ProjectExplorer::ProjectExplorer(QWidget* parent)
    : QTreeView(parent)
    , m_model(new QStandardItemModel(this)) {
    setModel(m_model);
    setHeaderHidden(true);
    setEditTriggers(NoEditTriggers);
    setUniformRowHeights(true);
    showEmpty();
    connect(this, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        emit partActivated(static_cast<Part>(index.data(PartRole).toInt()),
                           index.data(RunIdRole).toInt(), index.data(KeyRole).toString());
    });
}

void ProjectExplorer::showEmpty() {
    m_model->clear();
    m_runs = nullptr;
    auto* hint = new QStandardItem(tr("No project open yet"));
    hint->setEnabled(false);
    hint->setToolTip(tr("Start with the quick start, a new project or an existing file"));
    m_model->appendRow(hint);
}

QStandardItem* ProjectExplorer::addGroup(const QString& title, Part part) {
    auto* item = new QStandardItem(title);
    item->setData(static_cast<int>(part), PartRole);
    QFont bold = item->font();
    bold.setBold(true);
    item->setFont(bold);
    m_model->appendRow(item);
    return item;
}

void ProjectExplorer::addDetail(QStandardItem* group, const QString& text, const QString& key) {
    auto* item = new QStandardItem(text);
    item->setData(group->data(PartRole), PartRole);
    item->setData(key, KeyRole);
    item->setToolTip(text);
    group->appendRow(item);
}

void ProjectExplorer::showProject(const QString& name, const SimulationSpec& spec) {
    m_model->clear();
    auto* project = addGroup(name, Part::Project);
    Q_UNUSED(project);

    auto* platform = addGroup(
        tr("Platform \u2014 %1").arg(counted(spec.platform.npuCount(), tr("NPU"), tr("NPUs"))),
        Part::Platform);
    if (const std::optional<GraphSpec>& graph = spec.platform.graph) // not a Ring of all NPUs
        addDetail(platform, tr("Graph %1: %2, %3")
                                .arg(QString::fromStdString(graph->generator.empty()
                                                                ? std::string("listed by hand")
                                                                : graph->generator))
                                .arg(counted(graph->switches, tr("switch"), tr("switches")))
                                .arg(counted(static_cast<long long>(graph->links.size()),
                                             tr("link"), tr("links"))));
    for (size_t d = 0; !spec.platform.graph && d < spec.platform.dimensions.size(); ++d) {
        const DimensionSpec& dim = spec.platform.dimensions[d];
        addDetail(platform,
                  tr("Dim %1: %2 x %3, %4, %5")
                      .arg(d)
                      .arg(QString::fromLatin1(blockKindName(dim.kind)))
                      .arg(dim.size)
                      .arg(widgets::QuantityEdit::format(widgets::QuantityEdit::Kind::Bandwidth,
                                                         dim.bandwidthBytesPerSecond))
                      .arg(QString::fromStdString(units::formatTime(
                          SimTime::fromNsRounded(dim.latencyNs), units::TimeSpelling::MicroSign))));
    }

    auto* system = addGroup(tr("System"), Part::System);
    addDetail(system,
              counted(spec.system.preferredDatasetSplits, tr("chunk"), tr("chunks")) +
                  tr(" per collective"),
              QStringLiteral("system.chunks"));
    addDetail(system, tr("Endpoint delay %1 ns").arg(spec.system.endpointDelayNs),
              QStringLiteral("system.endpoint-delay"));
    QStringList ar;
    for (const AlgorithmSpec& a : spec.system.allReduce)
        ar << QString::fromStdString(algorithmName(a));
    const CollectiveNames& allReduce = namesOf(CollectiveKind::AllReduce);
    addDetail(system,
              QStringLiteral("%1: %2").arg(QString::fromLatin1(allReduce.label),
                                           ar.isEmpty() ? tr("none") : ar.join(u',')),
              QStringLiteral("system.") + QString::fromLatin1(allReduce.name));

    auto* memory = addGroup(tr("Memory"), Part::Memory);
    addDetail(memory, memoryDescription(spec.memory), QStringLiteral("memory.type"));

    auto* workload = addGroup(tr("Workload"), Part::Workload);
    if (serving::isServingProject(spec))
        addDetail(workload, tr("Serving %1").arg(servedModel(spec.serving)),
                  QStringLiteral("serving.model"));
    else if (spec.workload.kind == WorkloadSource::Kind::Microbenchmark)
        addDetail(workload,
                  tr("Microbenchmark, %1")
                      .arg(QString::fromStdString(
                          units::formatSize(spec.workload.microbenchmark.sizeBytes))),
                  QStringLiteral("workload.microbenchmark.size"));
    else
        addDetail(workload, tr("Traces %1").arg(QString::fromStdString(spec.workload.tracePrefix)),
                  QStringLiteral("workload.trace"));

    m_runs = addGroup(tr("Runs"), Part::Runs);
    expandAll();
}

void ProjectExplorer::showRuns(const RunStore* store) {
    if (!m_runs)
        return;
    m_runs->removeRows(0, m_runs->rowCount());
    const int n = store ? store->count() : 0;
    m_runs->setText(tr("Runs (%1)").arg(n));
    for (int row = 0; row < n; ++row) {
        const RunRecord& r = store->at(row);
        auto* item =
            new QStandardItem(QStringLiteral("%1 \u2014 %2").arg(r.name, runStatusName(r.status)));
        item->setData(static_cast<int>(Part::Run), PartRole);
        item->setData(r.id, RunIdRole);
        m_runs->appendRow(item);
    }
    expand(m_runs->index());
}

} // namespace astrolabe::gui
