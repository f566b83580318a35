#include "plan/PassWalk.h"

#include <algorithm>
#include <array>

namespace astrolabe::plan {
namespace {

using generate::GroupKind;

/// The NPU's collective queues, first come first served: when each is free again.
class Queues {
public:
    /// A collective that runs beside the compute, issued at `issue`: its phases run one after
    /// the other, each after what its queue holds. Returns its id (see end()).
    int background(const std::vector<NetworkCosts::Phase>& phases, double issue) {
        if (m_end.empty())
            m_end.reserve(256);
        m_end.push_back(run(phases, issue));
        return static_cast<int>(m_end.size()) - 1;
    }

    /// A collective the compute waits for, issued at `issue`: when it ends.
    double blocking(const std::vector<NetworkCosts::Phase>& phases, double issue) {
        return run(phases, issue);
    }

    double end(int id) const { return id < 0 ? 0 : m_end[size_t(id)]; }

    /// When every queue is empty.
    double drained() const {
        double t = 0;
        for (double free : m_free)
            t = std::max(t, free);
        return t;
    }

private:
    double run(const std::vector<NetworkCosts::Phase>& phases, double issue) {
        double t = issue;
        for (const NetworkCosts::Phase& phase : phases) {
            if (size_t(phase.queue) >= m_free.size())
                m_free.resize(size_t(phase.queue) + 1, 0.0);
            double& free = m_free[size_t(phase.queue)];
            t = std::max(t, free) + phase.seconds;
            free = t;
        }
        return t;
    }

    std::vector<double> m_free; ///< per queue
    std::vector<double> m_end;  ///< per background collective
};

class Walker {
public:
    Walker(const WalkOptions& options, const PhaseSlots& table, const PhasesOf& phases)
        : m_options(options)
        , m_slots(table)
        , m_phases(phases) {}

    /// One pass over `layers` (forward order) starting at `t`; returns when its last step ends.
    /// `buckets`: reduce the gradients in buckets as the last backward pass does.
    double pass(const std::vector<WalkLayer>& layers, bool forward, double t, bool buckets) {
        const size_t n = layers.size();
        auto at = [&](size_t k) -> const WalkLayer& { return layers[forward ? k : n - 1 - k]; };
        const bool zero3 = m_options.zero3;
        m_gathers.assign(n, Ids{}); // ZeRO-3: per layer, per group
        std::vector<Ids>& gathers = m_gathers;
        for (Ids& ids : gathers)
            ids.fill(-1);
        if (zero3 && n > 0)
            gathers[0] = gather(at(0), t);
        std::array<double, kGroups> pending{}; // bucket bytes per group
        for (size_t k = 0; k < n; ++k) {
            const WalkLayer& layer = at(k);
            double start = t;
            for (const int id : gathers[k])
                start = std::max(start, m_queues.end(id));
            const bool recomputes = !forward && m_options.recompute && layer.recomputable;
            const std::vector<WalkStep>& leading =
                recomputes || forward ? layer.forward : layer.backward;
            const bool next = zero3 && k + 1 < n;
            const bool afterFirst = next && !leading.empty() && leading.front().collective;
            if (next && !afterFirst)
                gathers[k + 1] = gather(at(k + 1), start);
            double tt = start;
            bool first = true;
            auto run = [&](const std::vector<WalkStep>& steps) {
                for (const WalkStep& step : steps) {
                    if (step.collective) {
                        const auto& phases = step.slot >= 0
                                                 ? m_slots[size_t(step.slot)]
                                                 : m_phases(step.type, step.group, step.commBytes);
                        tt = m_queues.blocking(phases, tt);
                        for (const NetworkCosts::Phase& phase : phases)
                            m_plain += phase.seconds;
                    } else {
                        tt += step.seconds;
                        m_plain += step.seconds;
                    }
                    if (first && afterFirst)
                        gathers[k + 1] = gather(at(k + 1), tt);
                    first = false;
                }
            };
            if (recomputes)
                run(layer.forward);
            run(forward ? layer.forward : layer.backward);
            t = tt;
            if (forward)
                continue;
            for (const WalkShare& share : layer.shares) {
                const GroupKind group = share.group;
                if (zero3) {
                    double issue = t;
                    if (k + 1 < n)
                        issue = std::max(issue, m_queues.end(gathers[k + 1][size_t(group)]));
                    m_queues.background(
                        share.reduceSlot >= 0
                            ? m_slots[size_t(share.reduceSlot)]
                            : m_phases(CollectiveType::ReduceScatter, group, share.gradientBytes),
                        issue);
                } else if (buckets && group != GroupKind::None) {
                    double& b = pending[size_t(group)];
                    b += share.gradientBytes;
                    if (b >= m_options.bucketBytes) {
                        reduce(group, b, t);
                        b = 0;
                    }
                }
            }
        }
        for (size_t g = 0; g < kGroups; ++g)
            if (pending[g] > 0)
                reduce(static_cast<GroupKind>(g), pending[g], t);
        return t;
    }

