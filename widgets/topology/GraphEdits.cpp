#include "topology/GraphEdits.h"

#include <algorithm>
#include <map>
#include <utility>

namespace astrolabe::widgets {

namespace {
void applyRenumber(GraphSpec& graph, const std::vector<int>& renumber) {
    for (GraphLinkSpec& l : graph.links) {
        if (l.from >= 0 && l.from < static_cast<int>(renumber.size()))
            l.from = renumber[static_cast<size_t>(l.from)];
        if (l.to >= 0 && l.to < static_cast<int>(renumber.size()))
            l.to = renumber[static_cast<size_t>(l.to)];
    }
}
} // namespace

int addGraphDevice(GraphSpec& graph, bool isSwitch, std::vector<int>* renumber) {
    std::vector<int> map(static_cast<size_t>(graph.deviceCount()));
    for (int i = 0; i < graph.deviceCount(); ++i)
        map[static_cast<size_t>(i)] = !isSwitch && i >= graph.npus ? i + 1 : i;
    const int id = isSwitch ? graph.deviceCount() : graph.npus;
    if (!isSwitch)
        applyRenumber(graph, map);
    (isSwitch ? graph.switches : graph.npus) += 1;
    if (renumber)
        *renumber = std::move(map);
    return id;
}

std::vector<int> removeGraphItems(GraphSpec& graph, const std::set<int>& devices,
                                  const std::set<int>& links) {
    std::vector<int> map(static_cast<size_t>(graph.deviceCount()), -1);
    int next = 0, npus = 0;
    for (int i = 0; i < graph.deviceCount(); ++i) {
        if (devices.count(i))
            continue;
        map[static_cast<size_t>(i)] = next++;
        npus += i < graph.npus ? 1 : 0;
    }
    std::vector<GraphLinkSpec> kept;
    for (size_t i = 0; i < graph.links.size(); ++i) {
        const GraphLinkSpec& l = graph.links[i];
        if (links.count(static_cast<int>(i)) || devices.count(l.from) || devices.count(l.to))
            continue;
        kept.push_back(l);
    }
    graph.links = std::move(kept);
    applyRenumber(graph, map);
    graph.switches = next - npus;
    graph.npus = npus;
    return map;
}

int addGraphLink(GraphSpec& graph, int from, int to) {
    GraphLinkSpec link{from, to, 100e9, 100, true, 0};
    if (!graph.links.empty()) {
        link.bandwidthBytesPerSecond = graph.links.front().bandwidthBytesPerSecond;
        link.latencyNs = graph.links.front().latencyNs;
    }
    graph.links.push_back(link);
    return static_cast<int>(graph.links.size()) - 1;
}

std::vector<GraphProblem> graphEditorProblems(const GraphSpec& graph) {
    std::vector<GraphProblem> problems = graphProblems(graph);
    // Directions each link covers: a bidirectional link covers both.
    std::map<std::pair<int, int>, int> firstLink;
    for (size_t i = 0; i < graph.links.size(); ++i) {
        const GraphLinkSpec& l = graph.links[i];
        std::vector<std::pair<int, int>> directions{{l.from, l.to}};
        if (l.bidirectional)
            directions.emplace_back(l.to, l.from);
        for (const auto& d : directions) {
            const auto [it, fresh] = firstLink.emplace(d, static_cast<int>(i));
            if (!fresh && it->second != static_cast<int>(i)) {
                problems.push_back({static_cast<int>(i), "link " + std::to_string(i) +
                                                             " duplicates link " +
                                                             std::to_string(it->second) + " (" +
                                                             graph.deviceName(d.first) + " to " +
                                                             graph.deviceName(d.second) + ")"});
                break;
            }
        }
    }
    return problems;
}

} // namespace astrolabe::widgets
