#include "MiniExecutor.h"

#include <map>
#include <queue>
#include <set>
#include <tuple>

namespace astrolabe::generate::test {

namespace {

using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint64_t>;

struct Rank {
    std::vector<int> waiting; ///< unfinished parents per node
    std::vector<std::vector<size_t>> children;
    std::set<size_t> ready;
    std::vector<bool> done;
    bool computeBusy = false, commBusy = false;
    std::map<std::string, int> issuedPerGroup;
    size_t finished = 0;
};

class Executor {
public:
    Executor(const GeneratedWorkload& w, double jitter, unsigned salt)
        : m_w(w)
        , m_jitter(jitter)
        , m_salt(salt) {
        m_ranks.resize(w.traces.size());
        for (size_t r = 0; r < w.traces.size(); ++r) {
            Rank& rank = m_ranks[r];
            const auto& nodes = w.traces[r].nodes;
            rank.waiting.assign(nodes.size(), 0);
            rank.children.assign(nodes.size(), {});
            rank.done.assign(nodes.size(), false);
            for (size_t i = 0; i < nodes.size(); ++i) {
                for (const auto* deps : {&nodes[i].dataDeps, &nodes[i].ctrlDeps})
                    for (uint64_t d : *deps) {
                        ++rank.waiting[i];
                        rank.children[d].push_back(i);
                    }
                if (rank.waiting[i] == 0)
                    rank.ready.insert(i);
            }
        }
    }

    MiniRun run() {
        for (size_t r = 0; r < m_ranks.size(); ++r)
            issue(r);
        while (!m_events.empty()) {
            const auto [time, seq, r, node] = m_events.top();
            m_events.pop();
            m_now = time;
            if (isMemory(m_w.traces[r].nodes[node]))
                m_ranks[r].commBusy = false;
            else
                m_ranks[r].computeBusy = false;
            finish(r, node);
            issue(r);
        }
        MiniRun out;
        out.makespan = m_now;
        out.completed = true;
        for (size_t r = 0; r < m_ranks.size(); ++r)
            if (m_ranks[r].finished != m_w.traces[r].nodes.size()) {
                out.completed = false;
                if (out.deadlock.size() < 400) {
                    out.deadlock += "rank " + std::to_string(r) + " stuck";
                    for (size_t i = 0; i < m_ranks[r].done.size(); ++i)
                        if (!m_ranks[r].done[i] && m_ranks[r].waiting[i] == 0) {
                            out.deadlock += " at " + m_w.traces[r].nodes[i].name;
                            break;
                        }
                    out.deadlock += "; ";
                }
            }
        return out;
    }

private:
    void finish(size_t r, size_t node) {
        Rank& rank = m_ranks[r];
        rank.done[node] = true;
        ++rank.finished;
        for (size_t c : rank.children[node])
            if (--rank.waiting[c] == 0)
                rank.ready.insert(c);
    }

    /// Issues what rank r can issue now; instant completions may make more nodes ready, on r
    /// and on other ranks, so loop until nothing changes.
    void issue(size_t first) {
        std::vector<size_t> todo{first};
        while (!todo.empty()) {
            const size_t r = todo.back();
            todo.pop_back();
            bool changed = true;
            while (changed) {
                changed = false;
                Rank& rank = m_ranks[r];
                for (auto it = rank.ready.begin(); it != rank.ready.end();) {
                    const size_t i = *it;
                    const WorkloadNode& n = m_w.traces[r].nodes[i];
                    bool issued = false;
                    if (n.type == NodeType::Comp) {
                        if (!rank.computeBusy) {
                            rank.computeBusy = issued = true;
                            const double factor =
                                1 + m_jitter * double((r * 7919 + i * 104729 + m_salt) % 13) / 13;
                            m_events.push(
                                {m_now + double(n.durationMicros) * factor + 1e-3, m_seq++, r, i});
                        }
                    } else if (isMemory(n)) {
                        // A remote memory access holds the communication slot for a while.
                        if (!rank.commBusy) {
                            rank.commBusy = issued = true;
                            m_events.push(
                                {m_now + double(n.tensorSize) * 1e-4 + 1e-3, m_seq++, r, i});
                        }
                    } else if (n.type == NodeType::CommRecv) {
                        issued = true;
                        m_posted[keyOf(n)].push_back({r, i});
                        match(keyOf(n), todo);
                    } else if (!rank.commBusy) {
                        issued = true;
                        if (n.type == NodeType::CommSend) {
                            ++m_sent[keyOf(n)];
                            finish(r, i);
                            match(keyOf(n), todo);
                        } else {
                            rank.commBusy = true;
                            joinCollective(r, i, todo);
                        }
                    }
                    if (issued) {
                        it = rank.ready.erase(it);
                        changed = true;
                        break; // the ready set changed: restart in id order
                    }
                    ++it;
                }
            }
        }
    }

    static bool isMemory(const WorkloadNode& n) {
        return n.type == NodeType::MemLoad || n.type == NodeType::MemStore;
    }

    static Key keyOf(const WorkloadNode& n) {
        return {n.commTag, n.commSrc, n.commDst, n.commSize};
    }

    void match(const Key& key, std::vector<size_t>& todo) {
        auto& posted = m_posted[key];
        while (!posted.empty() && m_sent[key] > 0) {
            --m_sent[key];
            const auto [r, i] = posted.front();
            posted.erase(posted.begin());
            finish(r, i);
            todo.push_back(r);
        }
    }

    void joinCollective(size_t r, size_t i, std::vector<size_t>& todo) {
        const WorkloadNode& n = m_w.traces[r].nodes[i];
        const int k = m_ranks[r].issuedPerGroup[n.pgName]++;
        auto& members = m_joined[{n.pgName, k}];
        members.push_back({r, i});
        const size_t size =
            n.pgName.empty() ? m_ranks.size() : m_w.groups.at(std::stoi(n.pgName)).size();
        if (members.size() < size)
            return;
        for (const auto& [mr, mi] : members) {
            m_ranks[mr].commBusy = false;
            finish(mr, mi);
            todo.push_back(mr);
        }
        m_joined.erase({n.pgName, k});
    }

    const GeneratedWorkload& m_w;
    double m_jitter;
    unsigned m_salt;
    double m_now = 0;
    uint64_t m_seq = 0;
    std::vector<Rank> m_ranks;
    using Event = std::tuple<double, uint64_t, size_t, size_t>;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> m_events;
    std::map<Key, int> m_sent;
    std::map<Key, std::vector<std::pair<size_t, size_t>>> m_posted;
    std::map<std::pair<std::string, int>, std::vector<std::pair<size_t, size_t>>> m_joined;
};

} // namespace

MiniRun runMiniExecutor(const GeneratedWorkload& workload, double jitter, unsigned salt) {
    return Executor(workload, jitter, salt).run();
}

} // namespace astrolabe::generate::test