    double drained() const { return m_queues.drained(); }
    /// The compute and blocking collectives walked so far, back to back.
    double plain() const { return m_plain; }
    /// ZeRO 1-2: the all-gathers of the buckets reduced so far, one after the other.
    double gathered() const { return m_gathered; }

private:
    static constexpr size_t kGroups = 16; // > the GroupKind values
    using Ids = std::array<int, kGroups>;

    Ids gather(const WalkLayer& layer, double issue) {
        Ids ids;
        ids.fill(-1);
        for (const WalkShare& share : layer.shares) {
            const GroupKind group = share.group;
            const int members = m_options.groupSize ? m_options.groupSize(group) : 1;
            const auto& phases = share.gatherSlot >= 0
                                     ? m_slots[size_t(share.gatherSlot)]
                                     : m_phases(CollectiveType::AllGather, group,
                                                share.bytes / std::max(1, members));
            if (!phases.empty())
                ids[size_t(group)] = m_queues.background(phases, issue);
        }
        return ids;
    }
    void reduce(GroupKind group, double bytes, double issue) {
        const CollectiveType type =
            m_options.zeroStage == 0 ? CollectiveType::AllReduce : CollectiveType::ReduceScatter;
        m_queues.background(m_phases(type, group, bytes), issue);
        if (m_options.zeroStage > 0) {
            const int members = m_options.groupSize ? m_options.groupSize(group) : 1;
            const double weights = bytes * m_options.weightBytesPerGradientByte;
            for (const NetworkCosts::Phase& phase :
                 m_phases(CollectiveType::AllGather, group, weights / std::max(1, members)))
                m_gathered += phase.seconds;
        }
    }

    const WalkOptions& m_options;
    const PhaseSlots& m_slots;
    const PhasesOf& m_phases;
    Queues m_queues;
    std::vector<Ids> m_gathers;
    double m_plain = 0, m_gathered = 0;
};

} // namespace

int slotOf(std::vector<SlotKey>& keys, CollectiveType type, GroupKind group, double commBytes) {
    for (size_t i = 0; i < keys.size(); ++i)
        if (keys[i].type == type && keys[i].group == group && keys[i].commBytes == commBytes)
            return static_cast<int>(i);
    keys.push_back({type, group, commBytes});
    return static_cast<int>(keys.size()) - 1;
}

Zero3Walk walkZero3MicroBatch(const WalkChunks& chunks, const WalkOptions& options,
                              const PhaseSlots& table, const PhasesOf& phases) {
    Walker walker(options, table, phases);
    const size_t v = chunks.size();
    double t = 0, second = 0;
    for (int round = 0; round < 2; ++round) {
        second = t;
        for (size_t c = 0; c < v; ++c) {
            t = walker.pass(chunks[c], true, t, false);
            t = walker.pass(chunks[v - 1 - c], false, t, false);
        }
    }
    return {t - second, std::max(0.0, walker.drained() - t)};
}

BucketWalk walkLastBackward(const WalkChunks& chunks, const WalkOptions& options,
                            const PhaseSlots& table, const PhasesOf& phases) {
    BucketWalk out;
    Walker walker(options, table, phases);
    for (size_t c = chunks.size(); c-- > 0;)
        out.withBuckets = walker.pass(chunks[c], false, out.withBuckets, true);
    out.without = walker.plain();
    out.gathers = walker.gathered();
    out.after = std::max(0.0, walker.drained() - out.withBuckets);
    return out;
}

BucketWalk walkChunkLastBackward(const std::vector<WalkLayer>& chunk, const WalkOptions& options,
                                 const PhaseSlots& table, const PhasesOf& phases) {
    BucketWalk out;
    Walker walker(options, table, phases);
    out.withBuckets = walker.pass(chunk, false, 0, true);
    out.without = walker.plain();
    out.gathers = walker.gathered();
    out.after = std::max(0.0, walker.drained() - out.withBuckets);
    return out;
}

} // namespace astrolabe::plan
