#include "tacos/Evaluate.h"

#include "core/Error.h"
#include "core/OutputFile.h"
#include "simulation/Simulation.h"
#include "tacos/ScheduleExport.h"
#include "trace/TraceIo.h"
#include "trace/WorkloadLoader.h"

#include <algorithm>

namespace astrolabe {

namespace {

/// Local memory so fast that the built-ins' reductions cost (next to) nothing.
constexpr double kFreeReductionGBps = 1e9;

CollectiveType collectiveOf(SynthesisKind kind) {
    switch (kind) {
    case SynthesisKind::AllGather:
        return CollectiveType::AllGather;
    case SynthesisKind::ReduceScatter:
        return CollectiveType::ReduceScatter;
    case SynthesisKind::AllReduce:
        break;
    }
    return CollectiveType::AllReduce;
}

double lastFinishNs(const RunResult& r) {
    double last = 0;
    for (const NpuSummary& n : r.npus)
        last = std::max(last, static_cast<double>(n.finish.nsFloor()));
    return last;
}

} // namespace

SimulationSpec microbenchmarkSpec(const SimulationSpec& base, SynthesisKind kind, uint64_t bytes) {
    SimulationSpec s = base;
    s.workload = {};
    s.workload.kind = WorkloadSource::Kind::Microbenchmark;
    s.workload.microbenchmark.collective = static_cast<int>(collectiveOf(kind));
    s.workload.microbenchmark.sizeBytes = bytes;
    s.system.customAllReduce.clear();
    s.system.customReduceScatter.clear();
    s.system.customAllGather.clear();
    s.system.customAllToAll.clear();
    s.system.perNodeCustom.clear();
    s.options.recordTimeline = false;
    return s;
}

void writeScheduleEt(const Schedule& schedule, const std::string& prefix) {
    const std::vector<WorkloadTrace> traces = scheduleTraces(schedule);
    OutputSet written; // all NPUs or none
    for (size_t npu = 0; npu < traces.size(); ++npu) {
        const std::string path = workloadFileName(prefix, static_cast<int>(npu));
        writeWorkloadTrace(path, traces[npu]);
        written.add(path);
    }
    written.commit();
}

void setCustomSource(SimulationSpec& spec, SynthesisKind kind, const std::string& source) {
    switch (kind) {
    case SynthesisKind::AllGather:
        spec.system.customAllGather = source;
        return;
    case SynthesisKind::ReduceScatter:
        spec.system.customReduceScatter = source;
        return;
    case SynthesisKind::AllReduce:
        spec.system.customAllReduce = source;
        return;
    }
}

double runCustomCollective(const SimulationSpec& base, SynthesisKind kind, uint64_t bytes,
                           const std::string& source) {
    SimulationSpec s = microbenchmarkSpec(base, kind, bytes);
    setCustomSource(s, kind, source);
    return lastFinishNs(*runSimulation(s));
}

std::vector<AlgorithmTime> runBuiltinAlgorithms(const SimulationSpec& base, SynthesisKind kind,
                                                uint64_t bytes,
                                                const std::vector<std::string>& algorithms) {
    std::vector<AlgorithmTime> out;
    for (const std::string& name : algorithms) {
        SimulationSpec s = microbenchmarkSpec(base, kind, bytes);
        const std::vector<AlgorithmSpec> list(s.platform.dimensions.size(), parseAlgorithm(name));
        s.system.allReduce = s.system.reduceScatter = s.system.allGather = list;
        s.system.localMemBandwidthGBps = kFreeReductionGBps;
        AlgorithmTime t{name, 0, {}};
        try {
            t.ns = lastFinishNs(*runSimulation(s));
        } catch (const Error& e) {
            t.error = e.message();
        }
        out.push_back(std::move(t));
    }
    return out;
}

double bandwidthLowerBoundNs(const Schedule& s) {
    std::vector<double> in = s.ingressBytesPerNs, out = s.egressBytesPerNs;
    if (in.size() != static_cast<size_t>(s.npus) || out.size() != in.size()) {
        in.assign(static_cast<size_t>(s.npus), 0);
        out = in;
        for (const SynthLink& l : s.links) {
            out[static_cast<size_t>(l.src)] += l.bytesPerNs;
            in[static_cast<size_t>(l.dst)] += l.bytesPerNs;
        }
    }
    const double minIn = *std::min_element(in.begin(), in.end());
    const double minOut = *std::min_element(out.begin(), out.end());
    const double n = s.npus;
    const double b = static_cast<double>(s.bytes);
    switch (s.kind) {
    case SynthesisKind::AllGather:
        return (n - 1) * b / minIn;
    case SynthesisKind::ReduceScatter:
        return (n - 1) / n * b / minOut;
    case SynthesisKind::AllReduce:
        break;
    }
    return (n - 1) / n * b / minOut + (n - 1) / n * b / minIn;
}

} // namespace astrolabe
