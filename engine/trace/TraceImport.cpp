#include "trace/TraceImport.h"

#include "core/Error.h"
#include "core/Units.h"
#include "trace/TraceIo.h"
#include "trace/TraceRepair.h"
#include "trace/WorkloadLoader.h"
#include "trace/kineto/KinetoImport.h"
#include "trace/kineto/KinetoTrace.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

namespace astrolabe {
namespace {

std::string percent(double part, double whole) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f%%", whole > 0 ? 100.0 * part / whole : 0.0);
    return text;
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

void kernelLines(const kineto::KinetoImport& imported, std::vector<std::string>& out) {
    out.push_back("kernels by class (count, time, share of all GPU time):");
    for (int k = 0; k <= static_cast<int>(kineto::KernelClass::Compute); ++k) {
        const auto kind = static_cast<kineto::KernelClass>(k);
        size_t count = 0;
        double time = 0;
        for (const kineto::KernelRow& row : imported.kernels)
            if (row.kind == kind) {
                count += row.count;
                time += row.timeUs;
            }
        if (count == 0)
            continue;
        out.push_back("  " + std::string(kineto::kernelClassName(kind)) + ": " +
                      std::to_string(count) + ", " + number(time) + " us, " +
                      percent(time, imported.totalTimeUs));
        for (const kineto::KernelRow& row : imported.kernels)
            if (row.kind == kind)
                out.push_back("    " + std::to_string(row.count) + " x " + row.name + ": " +
                              number(row.timeUs) + " us, " +
                              percent(row.timeUs, imported.totalTimeUs));
    }
}

ImportedTraces importProfiler(const std::string& path) {
    const kineto::KinetoTrace trace = kineto::readKinetoTrace(path);
    kineto::KinetoImport imported = kineto::importKineto(trace);
    ImportedTraces out;
    out.format = TraceFormat::PyTorchProfiler;
    out.needsReplay = imported.sizeUnknown > 0;
    out.report.push_back(path + ": " + units::countOf(trace.events, "event") + ", " +
                         units::countOf(trace.activities.size(), "GPU activity", "GPU activities") +
                         " on " + units::countOf(imported.devices.size(), "GPU") + " (rank " +
                         std::to_string(trace.rank) + " of " + std::to_string(trace.worldSize) +
                         ")");
    out.report.push_back("measured span of GPU " + std::to_string(imported.devices.front()) + ": " +
                         number(imported.measuredSpanUs) +
                         " us (first kernel start to last kernel end)");
    kernelLines(imported, out.report);
    if (imported.sizeFromHost > 0)
        out.report.push_back(std::to_string(imported.sizeFromHost) +
                             " communication kernels sized from record_param_comms (In msg "
                             "nelems x dtype size)");
    if (imported.otherGroup > 0)
        out.report.push_back("assumed: " + std::to_string(imported.otherGroup) +
                             " communication kernels of a process group other than \"0\" run "
                             "over every NPU (the trace names the group, not its ranks)");
    out.report.push_back(
        "assumed: " + std::to_string(imported.sizeUnknown) +
        " communication kernels without a size in the trace run with size 0 (run with "
        "system.replay-only to take them as measured); " +
        std::to_string(imported.flowDeps) + " dependencies from GPU-to-GPU flows; " +
        std::to_string(trace.hostFlows) + " flows from the host and " +
        std::to_string(trace.unpairedFlows) + " unpaired flows not imported");
    out.ranks = std::move(imported.traces);
    return out;
}

ImportedTraces importChakra(const std::string& path) {
    ImportedTraces out;
    static const std::regex rankFile(R"((.*)\.([0-9]+)\.et)");
    std::smatch match;
    std::vector<std::string> files{path};
    if (std::regex_match(path, match, rankFile)) {
        files.clear();
        const std::string prefix = match[1].str();
        for (int rank = 0; std::filesystem::exists(workloadFileName(prefix, rank)); ++rank)
            files.push_back(workloadFileName(prefix, rank));
        if (files.empty()) // PREFIX.3.et alone: the file chosen is the one trace
            files.push_back(path);
    }
    size_t nodes = 0;
    for (const std::string& file : files) {
        WorkloadTrace trace = readWorkloadTrace(file);
        repairTrace(trace);
        nodes += trace.nodes.size();
        out.ranks.push_back(std::move(trace));
    }
    out.report.push_back(files.front() + (files.size() > 1 ? " .. " + files.back() : "") + ": " +
                         units::countOf(files.size(), "rank") + ", " +
                         units::countOf(nodes, "node"));
    const std::vector<std::string> assumed = assumptionLines(out.ranks);
    if (assumed.empty())
        out.report.push_back("nothing assumed: the trace passes the strict checks");
    for (const std::string& line : assumed)
        out.report.push_back("assumed: " + line);
    return out;
}

} // namespace

const char* traceFormatName(TraceFormat format) {
    return format == TraceFormat::PyTorchProfiler ? "PyTorch profiler trace" : "Chakra ET";
}

TraceFormat detectTraceFormat(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(ErrorKind::Input, "cannot read the trace", SourceLocation{path, 0, 0, {}});
    std::string head(1 << 20, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    const size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || (head[first] != '{' && head[first] != '['))
        return TraceFormat::ChakraEt; // binary or gzip
    if (head.find("\"traceEvents\"") != std::string::npos ||
        (head[first] == '[' && head.find("\"ph\"") != std::string::npos))
        return TraceFormat::PyTorchProfiler;
    if (head.find("\"workload_graph\"") == std::string::npos &&
        head.find("\"nodes\"") != std::string::npos &&
        head.find("\"schema\"") != std::string::npos &&
        head.find("\"globalMetadata\"") == std::string::npos)
        throw Error(ErrorKind::Input,
                    "this is a PyTorch execution trace (ExecutionTraceObserver's JSON), which "
                    "Astrolabe does not read directly",
                    SourceLocation{path, 0, 0, {}},
                    "convert it with Chakra's chakra_trace_link and chakra_converter, then "
                    "import the .et files (docs/real-traces.md)");
    return TraceFormat::ChakraEt;
}

ImportedTraces importTraces(const std::string& path) {
    return detectTraceFormat(path) == TraceFormat::PyTorchProfiler ? importProfiler(path)
                                                                   : importChakra(path);
}

std::string writeImportedTraces(const ImportedTraces& imported, const std::string& prefix, int npus,
                                bool rankZeroForAll) {
    const bool asRead = !rankZeroForAll && static_cast<int>(imported.ranks.size()) == npus;
    for (int rank = 0; rank < npus; ++rank)
        writeWorkloadTrace(workloadFileName(prefix, rank),
                           imported.ranks[asRead ? static_cast<size_t>(rank) : 0]);
    const std::string files =
        workloadFileName(prefix, 0) + (npus > 1 ? " .. " + workloadFileName(prefix, npus - 1) : "");
    if (asRead)
        return "wrote " + files;
    if (rankZeroForAll)
        return "wrote " + files + ": rank 0's trace for every NPU";
    return "wrote " + files + ": the trace has " + units::countOf(imported.ranks.size(), "rank") +
           " and the platform " + units::countOf(static_cast<uint64_t>(npus), "NPU") +
           ", so every NPU runs rank 0's trace";
}

} // namespace astrolabe
