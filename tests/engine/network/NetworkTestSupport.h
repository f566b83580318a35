#pragma once
// A DeliverySink that notes when each token arrives, and platform builders, for the network
// model tests. Rates are given in bytes per nanosecond (the models' beta) so that closed forms
// read naturally: bandwidthBytesPerSecond = beta * 1e9.

#include "core/Simulator.h"
#include "network/NetworkModel.h"
#include "spec/PlatformSpec.h"

#include <cmath>
#include <cstdint>
#include <map>

namespace astrolabe::test {

class ArrivalLog : public DeliverySink {
public:
    explicit ArrivalLog(const Simulator& sim)
        : m_sim(sim) {}
    void onDelivered(uint64_t token) override { m_arrivals[token] = m_sim.now(); }
    /// When `token` arrived; SimTime::max() when it has not.
    SimTime at(uint64_t token) const {
        const auto it = m_arrivals.find(token);
        return it == m_arrivals.end() ? SimTime::max() : it->second;
    }
    size_t count() const { return m_arrivals.size(); }

private:
    const Simulator& m_sim;
    std::map<uint64_t, SimTime> m_arrivals;
};

inline DimensionSpec link(BlockKind kind, int size, double bytesPerNs, double latencyNs) {
    return DimensionSpec{kind, size, bytesPerNs * 1e9, latencyNs};
}

/// ASTRA-sim truncates a duration computed in double nanoseconds once: floor(x) ns.
inline SimTime floorNs(double ns) {
    return SimTime::fromNs(static_cast<int64_t>(std::floor(ns)));
}

} // namespace astrolabe::test
