#include "trace/WorkloadLoader.h"

#include "core/Limits.h"
#include "trace/ErrorCollector.h"
#include "trace/TraceIo.h"
#include "trace/TraceRepair.h"
#include "trace/WorkloadValidator.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <thread>

namespace astrolabe {

std::string workloadFileName(const std::string& prefix, int rank) {
    return prefix + "." + std::to_string(rank) + ".et";
}

std::vector<WorkloadTrace> loadWorkload(const std::string& prefix, int npuCount,
                                        const LoadOptions& options) {
    namespace fs = std::filesystem;
    ErrorCollector errors(options.maxErrors);
    if (npuCount <= 0)
        throw Error(ErrorKind::Validation,
                    "cannot load a workload for " + std::to_string(npuCount) + " NPUs",
                    SourceLocation{prefix});
    // Before a file is looked for: one existence check and one trace slot per NPU.
    if (static_cast<uint64_t>(npuCount) > kMaxNpus)
        throw Error(ErrorKind::Validation,
                    "cannot load a workload for " + std::to_string(npuCount) +
                        " NPUs: expected at most " + std::to_string(kMaxNpus),
                    SourceLocation{prefix}, kLimitsHint);

    // File presence first, so a wrong prefix gives one clear message, not one per NPU.
    std::vector<int> missing;
    for (int rank = 0; rank < npuCount; ++rank)
        if (!fs::exists(workloadFileName(prefix, rank)))
            missing.push_back(rank);
    if (static_cast<int>(missing.size()) == npuCount)
        errors.add(ErrorKind::Input, workloadFileName(prefix, 0), {},
                   "workload file does not exist (nor does any of " + prefix + ".0.et .. " +
                       prefix + "." + std::to_string(npuCount - 1) + ".et)",
                   "the workload is a path prefix P; NPU i reads P.i.et");
    else
        for (int rank : missing)
            errors.add(ErrorKind::Input, workloadFileName(prefix, rank), {},
                       "workload file for NPU " + std::to_string(rank) + " of " +
                           std::to_string(npuCount) + " does not exist",
                       "the workload is a path prefix P; NPU i reads P.i.et");
    if (fs::exists(workloadFileName(prefix, npuCount)))
        errors.add(ErrorKind::Validation, workloadFileName(prefix, npuCount), {},
                   "NPU count mismatch: this file exists but the platform has only " +
                       std::to_string(npuCount) + " NPUs (0.." + std::to_string(npuCount - 1) + ")",
                   "the workload was generated for more NPUs than the network configuration has");
    errors.throwIfAny();

    // Decoding is independent per file: spread it over the cores, ranks taken in turn. Errors
    // are kept per rank and reported in rank order, as a sequential read would.
    std::vector<WorkloadTrace> traces(npuCount);
    std::vector<std::vector<Error>> failures(static_cast<size_t>(npuCount));
    std::atomic<int> next{0};
    std::atomic<size_t> errorCount{0};
    auto work = [&] {
        for (int rank = next++; rank < npuCount && errorCount < options.maxErrors; rank = next++) {
            auto& mine = failures[static_cast<size_t>(rank)];
            try {
                traces[rank] =
                    readWorkloadTrace(workloadFileName(prefix, rank), options.readTensors);
                if (!options.strict)
                    repairTrace(traces[rank]);
            } catch (const ErrorList& list) {
                mine = list.errors();
            } catch (const Error& e) {
                mine.push_back(e);
            } catch (const std::exception& e) { // e.g. out of memory: a thread must not throw
                mine.emplace_back(ErrorKind::Internal, e.what(),
                                  SourceLocation{workloadFileName(prefix, rank)});
            }
            errorCount += mine.size();
        }
    };
    const int threads = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 8);
    {
        std::vector<std::jthread> helpers;
        for (int t = 1; t < std::min(threads, (npuCount + 7) / 8); ++t)
            helpers.emplace_back(work);
        work();
    }
    for (const auto& list : failures)
        for (const Error& e : list)
            if (!errors.full())
                errors.add(e);
    errors.throwIfAny();

    if (!options.strict && npuCount == 1)
        for (const WorkloadNode& node : traces[0].nodes)
            if (node.type == NodeType::CommColl && node.commType != CollectiveType::Broadcast)
                traces[0].assumptions.add(Assumption::SingleNpuCollective, node.id);
    validateWorkload(traces, options);

    for (int rank = 0; rank < npuCount; ++rank)
        for (WorkloadNode& node : traces[rank].nodes) {
            if (node.type == NodeType::CommSend && !node.hasCommSrc)
                node.commSrc = static_cast<uint32_t>(rank);
            if (node.type == NodeType::CommRecv && !node.hasCommDst)
                node.commDst = static_cast<uint32_t>(rank);
        }
    return traces;
}

} // namespace astrolabe
