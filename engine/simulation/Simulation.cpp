#include "simulation/Simulation.h"

#include "collective/CollectiveEngine.h"
#include "core/Error.h"
#include "core/Limits.h"
#include "core/Units.h"
#include "execution/NpuExecutor.h"
#include "memory/RemoteMemory.h"
#include "network/CongestionAwareNetwork.h"
#include "network/CongestionUnawareNetwork.h"
#include "network/PacketTier.h"
#include "network/Transport.h"
#include "record/LinkRecorder.h"
#include "simulation/CustomCollectives.h"
#include "simulation/ProcessGroups.h"
#include "simulation/RankFolding.h"
#include "simulation/StartupReport.h"
#include "simulation/Symmetry.h"
#include "simulation/WorkloadSource.h"
#include "spec/SpecValidation.h"
#include "topology/Topology.h"
#include "trace/TraceRepair.h"

#include <algorithm>
#include <chrono>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <optional>

namespace astrolabe {

namespace {

/// Hands freed memory back to the system every kStep bytes freed, in a large run only (traces
/// over kLargeRun). A large run frees its traces once the executors are built and the executors
/// once their results are taken; glibc keeps such memory mapped (and half the traces sit in the
/// arena of the thread that read them, which the run's own allocations never reuse), so without
/// the trim it would stay in the peak under the run's records. Small runs never trim: trimming
/// locks the heap, and a GUI thread allocating meanwhile would wait (a sweep of small runs would
/// stall the event loop).
class MemoryTrimmer {
public:
    static constexpr size_t kLargeRun = size_t{16} << 20;
    static constexpr size_t kStep = size_t{2} << 20;
    explicit MemoryTrimmer(size_t traceBytes)
        : m_enabled(traceBytes > kLargeRun) {}
    void freed(size_t bytes) {
        m_pending += bytes;
        if (m_pending > kStep)
            trim();
    }
    void finish() {
        if (m_pending > 0)
            trim();
    }

private:
    void trim() {
#ifdef __GLIBC__
        if (m_enabled)
            malloc_trim(0);
#endif
        m_pending = 0;
    }
    bool m_enabled;
    size_t m_pending = 0;
};

/// Sorts activities by (npu, start), equal keys kept in order. The executors append them NPU
/// after NPU; then each NPU's stretch is sorted alone, without a buffer as large as them all.
void sortActivities(std::vector<ActivityInterval>& activities) {
    const auto byNpu = [](const ActivityInterval& a, const ActivityInterval& b) {
        return a.npu < b.npu;
    };
    const auto byStart = [](const ActivityInterval& a, const ActivityInterval& b) {
        return a.start < b.start;
    };
    if (!std::is_sorted(activities.begin(), activities.end(), byNpu)) {
        std::stable_sort(activities.begin(), activities.end(),
                         [](const ActivityInterval& a, const ActivityInterval& b) {
                             return a.npu != b.npu ? a.npu < b.npu : a.start < b.start;
                         });
        return;
    }
    for (auto first = activities.begin(); first != activities.end();) {
        const auto last = std::upper_bound(first, activities.end(), *first, byNpu);
        std::stable_sort(first, last, byStart);
        first = last;
    }
}

std::unique_ptr<NetworkModel> makeNetwork(const SimulationSpec& spec, Simulator& sim,
                                          const Topology& topology, Transport& transport,
                                          LinkRecorder& recorder) {
    const Timing timing{spec.options.timing};
    switch (spec.options.backend) {
    case NetworkBackend::CongestionUnaware:
        return std::make_unique<CongestionUnawareNetwork>(sim, topology, timing, transport,
                                                          &recorder);
    case NetworkBackend::CongestionAware:
        return std::make_unique<CongestionAwareNetwork>(sim, topology, timing, transport,
                                                        &recorder);
    case NetworkBackend::Packet:
        if (static_cast<uint64_t>(topology.npuCount()) > kMaxPacketNpus)
            throw Error(ErrorKind::Validation,
                        "the packet tier simulates every packet in ns-3 and takes at "
                        "most " +
                            std::to_string(kMaxPacketNpus) + " NPUs, found " +
                            std::to_string(topology.npuCount()),
                        SourceLocation{spec.sourceFile, 0, 0, "run.backend"},
                        "use congestion-aware, which models how flows share the links at any "
                        "size, or run the packet tier on a slice of the platform (docs/limits.md)");
        return openPacketTier({&sim, &topology, &spec.options.packet, &transport, &recorder},
                              "run.backend: packet (ASTRA-sim's --network-backend=ns3)");
    }
    throw Error(ErrorKind::Internal, "unknown network backend");
}

/// The deadlock report, and where the inputs allow it, why: a hint for the error.
Error deadlockReport(const std::vector<std::unique_ptr<NpuExecutor>>& executors,
                     const CollectiveEngine& collectives, const Transport& transport,
                     const SimulationSpec& spec, SimTime now) {
    std::string report = "the simulation cannot finish: at " + std::to_string(now.nsFloor()) +
                         " ns no event is left but these NPUs still wait:";
    int shown = 0;
    for (const auto& e : executors) {
        if (e->finished())
            continue;
        if (++shown > 16) {
            report += "\n  ... and more NPUs";
            break;
        }
        report += "\n  NPU " + std::to_string(e->npu()) + ":";
        for (const std::string& line : e->describeWaiting())
            report += "\n    " + line;
        for (const std::string& line : collectives.describePending(e->npu()))
            report += "\n    collective " + line;
    }
    const auto pending = transport.pendingReceives();
    if (!pending.empty()) {
        report += "\n  unmatched receives (no message with the same tag, source and size arrived):";
        for (size_t i = 0; i < pending.size() && i < 16; ++i)
            report += "\n    NPU " + std::to_string(pending[i].dst) + " from NPU " +
                      std::to_string(pending[i].src) + ", " + std::to_string(pending[i].bytes) +
                      " bytes";
    }
    if (!collectives.chunksWaitForQueueSlots())
        return Error(ErrorKind::Deadlock, report);
    // Each dimension's queue runs at most ceil(active / queues) chunks at once (ASTRA-sim's
    // semantics, kept). NPUs that reach a queue with their chunks in different orders can wait
    // for each other's slots for ever.
    const SystemConfig& system = spec.system;
    return Error(ErrorKind::Deadlock,
                 report +
                     "\n  why: some chunks wait for a slot in their dimension's queue, which "
                     "runs at most " +
                     std::to_string(system.activeChunksPerDimension) +
                     " active chunk(s); when NPUs reach a queue with their chunks in different "
                     "orders (one NPU started later), the chunk holding the slot on one NPU can "
                     "wait for a peer whose slot another chunk holds, and neither moves",
                 SourceLocation{.keyPath = "system.active-chunks-per-dimension"},
                 "if every NPU runs the same collectives, raise active-chunks-per-dimension to "
                 "the number of chunks of a collective (preferred-dataset-splits, " +
                     std::to_string(system.preferredDatasetSplits) +
                     " here): no chunk then waits for a slot");
}

/// A TimeOverflow from the event loop, said in terms of the inputs: what was in flight, and the
/// slowest bandwidth of the platform (the usual cause: a message far too large for a link).
Error timeOverflowReport(const TimeOverflow& overflow, const SimulationSpec& spec,
                         const Topology& topology,
                         const std::vector<std::unique_ptr<NpuExecutor>>& executors, SimTime now) {
    std::string report = "a duration computed from the inputs passes the limit of the simulated "
                         "clock (about 106 days in picoseconds): " +
                         overflow.message() + " at " + units::formatTime(now) + "; in flight:";
    size_t shown = 0, more = 0;
    for (const auto& e : executors)
        for (const std::string& line : e->describeInFlight())
            if (++shown <= 8)
                report.append("\n  NPU ")
                    .append(std::to_string(e->npu()))
                    .append(": ")
                    .append(line);
            else
                ++more;
    if (shown == 0)
        report += " nothing (the overflow came from a delay of the platform itself)";
    if (more > 0)
        report.append("\n  ... and ").append(std::to_string(more)).append(" more nodes");
    double slowest = 0;
    std::string where;
    const auto consider = [&](double bytesPerSecond, std::string name) {
        if (slowest == 0 || bytesPerSecond < slowest) {
            slowest = bytesPerSecond;
            where = std::move(name);
        }
    };
    if (spec.platform.graph)
        for (int l = 0; l < topology.linkCount(); ++l)
            consider(topology.linkBytesPerNs(l) * 1e9, "link " + std::to_string(l));
    else
        for (size_t d = 0; d < spec.platform.dimensions.size(); ++d) {
            const DimensionSpec& dim = spec.platform.dimensions[d];
            consider(dim.bandwidthBytesPerSecond, "dimension " + std::to_string(d) + " (" +
                                                      blockKindName(dim.kind) + " of " +
                                                      std::to_string(dim.size) + " NPUs)");
        }
    if (slowest > 0)
        report.append("\nthe slowest link of the platform: ")
            .append(where)
            .append(" at ")
            .append(units::formatBandwidth(slowest));
    const std::string& file = spec.sourceFile.empty() ? spec.platform.sourceFile : spec.sourceFile;
    return Error(ErrorKind::Validation, report, {file, 0, 0, {}},
                 "the sizes and durations of these nodes over the platform's bandwidths and "
                 "compute rate give the durations; raise a bandwidth or shrink the node");
}

} // namespace

std::shared_ptr<const RunResult> runSimulation(const SimulationSpec& spec, ProgressSink* progress,
                                               const CancelToken* cancel) {
    return runSimulation(spec, loadWorkloadTraces(spec, spec.platform.npuCount()), progress,
                         cancel);
}

std::shared_ptr<const RunResult> runSimulation(const SimulationSpec& givenSpec,
                                               std::vector<WorkloadTrace> traces,
                                               ProgressSink* progress, const CancelToken* cancel) {
    const auto wallStart = std::chrono::steady_clock::now();
    SimulationSpec spec = givenSpec;
    spec.commGroups = withProcessGroups(givenSpec.commGroups, traces, spec.platform.npuCount());
    checkGroupsDefined(spec.commGroups, traces);
    const Topology topology(spec.platform);
    if (traces.size() != static_cast<size_t>(topology.npuCount()))
        throw Error(ErrorKind::Validation,
                    "the workload has " + std::to_string(traces.size()) +
                        " traces but the platform has " + std::to_string(topology.npuCount()) +
                        " NPUs",
                    {spec.sourceFile, 0, 0, "workload"},
                    "one trace per NPU: PREFIX.0.et ... PREFIX.<N-1>.et");

    auto result = std::make_shared<RunResult>();
    result->name = spec.name;
    result->npuCount = topology.npuCount();
    result->links = topology.links();
    result->reportLines = startupReportLines(spec, topology);
    for (const std::string& line : assumptionLines(traces))
        result->reportLines.push_back(std::string(kAssumedLinePrefix) + line);
    // ASTRA-sim does not read a trace's GPU count; one that disagrees with the platform says the
    // traces were most likely made for another machine.
    for (const WorkloadTrace& trace : traces)
        if (trace.recordedNpus > 0 && trace.recordedNpus != uint64_t(topology.npuCount())) {
            result->reportLines.push_back(
                std::string(kAssumedLinePrefix) + "ngpus: " + trace.file + " says it was " +
                "recorded for " + std::to_string(trace.recordedNpus) + " GPUs and the platform " +
                "has " + std::to_string(topology.npuCount()) +
                " NPUs; the traces were run as this platform's (ASTRA-sim does not read ngpus)");
            break;
        }

    Simulator sim;
    Transport transport(sim, spec.options.rendezvousProtocol);
    LinkRecorder recorder(topology.linkCount(), topology.npuCount(), spec.options.recordTimeline,
                          spec.options.recordLinkIntervals);
    const std::unique_ptr<NetworkModel> network =
        makeNetwork(spec, sim, topology, transport, recorder);
    transport.setNetwork(network.get());
    CollectiveEngine collectives(sim, transport, topology, spec, result.get());
    CustomCollectives customCollectives;
    collectives.setCustomTraceProvider(customCollectives.provider());
    const bool symmetric = symmetryObstacle(spec, traces).empty();
    collectives.setSymmetric(symmetric);
    if (auto* aware = dynamic_cast<CongestionAwareNetwork*>(network.get()))
        aware->setSymmetric(symmetric);
    std::optional<RankFolding> folding;
    if (!symmetric) {
        folding.emplace(spec, traces, topology);
        if (folding->folds()) {
            transport.setRankMap(&*folding);
            if (auto* aware = dynamic_cast<CongestionAwareNetwork*>(network.get()))
                aware->setServers(folding->linkServers(),
                                  [f = &*folding](int src, int dst) { f->checkRoute(src, dst); });
        } else {
            folding.reset();
        }
    }
    const Timing timing{spec.options.timing};
    RemoteMemory memory(sim, spec.memory, topology.npuCount(), timing);
    if (std::optional<Error> e = memorySwitchProblem(spec))
        throw std::move(*e);
    if (spec.memory.type == RemoteMemoryType::Pooled && spec.memory.switchDimension >= 0)
        memory.routeThroughSwitches(transport, topology.dimension(spec.memory.switchDimension));

    // The simulated NPUs: all of them, NPU 0 alone (symmetric) or one per class (folded).
    std::vector<int> simulated;
    if (folding)
        simulated = folding->representatives();
    else
        for (int npu = 0; npu < (symmetric ? 1 : topology.npuCount()); ++npu)
            simulated.push_back(npu);
    std::vector<int> executorOf(traces.size(), -1);
    for (size_t i = 0; i < simulated.size(); ++i)
        executorOf[static_cast<size_t>(simulated[i])] = static_cast<int>(i);

    std::vector<std::unique_ptr<NpuExecutor>> executors;
    executors.reserve(simulated.size());
    std::vector<std::vector<std::string>> linesOf(simulated.size());
    ExecutorContext context{&sim, &transport, &collectives, &memory, &spec, timing, [&](int npu) {
                                const auto i = static_cast<size_t>(executorOf[npu]);
                                auto lines = executors[i]->reportLines();
                                if (symmetric || folding)
                                    linesOf[i] = std::move(lines);
                                else
                                    for (std::string& line : lines)
                                        result->reportLines.push_back(std::move(line));
                            }};
    context.names = std::make_shared<NamePool>();
    // The executors keep what they need of a trace (RunNode), and the NPUs that follow by
    // symmetry need none: every trace is freed before the run, each one as soon as it is read.
    size_t traceBytes = 0;
    for (const WorkloadTrace& t : traces)
        traceBytes += t.nodes.capacity() * sizeof(WorkloadNode);
    MemoryTrimmer trimmer(traceBytes);
    auto freeTrace = [&](size_t npu) {
        trimmer.freed(traces[npu].nodes.capacity() * sizeof(WorkloadNode));
        std::vector<WorkloadNode>().swap(traces[npu].nodes);
    };
    for (int npu : simulated) {
        executors.push_back(
            std::make_unique<NpuExecutor>(npu, traces[static_cast<size_t>(npu)], context));
        freeTrace(static_cast<size_t>(npu));
    }
    for (size_t npu = 0; npu < traces.size(); ++npu)
        if (executorOf[npu] < 0)
            freeTrace(npu);
    trimmer.finish();
    if (spec.options.recordTimeline) {
        // One collective span per collective node, for every copy of a folded run, and an upper
        // estimate of the phase spans (chunks x phases of a localBWAware plan), reserved before
        // the run: growing them by doubling held the old and the new copy at once (untouched
        // capacity is not resident).
        const size_t copies = static_cast<size_t>(topology.npuCount()) / simulated.size();
        size_t spans = 0;
        for (const auto& e : executors)
            spans += e->collectiveCount();
        result->collectives.reserve(spans * copies);
        result->phases.reserve(
            spans * copies * static_cast<size_t>(std::max(1, spec.system.preferredDatasetSplits)) *
            static_cast<size_t>(2 * topology.dimensionCount() - 1));
    }
    Simulator::StopReason stop = Simulator::StopReason::Drained;
    try {
        for (auto& e : executors)
            e->start();
        stop = sim.run(cancel, progress);
    } catch (const TimeOverflow& overflow) {
        throw timeOverflowReport(overflow, spec, topology, executors, sim.now());
    }
    if (stop == Simulator::StopReason::Cancelled)
        throw Error(ErrorKind::Cancelled,
                    "the run was cancelled at " + std::to_string(sim.now().nsFloor()) + " ns");
    const bool allFinished = std::all_of(executors.begin(), executors.end(),
                                         [](const auto& e) { return e->finished(); });
    if (!allFinished)
        throw deadlockReport(executors, collectives, transport, spec, sim.now());

    result->simulatedNpus = static_cast<int>(simulated.size());
    const size_t copies = static_cast<size_t>(topology.npuCount()) / simulated.size();
    if (spec.options.recordTimeline) {
        size_t activities = 0;
        for (const auto& e : executors)
            activities += e->activityCount();
        result->activities.reserve(activities * copies);
    }
    // Each executor is released once summarized; the critical chains of those that finished
    // last (one of them ends the run) are kept.
    SimTime lastFinish;
    for (const auto& e : executors)
        lastFinish = std::max(lastFinish, e->finishTime());
    std::vector<std::vector<uint64_t>> chainOf(executors.size());
    NpuExecutor::NameIndex names;
    for (size_t i = 0; i < executors.size(); ++i) {
        result->npus.push_back(executors[i]->summarize(result.get(), &names));
        if (executors[i]->finishTime() == lastFinish)
            chainOf[i] = executors[i]->criticalChain();
        trimmer.freed(executors[i]->memoryBytes());
        executors[i].reset();
    }
    trimmer.finish();
    if (symmetric) {
        replicateRepresentative(*result, linesOf.front());
        std::vector<int> classOf(static_cast<size_t>(topology.linkCount()));
        for (int l = 0; l < topology.linkCount(); ++l)
            classOf[static_cast<size_t>(l)] = topology.linkClass(l);
        recorder.expandSymmetric(classOf, topology.linkClassCount(),
                                 [&](int a, int b) { return topology.translate(a, b); });
    } else if (folding) {
        folding->expand(*result, std::move(linesOf), spec.commGroups);
        recorder.expandOrbits(
            folding->orbitSize(), [&](int k, int link) { return folding->linkImage(k, link); },
            [&](int k, int npu) { return folding->apply(k, npu); });
    }
    for (const NpuSummary& n : result->npus)
        result->endTime = std::max(result->endTime, n.finish);
    sortActivities(result->activities);
    const auto latest = std::max_element(
        result->npus.begin(), result->npus.end(),
        [](const NpuSummary& a, const NpuSummary& b) { return a.finish < b.finish; });
    // Only representatives were simulated in a symmetric or folded run; node ids are the same
    // within a class, so the representative's chain is the latest NPU's.
    if (latest != result->npus.end()) {
        const int rep = folding     ? folding->representative(latest->npu)
                        : symmetric ? 0
                                    : latest->npu;
        for (uint64_t id : chainOf[static_cast<size_t>(executorOf[static_cast<size_t>(rep)])])
            result->criticalPath.push_back({latest->npu, id});
    }
    recorder.finish(*result, topology.dimensionCount());
    if (const auto* packets = dynamic_cast<const PacketTierNetwork*>(network.get()))
        for (std::string& line : packets->reportLines())
            result->reportLines.push_back(std::move(line));
    result->reportLines.push_back("[system] [warning] Exiting");
    result->events = sim.eventsProcessed();
    result->wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return result;
}

} // namespace astrolabe
