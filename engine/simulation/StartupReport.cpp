#include "simulation/StartupReport.h"

namespace astrolabe {

std::vector<std::string> startupReportLines(const SimulationSpec& spec, const Topology& topology) {
    std::vector<std::string> lines;
    auto ringLine = [&](int n, int stride) {
        lines.push_back("[system::topology::RingTopology] ring of node 0, id: 0 dimension: local "
                        "total nodes in ring: " +
                        std::to_string(n) + " index in ring: 0 offset: " + std::to_string(stride) +
                        " total nodes in ring: " + std::to_string(n));
    };
    for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter,
                                CollectiveKind::AllGather, CollectiveKind::AllToAll}) {
        const std::vector<AlgorithmSpec>& list = spec.system.algorithms(kind);
        for (size_t d = 0; d < list.size() && d < static_cast<size_t>(topology.dimensionCount());
             ++d) {
            const AlgorithmKind k = list[d].kind;
            if (k == AlgorithmKind::OneRing || k == AlgorithmKind::OneDirect ||
                k == AlgorithmKind::OneHalvingDoubling) {
                ringLine(topology.npuCount(), 1);
                break;
            }
            if (k != AlgorithmKind::DoubleBinaryTree && k != AlgorithmKind::InSwitch)
                ringLine(topology.size(static_cast<int>(d)), topology.stride(static_cast<int>(d)));
        }
    }
    return lines;
}

} // namespace astrolabe
