#include "TraceChecks.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <tuple>

namespace astrolabe::generate::test {

SimulationSpec idealSwitchSpec(const GeneratedWorkload& workload) {
    SimulationSpec spec;
    spec.platform.dimensions = {{BlockKind::Switch, int(workload.traces.size()), 1e18, 0}};
    spec.system.preferredDatasetSplits = 1;
    spec.system.localMemBandwidthGBps = 1e9;
    const std::vector<AlgorithmSpec> ring{AlgorithmSpec{AlgorithmKind::Ring, 0}};
    spec.system.allReduce = spec.system.reduceScatter = spec.system.allGather =
        spec.system.allToAll = ring;
    spec.commGroups = workload.groups;
    return spec;
}

std::vector<std::string> wellFormednessProblems(const GeneratedWorkload& w) {
    std::vector<std::string> problems;
    auto report = [&](const std::string& what) {
        if (problems.size() < 10)
            problems.push_back(what);
    };
    // (tag, src, dst, size) -> number of sends minus receives
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint64_t>, int> p2p;
    // group id -> rank -> ordered (type, size)
    std::map<std::string, std::map<int, std::vector<std::pair<int, uint64_t>>>> sequences;
    for (size_t r = 0; r < w.traces.size(); ++r) {
        const WorkloadTrace& t = w.traces[r];
        const std::string where = "rank " + std::to_string(r) + ": ";
        std::set<uint64_t> seen;
        bool hasRoot = false;
        for (const WorkloadNode& n : t.nodes) {
            if (!seen.insert(n.id).second)
                report(where + "duplicate id " + std::to_string(n.id));
            for (const auto* deps : {&n.dataDeps, &n.ctrlDeps})
                for (uint64_t d : *deps)
                    if (d >= n.id || !seen.count(d))
                        report(where + n.name + " depends on a later or unknown node");
            hasRoot = hasRoot || (n.dataDeps.empty() && n.ctrlDeps.empty());
            if (n.type == NodeType::CommSend) {
                if (n.commSrc != r)
                    report(where + n.name + " is not sent by its rank");
                ++p2p[{n.commTag, n.commSrc, n.commDst, n.commSize}];
            } else if (n.type == NodeType::CommRecv) {
                if (n.commDst != r)
                    report(where + n.name + " is not received by its rank");
                --p2p[{n.commTag, n.commSrc, n.commDst, n.commSize}];
            } else if (n.type == NodeType::CommColl) {
                if (!n.pgName.empty()) {
                    const auto g = w.groups.find(std::stoi(n.pgName));
                    bool member = false;
                    if (g != w.groups.end())
                        for (int m : g->second)
                            member = member || m == int(r);
                    if (!member)
                        report(where + n.name + " uses group " + n.pgName + " without being in it");
                }
                sequences[n.pgName][int(r)].push_back({int(n.commType), n.commSize});
            }
        }
        if (!t.nodes.empty() && !hasRoot)
            report(where + "no dependency-free node");
    }
    for (const auto& [key, balance] : p2p)
        if (balance != 0)
            report("unmatched SEND/RECV tag " + std::to_string(std::get<0>(key)) + " " +
                   std::to_string(std::get<1>(key)) + "->" + std::to_string(std::get<2>(key)) +
                   " size " + std::to_string(std::get<3>(key)));
    for (const auto& [group, byRank] : sequences) {
        std::vector<int> members;
        if (group.empty())
            for (size_t r = 0; r < w.traces.size(); ++r)
                members.push_back(int(r));
        else
            members = w.groups.at(std::stoi(group));
        const auto first = byRank.find(members.front());
        for (int m : members) {
            const auto it = byRank.find(m);
            if (it == byRank.end() || first == byRank.end() || it->second != first->second)
                report("group \"" + group + "\": rank " + std::to_string(m) +
                       " issues a different collective sequence than rank " +
                       std::to_string(members.front()));
        }
    }
    return problems;
}

NodeCounts countNodes(const WorkloadTrace& trace) {
    NodeCounts c;
    for (const WorkloadNode& n : trace.nodes) {
        c.comp += n.type == NodeType::Comp;
        c.send += n.type == NodeType::CommSend;
        c.recv += n.type == NodeType::CommRecv;
        c.coll += n.type == NodeType::CommColl;
    }
    return c;
}

int countCollectives(const WorkloadTrace& trace, CollectiveType type, uint64_t size) {
    int count = 0;
    for (const WorkloadNode& n : trace.nodes)
        count += n.type == NodeType::CommColl && n.commType == type && n.commSize == size;
    return count;
}

const WorkloadNode& nodeNamed(const WorkloadTrace& trace, const std::string& name) {
    for (const WorkloadNode& n : trace.nodes)
        if (n.name == name)
            return n;
    ADD_FAILURE() << "no node " << name;
    static const WorkloadNode none{};
    return none;
}

} // namespace astrolabe::generate::test
