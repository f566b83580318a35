#include "export/MemoryTraceExport.h"

#include "core/OutputFile.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>

namespace astrolabe {

namespace {

constexpr int64_t kLifetimePid = 1'000'000;
constexpr int64_t kUsagePid = 2'000'000;

double micros(SimTime t) {
    return static_cast<double>(t.ps()) / 1e6;
}

/// Events separated by ",\n", one per line.
class EventWriter {
public:
    explicit EventWriter(std::ostream& out)
        : m_out(out) {
        m_out << "{\"traceEvents\": [\n";
    }
    void add(const nlohmann::json& event) {
        if (!m_first)
            m_out << ",\n";
        m_first = false;
        m_out << event.dump();
    }
    void close() { m_out << "\n]}\n"; }

private:
    std::ostream& m_out;
    bool m_first = true;
};

nlohmann::json processName(int64_t pid, const std::string& name) {
    return {{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}};
}

} // namespace

std::string memoryTraceFileName(const std::string& prefix, int rank) {
    std::string name = prefix;
    name += '.';
    name += std::to_string(rank);
    name += ".json";
    return name;
}

void writeMemoryTrace(std::ostream& out, const RunResult& result, int rank) {
    EventWriter events(out);
    const int64_t lifetimePid = rank + kLifetimePid;
    const int64_t usagePid = rank + kUsagePid;
    std::string lifetimes = "NPU ";
    lifetimes += std::to_string(rank);
    std::string usage = lifetimes;
    lifetimes += " tensor lifetimes";
    usage += " local memory";
    events.add(processName(lifetimePid, lifetimes));
    events.add(processName(usagePid, usage));
    int64_t tid = 0;
    // tensorLifetimes is in NPU order: this NPU's tensors are one range.
    const auto& all = result.tensorLifetimes;
    const auto first = std::lower_bound(all.begin(), all.end(), rank,
                                        [](const TensorLifetime& l, int r) { return l.npu < r; });
    for (auto it = first; it != all.end() && it->npu == rank; ++it) {
        const TensorLifetime& life = *it;
        const nlohmann::json args = {{"size", life.bytes}};
        events.add({{"name", life.name},
                    {"cat", "tensorLifetime"},
                    {"ph", "B"},
                    {"ts", micros(life.allocated)},
                    {"pid", lifetimePid},
                    {"tid", tid},
                    {"args", args}});
        events.add({{"name", life.name},
                    {"cat", "tensorLifetime"},
                    {"ph", "E"},
                    {"ts", micros(life.released)},
                    {"pid", lifetimePid},
                    {"tid", tid},
                    {"args", args}});
        ++tid;
    }
    if (static_cast<size_t>(rank) < result.memoryUsage.size())
        for (const MemoryUsagePoint& p : result.memoryUsage[static_cast<size_t>(rank)])
            events.add({{"name", "GPU Memory Usage (MB)"},
                        {"cat", "GPU Memory"},
                        {"ph", "C"},
                        {"ts", micros(p.time)},
                        {"pid", usagePid},
                        {"args", {{"Memory_MB", static_cast<double>(p.bytes) / 1048576.0}}}});
    events.close();
}

std::vector<std::string> writeMemoryTraceFiles(const std::string& prefix, const RunResult& result) {
    std::vector<std::string> files;
    if (result.memoryUsage.empty())
        return files;
    const std::filesystem::path folder = std::filesystem::path(prefix).parent_path();
    std::error_code ignored; // a folder that cannot be made shows up as a file that cannot be
    if (!folder.empty())
        std::filesystem::create_directories(folder, ignored);
    for (size_t rank = 0; rank < result.memoryUsage.size(); ++rank) {
        const std::string file = memoryTraceFileName(prefix, static_cast<int>(rank));
        writeOutputFile(file, "the local memory trace", [&](std::ostream& out) {
            writeMemoryTrace(out, result, static_cast<int>(rank));
        });
        files.push_back(file);
    }
    return files;
}

} // namespace astrolabe
