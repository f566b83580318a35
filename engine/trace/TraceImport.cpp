#include "trace/TraceImport.h"

#include "core/Error.h"
#include "core/OutputFile.h"
#include "core/Units.h"
#include "trace/TraceIo.h"
#include "trace/TraceRepair.h"
#include "trace/WorkloadLoader.h"
#include "trace/kineto/KinetoImport.h"
#include "trace/kineto/KinetoTrace.h"
#include "trace/pytorch/ExecutionTrace.h"
#include "trace/pytorch/TraceLinker.h"

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

void commLines(const kineto::CommCounts& comm, std::vector<std::string>& out) {
    if (comm.sizeFromHost > 0)
        out.push_back(units::countOf(comm.sizeFromHost, "communication kernel") +
                      " sized from record_param_comms (In msg nelems x "
                      "dtype size)");
    if (comm.otherGroup > 0)
        out.push_back("assumed: " + units::countOf(comm.otherGroup, "communication kernel") +
                      " of a process group other than \"0\" run over "
                      "every NPU (the trace names the group, not its ranks)");
    if (comm.sizeUnknown > 0)
        out.push_back("assumed: " + units::countOf(comm.sizeUnknown, "communication kernel") +
                      " without a size in the trace run with size 0 (run "
                      "with system.replay-only to take them as measured)");
    for (const auto& [dtype, count] : comm.unknownDtypes) {
        std::string line = "  " + std::to_string(count) + " of them give" +
                           (count == 1 ? "s" : "") + " dtype \"" + dtype.substr(0, 60) +
                           "\", whose element size is not known";
        if (const std::string near = closestMatch(dtype, kineto::knownDtypes()); !near.empty())
            line += " (did you mean \"" + near + "\"?)";
        out.push_back(line);
    }
    if (!comm.unknownDtypes.empty()) {
        std::string known;
        for (const std::string& name : kineto::knownDtypes())
            known += (known.empty() ? "" : ", ") + name;
        out.push_back("  known dtypes: " + known);
    }
}

ImportedTraces importProfiler(const std::string& path) {
    const kineto::KinetoTrace trace = kineto::readKinetoTrace(path);
    kineto::KinetoImport imported = kineto::importKineto(trace);
    ImportedTraces out;
    out.format = TraceFormat::PyTorchProfiler;
    out.needsReplay = imported.comm.sizeUnknown > 0;
    out.report.push_back(path + ": " + units::countOf(trace.events, "event") + ", " +
                         units::countOf(trace.activities.size(), "GPU activity", "GPU activities") +
                         " on " + units::countOf(imported.devices.size(), "GPU") + " (rank " +
                         std::to_string(trace.rank) + " of " + std::to_string(trace.worldSize) +
                         ")");
    out.report.push_back("measured span of GPU " + std::to_string(imported.devices.front()) + ": " +
                         number(imported.measuredSpanUs) +
                         " us (first kernel start to last kernel end)");
    kernelLines(imported, out.report);
    commLines(imported.comm, out.report);
    out.report.push_back(std::to_string(imported.flowDeps) +
                         " dependencies from GPU-to-GPU flows; " + std::to_string(trace.hostFlows) +
                         " flows from the host and " + std::to_string(trace.unpairedFlows) +
                         " unpaired flows not imported");
    out.report.push_back(std::to_string(imported.crossStreamDeps) +
                         " dependencies on another stream's activity that ended before (as "
                         "measured); " +
                         std::to_string(imported.launchNodes) +
                         " host nodes replay the launch timeline; GPU kernels run on lanes of "
                         "their streams");
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
    switch (format) {
    case TraceFormat::PyTorchProfiler:
        return "PyTorch profiler trace";
    case TraceFormat::PyTorchLinked:
        return "PyTorch execution trace + profiler trace";
    case TraceFormat::ChakraEt:
        break;
    }
    return "Chakra ET";
}

namespace {

// The first MiB of the file, and where its text starts (npos: binary or empty).
std::pair<std::string, size_t> head(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(ErrorKind::Input, "cannot read the trace", SourceLocation{path, 0, 0, {}});
    std::string text(1 << 20, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(in.gcount()));
    size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] != '{' && text[first] != '[')
        first = std::string::npos;
    return {std::move(text), first};
}

} // namespace

