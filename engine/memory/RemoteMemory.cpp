#include "memory/RemoteMemory.h"

#include "core/Error.h"
#include "network/Transport.h"

#include <algorithm>
#include <memory>

namespace astrolabe {

RemoteMemory::RemoteMemory(Simulator& sim, const RemoteMemoryConfig& config, int npuCount,
                           Timing timing)
    : m_sim(sim)
    , m_config(config)
    , m_timing(timing) {
    switch (config.type) {
    case RemoteMemoryType::MemoryPool:
        m_serverFree.assign(1, SimTime::zero());
        break;
    case RemoteMemoryType::PerNodeMemoryExpansion: {
        const int perNode = std::max(1, config.numNpusPerNode);
        m_serverFree.assign(static_cast<size_t>((npuCount + perNode - 1) / perNode),
                            SimTime::zero());
        break;
    }
    case RemoteMemoryType::Pooled:
        m_npuCount = npuCount;
        m_serverFree.assign(static_cast<size_t>(npuCount + std::max(1, config.groups)),
                            SimTime::zero());
        break;
    default:
        break;
    }
}

SimTime RemoteMemory::pooledAccess(int npu, uint64_t bytes) {
    const double x = static_cast<double>(bytes);
    const SimTime onPort =
        m_timing.fromNs(x / static_cast<double>(std::max<uint64_t>(1, m_config.fabricBytesPerNs)));
    const SimTime inPool = m_timing.fromNs(x / static_cast<double>(m_config.bandwidthBytesPerNs));
    SimTime& port = m_serverFree[static_cast<size_t>(npu)];
    SimTime& pool =
        m_serverFree[static_cast<size_t>(m_npuCount + npu % std::max(1, m_config.groups))];
    const SimTime portStart = std::max(port, m_sim.now());
    const SimTime poolStart = std::max(pool, portStart);
    pool = poolStart + inPool;
    port = std::max(portStart + onPort, pool);
    return port + SimTime::fromNs(static_cast<int64_t>(m_config.latencyNs));
}

void RemoteMemory::routeThroughSwitches(Transport& transport, const DimensionSpec& dimension) {
    m_transport = &transport;
    m_switchDimension = dimension;
}

void RemoteMemory::switchedAccess(int npu, uint64_t bytes, bool store,
                                  std::function<void()> onDone) {
    // Done when both the pooled stages and the link are: whichever reports last completes it.
    struct Join {
        int pending = 2;
        std::function<void()> done;
    };
    auto join = std::make_shared<Join>();
    join->done = std::move(onDone);
    auto arrived = [join] {
        if (--join->pending == 0)
            join->done();
    };
    const DimensionSpec& dim = m_switchDimension;
    const SimTime linkFloor =
        m_sim.now() +
        m_timing.fromNs(dim.latencyNs + static_cast<double>(bytes) / dim.bytesPerNs());
    m_sim.scheduleAt(std::max(pooledAccess(npu, bytes), linkFloor), arrived);
    const int d = m_config.switchDimension;
    if (store)
        m_transport->sendToSwitch(npu, d, bytes, arrived);
    else
        m_transport->sendFromSwitch(d, npu, bytes, bytes, arrived);
}

SimTime RemoteMemory::accessTime(uint64_t bytes) const {
    const double transfer =
        m_config.bandwidthBytesPerNs > 0
            ? static_cast<double>(bytes) / static_cast<double>(m_config.bandwidthBytesPerNs)
            : 0.0;
    return SimTime::fromNs(static_cast<int64_t>(m_config.latencyNs)) + m_timing.fromNs(transfer);
}

void RemoteMemory::access(int npu, uint64_t nodeId, uint64_t bytes, bool store,
                          std::function<void()> onDone) {
    if (m_config.type == RemoteMemoryType::NoMemoryExpansion)
        throw Error(ErrorKind::Validation,
                    "NPU " + std::to_string(npu) + " node " + std::to_string(nodeId) +
                        " accesses remote memory, but the memory configuration is "
                        "NO_MEMORY_EXPANSION",
                    {m_config.sourceFile, 0, 0, "memory-type"},
                    "use PER_NPU_MEMORY_EXPANSION, PER_NODE_MEMORY_EXPANSION or MEMORY_POOL");
    if (m_config.bandwidthBytesPerNs == 0)
        throw Error(ErrorKind::Validation, "remote-mem-bw must be greater than zero",
                    {m_config.sourceFile, 0, 0, "remote-mem-bw"});
    if (m_config.type == RemoteMemoryType::Pooled && m_transport) {
        switchedAccess(npu, bytes, store, std::move(onDone));
        return;
    }
    if (m_config.type == RemoteMemoryType::Pooled) {
        m_sim.scheduleAt(pooledAccess(npu, bytes), std::move(onDone));
        return;
    }
    const SimTime a = accessTime(bytes);
    SimTime done = m_sim.now() + a;
    if (!m_serverFree.empty()) {
        size_t server = 0;
        if (m_config.type == RemoteMemoryType::PerNodeMemoryExpansion)
            server = static_cast<size_t>(npu / std::max(1, m_config.numNpusPerNode));
        SimTime& free = m_serverFree[server];
        done = std::max(free, m_sim.now()) + a;
        free = done;
    }
    m_sim.scheduleAt(done, std::move(onDone));
}

} // namespace astrolabe
