#include "tacos/ScheduleRecognition.h"

#include "collective/MscclXml.h"
#include "tacos/ScheduleExport.h"
#include "trace/TraceIo.h"

#include <exception>
#include <vector>

namespace astrolabe {
namespace {

bool endsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::vector<WorkloadTrace> readSource(const std::string& source, int npus, uint64_t bytes) {
    if (endsWith(source, ".xml"))
        return loadMscclXml(source, bytes).traces;
    std::vector<WorkloadTrace> traces;
    for (int npu = 0; npu < npus; ++npu)
        traces.push_back(readWorkloadTrace(source + "." + std::to_string(npu) + ".et"));
    return traces;
}

/// The first difference between two sets of traces, empty when there is none.
std::string firstDifference(const std::vector<WorkloadTrace>& files,
                            const std::vector<WorkloadTrace>& synthesized) {
    if (files.size() != synthesized.size())
        return std::to_string(files.size()) + " NPUs in the files, " +
               std::to_string(synthesized.size()) + " synthesized";
    for (size_t npu = 0; npu < files.size(); ++npu) {
        const std::vector<WorkloadNode>& a = files[npu].nodes;
        const std::vector<WorkloadNode>& b = synthesized[npu].nodes;
        std::string where = "NPU " + std::to_string(npu);
        if (a.size() != b.size())
            return where + ": " + std::to_string(a.size()) + " nodes in the files, " +
                   std::to_string(b.size()) + " synthesized";
        for (size_t i = 0; i < a.size(); ++i) {
            const WorkloadNode& x = a[i];
            const WorkloadNode& y = b[i];
            if (x.type != y.type || x.commSrc != y.commSrc || x.commDst != y.commDst ||
                x.commSize != y.commSize || x.commTag != y.commTag || x.dataDeps != y.dataDeps) {
                where += ", node ";
                where += std::to_string(x.id);
                where += " differs";
                return where;
            }
        }
    }
    return {};
}

} // namespace

ScheduleRecognition recognizeExportedSchedule(const GraphSpec& graph, SynthesisOptions options,
                                              const std::string& source) {
    ScheduleRecognition out;
    try {
        const int npus = graph.npus;
        std::vector<WorkloadTrace> files = readSource(source, npus, options.bytes);
        // The chunk size is every send's size: chunksPerNpu follows from it.
        uint64_t chunkBytes = 0;
        for (const WorkloadTrace& t : files)
            for (const WorkloadNode& n : t.nodes)
                if (n.type == NodeType::CommSend && chunkBytes == 0)
                    chunkBytes = n.commSize;
        if (chunkBytes == 0) {
            out.reason = "the files send nothing";
            return out;
        }
        const uint64_t perNpu = options.kind == SynthesisKind::AllGather
                                    ? options.bytes
                                    : options.bytes / static_cast<uint64_t>(npus);
        if (perNpu % chunkBytes != 0 || perNpu / chunkBytes == 0) {
            out.reason = "their chunk of " + std::to_string(chunkBytes) +
                         " bytes does not divide the collective's share per NPU";
            return out;
        }
        options.chunksPerNpu = static_cast<int>(perNpu / chunkBytes);
        options.automaticChunks = false;
        out.schedule = synthesize(graph, options);
        out.reason = firstDifference(files, scheduleTraces(out.schedule));
        out.recognized = out.reason.empty();
    } catch (const std::exception& e) {
        out.reason = e.what();
    }
    return out;
}

} // namespace astrolabe