bool isExecutionTrace(const std::string& path) {
    const auto [text, first] = head(path);
    return first != std::string::npos && text[first] == '{' &&
           text.find("\"traceEvents\"") == std::string::npos &&
           pytorch::looksLikeExecutionTrace(text);
}

TraceFormat detectTraceFormat(const std::string& path) {
    const auto [text, first] = head(path);
    if (first == std::string::npos)
        return TraceFormat::ChakraEt; // binary or gzip
    if (text.find("\"traceEvents\"") != std::string::npos ||
        (text[first] == '[' && text.find("\"ph\"") != std::string::npos))
        return TraceFormat::PyTorchProfiler;
    if (pytorch::looksLikeExecutionTrace(text))
        throw Error(ErrorKind::Input,
                    "this is a PyTorch execution trace (ExecutionTraceObserver's JSON), which "
                    "Astrolabe reads only together with its profiler trace",
                    SourceLocation{path, 0, 0, {}},
                    "give its Kineto trace too (astrolabe-cli import pytorch --et ET.json "
                    "--kineto TRACE.json; in the window, choose both files), or convert it with "
                    "Chakra's chakra_trace_link and chakra_converter and import the .et files "
                    "(docs/real-traces.md)");
    return TraceFormat::ChakraEt;
}

ImportedTraces importTraces(const std::string& path) {
    return detectTraceFormat(path) == TraceFormat::PyTorchProfiler ? importProfiler(path)
                                                                   : importChakra(path);
}

ImportedTraces importLinkedTraces(const std::string& etPath, const std::string& kinetoPath) {
    const pytorch::ExecutionTrace et = pytorch::readExecutionTrace(etPath);
    const kineto::KinetoTrace kinetoTrace = kineto::readKinetoTrace(kinetoPath);
    pytorch::LinkedTrace linked = pytorch::linkTraces(et, kinetoTrace);
    ImportedTraces out;
    out.format = TraceFormat::PyTorchLinked;
    out.needsReplay = linked.comm.sizeUnknown > 0;
    out.report.push_back(etPath + " (schema " + et.schema + ", " +
                         units::countOf(linked.etOperators, "node") + ") + " + kinetoPath + " (" +
                         units::countOf(kinetoTrace.events, "event") + ")");
    out.report.push_back(units::countOf(linked.hostOps, "operator") + " linked by " +
                         (linked.byExternalId ? "External id (the trace has no Record function id)"
                                              : "record function id") +
                         ", " + std::to_string(linked.unmatched) +
                         " nodes of the execution trace not in the profiler trace (left out)");
    out.report.push_back(units::countOf(linked.kernels, "GPU activity", "GPU activities") + ": " +
                         std::to_string(linked.launchedByOp) +
                         " after the operator that launched them, " +
                         std::to_string(linked.outsideOps) +
                         " launched outside every linked operator (stream order only)");
    out.report.push_back("host time " + number(linked.hostTimeUs) +
                         " us, each operator's own time (their durations add up to " +
                         number(linked.hostTimeUs + linked.nestedTimeUs) +
                         " us: nested operators are counted once)");
    commLines(linked.comm, out.report);
    repairTrace(linked.trace);
    const std::vector<std::string> assumed = assumptionLines({linked.trace});
    for (const std::string& line : assumed)
        out.report.push_back("assumed: " + line);
    out.ranks.push_back(std::move(linked.trace));
    return out;
}

std::string writeImportedTraces(const ImportedTraces& imported, const std::string& prefix, int npus,
                                bool rankZeroForAll) {
    const bool asRead = !rankZeroForAll && static_cast<int>(imported.ranks.size()) == npus;
    OutputSet written; // all ranks or none
    for (int rank = 0; rank < npus; ++rank) {
        const std::string path = workloadFileName(prefix, rank);
        writeWorkloadTrace(path, imported.ranks[asRead ? static_cast<size_t>(rank) : 0]);
        written.add(path);
    }
    written.commit();
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
