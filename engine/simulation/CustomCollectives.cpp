#include "simulation/CustomCollectives.h"

#include "collective/MscclXml.h"
#include "core/Error.h"
#include "trace/TraceIo.h"
#include "trace/WorkloadLoader.h"

namespace astrolabe {

namespace {
bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
} // namespace

const WorkloadTrace& CustomCollectives::trace(const std::string& source, int position,
                                              uint64_t bytes) {
    const bool xml = endsWith(source, ".xml");
    // ET traces carry their own sizes: one cache entry per rank whatever the collective size.
    const auto key = std::make_tuple(source, position, xml ? bytes : 0);
    if (auto it = m_cache.find(key); it != m_cache.end())
        return *it->second;
    if (!xml) {
        // <prefix>.<position>.et, one per algorithm rank (spec §7.2).
        auto trace =
            std::make_unique<WorkloadTrace>(readWorkloadTrace(workloadFileName(source, position)));
        return *(m_cache[key] = std::move(trace));
    }
    MscclAlgorithm algo = loadMscclXml(source, bytes);
    if (position < 0 || position >= algo.gpuCount)
        throw Error(ErrorKind::Validation,
                    "the custom collective has " + std::to_string(algo.gpuCount) +
                        " ranks but rank " + std::to_string(position) + " needs one",
                    {source, 0, 0, "ngpus"},
                    "the algorithm must have one rank per NPU of the group");
    for (int g = 0; g < algo.gpuCount; ++g)
        m_cache[std::make_tuple(source, g, bytes)] =
            std::make_unique<WorkloadTrace>(std::move(algo.traces[static_cast<size_t>(g)]));
    return *m_cache.at(key);
}

} // namespace astrolabe
