#pragma once
// Node id -> position in a trace, built once per trace by the validator, the repair rules and
// the executor. Generated traces and most recorded ones number their nodes in increasing order,
// often densely from some first id: then a lookup is arithmetic (dense) or a binary search over
// the ids (increasing), with no allocation per node. Any other order falls back to a hash map.
// A duplicate id keeps its first position; duplicates() lists the others.

#include "trace/WorkloadNode.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

namespace astrolabe {

class NodeIndex {
public:
    static constexpr uint32_t kAbsent = UINT32_MAX;

    explicit NodeIndex(const std::vector<WorkloadNode>& nodes) {
        const size_t n = nodes.size();
        bool increasing = true;
        for (size_t i = 1; i < n && increasing; ++i)
            increasing = nodes[i - 1].id < nodes[i].id;
        if (increasing) {
            m_count = n;
            m_first = n > 0 ? nodes.front().id : 0;
            if (n > 0 && nodes.back().id - m_first == n - 1) {
                m_mode = Mode::Dense;
                return;
            }
            m_mode = Mode::Increasing;
            m_ids.reserve(n);
            for (const WorkloadNode& node : nodes)
                m_ids.push_back(node.id);
            return;
        }
        m_mode = Mode::Hashed;
        m_map.reserve(n);
        for (size_t i = 0; i < n; ++i) {
            const auto [it, inserted] = m_map.emplace(nodes[i].id, static_cast<uint32_t>(i));
            if (!inserted)
                m_duplicates.emplace_back(static_cast<uint32_t>(i), it->second);
        }
    }

    /// The position of `id`, kAbsent when no node has it.
    uint32_t find(uint64_t id) const {
        switch (m_mode) {
        case Mode::Dense:
            return id >= m_first && id - m_first < m_count ? static_cast<uint32_t>(id - m_first)
                                                           : kAbsent;
        case Mode::Increasing: {
            const auto it = std::lower_bound(m_ids.begin(), m_ids.end(), id);
            return it != m_ids.end() && *it == id ? static_cast<uint32_t>(it - m_ids.begin())
                                                  : kAbsent;
        }
        case Mode::Hashed:
            break;
        }
        const auto it = m_map.find(id);
        return it == m_map.end() ? kAbsent : it->second;
    }
    bool contains(uint64_t id) const { return find(id) != kAbsent; }
    /// Like find(), for ids known to be present (throws std::out_of_range otherwise).
    uint32_t at(uint64_t id) const {
        const uint32_t i = find(id);
        if (i == kAbsent)
            throw std::out_of_range("no node with id " + std::to_string(id));
        return i;
    }
    /// (position, position of the first node with the same id) for every repeated id.
    const std::vector<std::pair<uint32_t, uint32_t>>& duplicates() const { return m_duplicates; }

private:
    enum class Mode : uint8_t { Dense, Increasing, Hashed };
    Mode m_mode = Mode::Dense;
    uint64_t m_first = 0;
    size_t m_count = 0;
    std::vector<uint64_t> m_ids;
    std::unordered_map<uint64_t, uint32_t> m_map;
    std::vector<std::pair<uint32_t, uint32_t>> m_duplicates;
};

} // namespace astrolabe
