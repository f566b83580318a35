#include "trace/kineto/KinetoImport.h"

#include "core/Error.h"
#include "trace/ErrorCollector.h"
#include "trace/kineto/CommParams.h"
#include "trace/kineto/ImportSchema.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

namespace astrolabe::kineto {
namespace {

bool contains(const std::string& text, const char* part) {
    return text.find(part) != std::string::npos;
}

// Kahn's algorithm over the nodes' dependencies; the ids are the indices.
std::vector<bool> stuckNodes(const std::vector<WorkloadNode>& nodes) {
    std::vector<uint32_t> pending(nodes.size(), 0);
    std::vector<std::vector<uint32_t>> children(nodes.size());
    for (uint32_t i = 0; i < nodes.size(); ++i)
        for (const auto* deps : {&nodes[i].dataDeps, &nodes[i].ctrlDeps})
            for (uint64_t parent : *deps) {
                ++pending[i];
                children[parent].push_back(i);
            }
    std::vector<uint32_t> ready;
    for (uint32_t i = 0; i < nodes.size(); ++i)
        if (pending[i] == 0)
            ready.push_back(i);
    while (!ready.empty()) {
        const uint32_t n = ready.back();
        ready.pop_back();
        for (uint32_t c : children[n])
            if (--pending[c] == 0)
                ready.push_back(c);
    }
    std::vector<bool> stuck(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i)
        stuck[i] = pending[i] > 0;
    return stuck;
}

bool runnable(CollectiveType type) {
    return type == CollectiveType::AllReduce || type == CollectiveType::AllGather ||
           type == CollectiveType::ReduceScatter || type == CollectiveType::AllToAll ||
           type == CollectiveType::Broadcast;
}

} // namespace

WorkloadNode gpuNode(const GpuActivity& activity, const KernelClassification& kind,
                     const std::optional<CommParams>& params, CommCounts& counts) {
    WorkloadNode n;
    n.name = activity.name;
    n.durationMicros = static_cast<uint64_t>(std::llround(activity.durationUs));
    if (kind.kind == KernelClass::Compute || kind.kind == KernelClass::Copy) {
        n.type = NodeType::Comp;
        return n;
    }
    n.type = NodeType::CommColl;
    n.commType = kind.collective;
    n.hasCommType = n.hasCommSize = true;
    n.commSize = 0; // unless the host side says
    // The host's kind where it is one the executor runs (a barrier or a reduce keeps the
    // kernel's kind, which the lenient rules and the executor judge).
    if (params && params->collective && runnable(*params->collective))
        n.commType = *params->collective;
    if (params && params->bytes) {
        n.commSize = *params->bytes;
        ++counts.sizeFromHost;
    } else {
        ++counts.sizeUnknown;
        if (params && !params->unknownDtype.empty())
            ++counts.unknownDtypes[params->unknownDtype];
    }
    if (params && !params->groupName.empty() && params->groupName != "0")
        ++counts.otherGroup;
    return n;
}

const char* kernelClassName(KernelClass kind) {
    switch (kind) {
    case KernelClass::Collective:
        return "collective";
    case KernelClass::PointToPoint:
        return "point-to-point";
    case KernelClass::ExpertAllToAll:
        return "expert-all-to-all";
    case KernelClass::ExpertControl:
        return "expert-control";
    case KernelClass::Copy:
        return "copy";
    case KernelClass::Compute:
        return "compute";
    }
    return "unknown";
}

KernelClassification classifyKernel(const std::string& category, const std::string& name) {
    if (category == "gpu_memcpy" || category == "gpu_memset")
        return {KernelClass::Copy, CollectiveType::AllToAll, "category gpu_memcpy / gpu_memset"};
    if (const auto type = collectiveTypeFromName(name))
        return {KernelClass::Collective, *type, "NCCL collective name"};
    if (isPointToPointName(name))
        return {KernelClass::PointToPoint, CollectiveType::AllToAll, "NCCL send / recv name"};
    // DeepEP (deep_ep::, and DeepSeek's internal build dpsk::ep::): dispatch and combine move
    // the tokens between expert ranks; the notify kernels exchange counts and synchronise.
    const bool expert = contains(name, "deep_ep::") || contains(name, "dpsk::ep::");
    if (expert && (contains(name, "::dispatch") || contains(name, "::combine")))
        return {KernelClass::ExpertAllToAll, CollectiveType::AllToAll, "DeepEP dispatch / combine"};
    if (expert && contains(name, "notify"))
        return {KernelClass::ExpertControl, CollectiveType::AllToAll, "DeepEP notify"};
    return {KernelClass::Compute, CollectiveType::AllToAll, "any other kernel"};
}

std::string kernelBaseName(const std::string& name) {
    // "(anonymous namespace)" is part of the name, not the start of the argument list.
    constexpr std::string_view kAnonymous = "(anonymous namespace)";
    size_t cut = 0;
    while (cut < name.size() && name[cut] != '<' &&
           (name[cut] != '(' || name.compare(cut, kAnonymous.size(), kAnonymous) == 0))
        cut += name[cut] == '(' ? kAnonymous.size() : 1;
    while (cut > 0 && name[cut - 1] == ' ')
        --cut;
    return name.substr(0, cut);
}

KinetoImport importKineto(const KinetoTrace& trace) {
    if (trace.activities.empty())
        throw Error(ErrorKind::Input,
                    "the profiler trace has no GPU activity (no event of category kernel, "
                    "gpu_memcpy or gpu_memset among " +
                        std::to_string(trace.events) + " events)",
                    SourceLocation{trace.file, 0, 0, {}},
                    "profile with ProfilerActivity.CUDA to record the GPU side");
    KinetoImport out;
    for (const GpuActivity& a : trace.activities)
        if (std::find(out.devices.begin(), out.devices.end(), a.device) == out.devices.end())
            out.devices.push_back(a.device);
    std::sort(out.devices.begin(), out.devices.end());

    const std::vector<std::optional<CommParams>> comm = commParamsOf(trace);
    std::map<std::pair<std::string, KernelClass>, KernelRow> rows;
    std::vector<std::pair<size_t, uint64_t>> nodeOf(trace.activities.size()); // trace, node
    for (size_t d = 0; d < out.devices.size(); ++d) {
        std::vector<size_t> order;
        for (size_t i = 0; i < trace.activities.size(); ++i)
            if (trace.activities[i].device == out.devices[d])
                order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            const GpuActivity &x = trace.activities[a], &y = trace.activities[b];
            return x.startUs != y.startUs ? x.startUs < y.startUs : x.stream < y.stream;
        });
        WorkloadTrace t;
        t.file = trace.file + " (GPU " + std::to_string(out.devices[d]) + ")";
        t.schemaVersion = std::string(kImportSchema);
        // The host's launch calls of this device's activities, each once, in start order: node
        // ids follow time (a launch precedes its kernel), so every dependency points back.
        std::vector<size_t> launches; // host event indices
        for (size_t i : order)
            if (const auto it = trace.runtimeByCorrelation.find(trace.activities[i].correlation);
                it != trace.runtimeByCorrelation.end())
                launches.push_back(it->second);
        std::sort(launches.begin(), launches.end(), [&](size_t a, size_t b) {
            const double x = trace.hostEvents[a].startUs, y = trace.hostEvents[b].startUs;
            return x != y ? x < y : a < b;
        });
        launches.erase(std::unique(launches.begin(), launches.end()), launches.end());
        std::map<size_t, uint64_t> launchNode; // host event index -> node id
        size_t nextLaunch = 0;
        const double hostStart = launches.empty() ? 0 : trace.hostEvents[launches[0]].startUs;
        int64_t hostAtUs = 0; // where the host chain ends, rounded once per launch
        auto addLaunchesUntil = [&](double startUs) {
            for (; nextLaunch < launches.size() &&
                   trace.hostEvents[launches[nextLaunch]].startUs <= startUs;
                 ++nextLaunch) {
                const HostEvent& call = trace.hostEvents[launches[nextLaunch]];
                WorkloadNode h;
                h.id = t.nodes.size();
                h.type = NodeType::Comp;
                h.isCpuOp = true;
                h.name = call.name;
                // Launches are in start order, so this is at least 0; clamped so that a
                // nonsensical time cannot overflow the arithmetic (2^53 us is 285 years).
                const int64_t at = std::llround(std::clamp(call.startUs - hostStart, 0.0, 9.0e15));
                h.durationMicros = static_cast<uint64_t>(std::max<int64_t>(0, at - hostAtUs));
                hostAtUs = std::max(hostAtUs, at);
                if (nextLaunch > 0)
                    h.ctrlDeps.push_back(launchNode[launches[nextLaunch - 1]]);
                launchNode[launches[nextLaunch]] = h.id;
                t.nodes.push_back(std::move(h));
                ++out.launchNodes;
            }
        };
        // Per stream: its activities so far (end, node id) and, per other stream, the node of
        // that stream it last waited for (an order stream order already implies is not added).
        struct StreamState {
            std::vector<std::pair<double, uint64_t>> done;
            size_t ended = 0; // activities of `done` that ended by the current start
            std::map<int64_t, uint64_t> waitedFor;
        };
        std::map<int64_t, StreamState> streams;
        double first = 0, last = 0;
        size_t nodeCount = 0;
        for (size_t i : order) {
            const GpuActivity& a = trace.activities[i];
            const auto launcher = trace.runtimeByCorrelation.find(a.correlation);
            const bool launched = launcher != trace.runtimeByCorrelation.end();
            // A launch after its kernel (host and device clocks disagree) still comes first.
            addLaunchesUntil(launched
                                 ? std::max(a.startUs, trace.hostEvents[launcher->second].startUs)
                                 : a.startUs);
            const KernelClassification c = classifyKernel(a.category, a.name);
            WorkloadNode n = gpuNode(a, c, comm[i], out.comm);
            n.id = t.nodes.size();
            StreamState& own = streams[a.stream];
            if (!own.done.empty())
                n.ctrlDeps.push_back(own.done.back().second);
            // Every order the measurement shows: on each other stream, the last activity that
            // ended before this one started.
            for (auto& [stream, other] : streams) {
                if (stream == a.stream)
                    continue;
                while (other.ended < other.done.size() &&
                       other.done[other.ended].first <= a.startUs)
                    ++other.ended;
                if (other.ended == 0)
                    continue;
                const uint64_t before = other.done[other.ended - 1].second;
                const auto seen = own.waitedFor.find(stream);
                if (seen != own.waitedFor.end() && seen->second == before)
                    continue;
                own.waitedFor[stream] = before;
                n.dataDeps.push_back(before);
                ++out.crossStreamDeps;
            }
            if (launched)
                n.dataDeps.push_back(launchNode.at(launcher->second));
            own.done.emplace_back(a.startUs + a.durationUs, n.id);
            nodeOf[i] = {d, n.id};
            if (nodeCount++ == 0 || a.startUs < first)
                first = a.startUs;
            last = std::max(last, a.startUs + a.durationUs);
            t.nodes.push_back(std::move(n));
            KernelRow& row = rows[{kernelBaseName(a.name), c.kind}];
            row.name = kernelBaseName(a.name);
            row.kind = c.kind;
            ++row.count;
            row.timeUs += a.durationUs;
            out.totalTimeUs += a.durationUs;
        }
        if (d == 0)
            out.measuredSpanUs = last - first;
        out.traces.push_back(std::move(t));
    }

    ErrorCollector errors;
    for (const GpuFlow& flow : trace.flows) {
        const auto [fromTrace, from] = nodeOf[flow.from];
        const auto [toTrace, to] = nodeOf[flow.to];
        if (fromTrace != toTrace)
            continue; // across devices: a rank's trace holds one device
        auto& deps = out.traces[toTrace].nodes[to].dataDeps;
        if (std::find(deps.begin(), deps.end(), from) == deps.end()) // not a measured order too
            deps.push_back(from);
        ++out.flowDeps;
    }
    for (const WorkloadTrace& t : out.traces) {
        const std::vector<bool> stuck = stuckNodes(t.nodes);
        for (const GpuFlow& flow : trace.flows) {
            const auto [traceIndex, to] = nodeOf[flow.to];
            if (&out.traces[traceIndex] == &t && stuck[to] && stuck[nodeOf[flow.from].second])
                errors.add(ErrorKind::Input, trace.file,
                           "traceEvents[" + std::to_string(trace.activities[flow.from].eventIndex) +
                               "]",
                           "flow " + flow.id + " from \"" +
                               trace.activities[flow.from].name.substr(0, 60) + "\" to \"" +
                               trace.activities[flow.to].name.substr(0, 60) +
                               "\" closes a cycle with stream order (it ends before it starts)",
                           "flows must point forward in time");
        }
    }
    errors.throwIfAny();

    for (auto& [key, row] : rows)
        out.kernels.push_back(std::move(row));
    std::stable_sort(out.kernels.begin(), out.kernels.end(),
                     [](const KernelRow& a, const KernelRow& b) {
                         return a.kind != b.kind ? a.kind < b.kind : a.timeUs > b.timeUs;
                     });
    return out;
}

} // namespace astrolabe::kineto
