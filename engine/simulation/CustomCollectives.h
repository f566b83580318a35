#pragma once
// Loads and caches custom collective traces (spec §7): MSCCL-IR XML files converted on the fly,
// and Chakra ET prefixes through the trace reader.

#include "collective/CollectiveEngine.h"

#include <map>
#include <memory>
#include <string>
#include <tuple>

namespace astrolabe {

class CustomCollectives {
public:
    const WorkloadTrace& trace(const std::string& source, int position, uint64_t bytes);
    CustomTraceProvider provider() {
        return [this](const std::string& s, int p, uint64_t b) -> const WorkloadTrace& {
            return trace(s, p, b);
        };
    }

private:
    std::map<std::tuple<std::string, int, uint64_t>, std::unique_ptr<WorkloadTrace>> m_cache;
};

} // namespace astrolabe
