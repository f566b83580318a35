#pragma once
// A serving run's deployment on the platform drawing: the run's platform (NetworkView, as the
// Topology tab draws it) with every GPU ringed in its pool's colour (prefill, decode,
// aggregated, AFD's attention and FFN; idle NPUs left plain) and a legend naming each pool and
// its GPU count. The placement is serving/ServingTraffic.h's convention; the KV transfers'
// bytes on the links are in the run's link statistics (the Utilization tab).

#include "serving/ServingTraffic.h"
#include "spec/SimulationSpec.h"
#include "topology/NetworkView.h"

#include <QColor>
#include <QWidget>
#include <vector>

namespace astrolabe::widgets {

/// The colour of a pool role on the drawing, its legend and the replica table.
QColor servingRoleColor(serving::GpuRole role);

class ServingPoolsView : public QWidget, private NetworkOverlay {
    Q_OBJECT
public:
    explicit ServingPoolsView(QWidget* parent = nullptr);
    /// The run's project (its platform and serving settings) and replicas; empty replicas
    /// clear the pools.
    void setDeployment(const SimulationSpec& spec,
                       const std::vector<serving::ReplicaStats>& replicas);
    const std::vector<serving::GpuPlacement>& placement() const { return m_placement; }
    /// GPUs per role, in GpuRole order (what the legend lists).
    std::vector<int> roleCounts() const;
    NetworkView* network() const { return m_view; }

private:
    void paint(QPainter& painter, const NetworkView& view) const override;

    NetworkView* m_view;
    std::vector<serving::GpuPlacement> m_placement;
};

} // namespace astrolabe::widgets
