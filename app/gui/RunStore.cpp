#include "gui/RunStore.h"

#include "core/Collectives.h"
#include "core/Units.h"
#include "gui/Counted.h"
#include "serving/ServingRun.h"

#include <QObject>
#include <algorithm>

namespace astrolabe::gui {

QString runStatusName(RunStatus status) {
    switch (status) {
    case RunStatus::Finished:
        return QObject::tr("Finished");
    case RunStatus::Failed:
        return QObject::tr("Failed");
    case RunStatus::Cancelled:
        break;
    }
    return QObject::tr("Cancelled");
}

QString servedModel(const ServingSpec& serving) {
    return QObject::tr("%1 on %2 (%3)")
        .arg(QString::fromStdString(serving.model), QString::fromStdString(serving.gpu),
             QString::fromStdString(serving.deployment));
}

QString keySettings(const SimulationSpec& spec) {
    QStringList parts;
    parts << counted(spec.platform.npuCount(), QObject::tr("NPU"), QObject::tr("NPUs"));
    if (const std::optional<GraphSpec>& graph = spec.platform.graph) {
        // Its logical dimension is a Ring of all NPUs only to the collectives: say what it is.
        QString what = graph->generator.empty()
                           ? QObject::tr("graph")
                           : QObject::tr("graph %1").arg(QString::fromStdString(graph->generator));
        if (graph->switches > 0)
            what += u' ' + QObject::tr("with %1").arg(counted(
                               graph->switches, QObject::tr("switch"), QObject::tr("switches")));
        parts << what;
    } else {
        QStringList dims;
        for (const DimensionSpec& d : spec.platform.dimensions)
            dims << QStringLiteral("%1 %2")
                        .arg(QString::fromLatin1(blockKindName(d.kind)))
                        .arg(d.size);
        if (!dims.isEmpty())
            parts << dims.join(QStringLiteral(" x "));
    }
    if (serving::isServingProject(spec)) {
        // A serving run has no collective workload of its own (its microbenchmark is the
        // default of 0 bytes): say what it serves.
        parts << QObject::tr("serving %1").arg(servedModel(spec.serving));
        return parts.join(QStringLiteral(" \u00B7 "));
    }
    if (spec.workload.kind == WorkloadSource::Kind::Microbenchmark) {
        const int type = spec.workload.microbenchmark.collective;
        const CollectiveNames* names = findCollective(type);
        const QString collective = names && collectiveKindOf(names->type)
                                       ? QString::fromLatin1(names->name)
                                       : QStringLiteral("collective %1").arg(type);
        parts << collective + u' ' +
                     QString::fromStdString(
                         units::formatSize(spec.workload.microbenchmark.sizeBytes));
    } else {
        parts << QObject::tr("trace %1").arg(QString::fromStdString(spec.workload.tracePrefix));
    }
    parts << counted(spec.system.preferredDatasetSplits, QObject::tr("chunk"),
                     QObject::tr("chunks"));
    parts << (spec.options.backend == NetworkBackend::CongestionAware
                  ? QObject::tr("congestion-aware")
                  : QObject::tr("congestion-unaware"));
    return parts.join(QStringLiteral(" \u00B7 "));
}

int RunStore::rowOf(int id) const {
    for (int row = 0; row < count(); ++row)
        if (at(row).id == id)
            return row;
    return -1;
}

int InMemoryRunStore::add(RunRecord record) {
    if (record.id == 0)
        record.id = m_nextId;
    m_nextId = std::max(m_nextId, record.id + 1);
    if (record.number == 0)
        record.number = takeRunNumber();
    noteRunNumber(record.number);
    m_runs.push_back(std::move(record));
    return m_runs.back().id;
}

bool InMemoryRunStore::update(const RunRecord& record) {
    const int row = rowOf(record.id);
    if (row < 0)
        return false;
    m_runs[static_cast<size_t>(row)] = record;
    return true;
}

bool InMemoryRunStore::remove(int id) {
    const int row = rowOf(id);
    if (row < 0)
        return false;
    m_runs.erase(m_runs.begin() + row);
    return true;
}

} // namespace astrolabe::gui
