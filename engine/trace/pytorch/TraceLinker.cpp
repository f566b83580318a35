#include "trace/pytorch/TraceLinker.h"

#include "core/Error.h"
#include "trace/ErrorCollector.h"
#include "trace/kineto/CommParams.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace astrolabe::pytorch {
namespace {

using kineto::GpuActivity;
using kineto::HostEvent;
using Thread = std::pair<int64_t, int64_t>; // (pid, tid)

// One linked operator: the Kineto host event and how it nests on its thread.
struct HostOp {
    size_t event = 0;    ///< index into KinetoTrace::hostEvents
    long parent = -1;    ///< enclosing linked operator on the same thread (index into ops)
    double nestedUs = 0; ///< time of the operators directly inside it
    uint64_t node = 0;   ///< its node id
};

} // namespace

LinkedTrace linkTraces(const ExecutionTrace& et, const kineto::KinetoTrace& kineto) {
    ErrorCollector errors;
    LinkedTrace out;
    out.etOperators = et.nodes.size();

    // Kineto's host operators by record-function id: "Record function id" where the trace has
    // it (PyTorch 2.1 and later), else "External id", which older versions set to the same id.
    // Id 0 names nothing: profilers write it when no execution trace was recorded, and the
    // observer gives it to its own root nodes.
    out.byExternalId = std::none_of(kineto.hostEvents.begin(), kineto.hostEvents.end(),
                                    [](const HostEvent& h) { return h.recordFunctionId >= 0; });
    std::map<int64_t, size_t> byRf;
    std::map<int64_t, size_t> reused; // id -> the second event with it
    for (size_t i = 0; i < kineto.hostEvents.size(); ++i) {
        const HostEvent& h = kineto.hostEvents[i];
        const int64_t key = out.byExternalId ? h.externalId : h.recordFunctionId;
        if (h.isRuntime() || key <= 0)
            continue;
        if (const auto [it, added] = byRf.try_emplace(key, i); !added)
            reused.try_emplace(key, i);
    }
    // An id on two operators or two nodes is refused where it would link (the other trace has
    // it too).
    std::map<int64_t, size_t> etByRf;
    std::vector<HostOp> ops;
    size_t renamed = 0; // linked operators whose names differ
    std::string firstRenamed;
    for (const EtOperator& op : et.nodes) {
        const auto k = byRf.find(op.rfId);
        if (op.rfId <= 0 || k == byRf.end())
            continue;
        if (const auto twice = reused.find(op.rfId); twice != reused.end()) {
            const HostEvent& h = kineto.hostEvents[twice->second];
            errors.add(ErrorKind::Input, kineto.file,
                       "traceEvents[" + std::to_string(h.eventIndex) + "] (\"" +
                           h.name.substr(0, 80) + "\")",
                       std::string(out.byExternalId ? "External id " : "record function id ") +
                           std::to_string(op.rfId) + " is used twice: here and at traceEvents[" +
                           std::to_string(kineto.hostEvents[k->second].eventIndex) +
                           "] (an operator's id names one operator; node " + std::to_string(op.id) +
                           " of " + et.file + " has it)");
            continue;
        }
        if (const auto [it, added] = etByRf.try_emplace(op.rfId, op.index); !added) {
            errors.add(ErrorKind::Input, et.file,
                       "nodes[" + std::to_string(op.index) + "] (node " + std::to_string(op.id) +
                           " \"" + op.name.substr(0, 80) + "\")",
                       "rf_id " + std::to_string(op.rfId) + " is used twice: here and at nodes[" +
                           std::to_string(it->second) +
                           "] (a record-function id names one operator)");
            continue;
        }
        ops.push_back({k->second});
        if (kineto.hostEvents[k->second].name != op.name && ++renamed == 1)
            firstRenamed = "node " + std::to_string(op.id) + " \"" + op.name.substr(0, 60) +
                           "\" is traceEvents[" +
                           std::to_string(kineto.hostEvents[k->second].eventIndex) + "] \"" +
                           kineto.hostEvents[k->second].name.substr(0, 60) + "\"";
    }
    // Ids are small counters that restart with every run, so an execution trace of another run
    // links all the same; the names tell (in a pair of one run every linked name agrees; half
    // or more disagreeing is refused).
    if (renamed > 0 && renamed * 2 >= ops.size())
        errors.add(ErrorKind::Input, et.file, "nodes",
                   "the two traces are not of one run: of " + std::to_string(ops.size()) +
                       " operators linked by " +
                       (out.byExternalId ? "External id" : "record function id") + ", " +
                       std::to_string(renamed) + (renamed == 1 ? " has" : " have") +
                       " another name in " + kineto.file + " (" + firstRenamed +
                       "); record both in one profiling session (the execution trace observer "
                       "and the profiler started together)");
    out.hostOps = ops.size();
    out.unmatched = et.nodes.size() - ops.size();

    // Nesting per host thread: in start order (the longer first at equal starts), an operator
    // is inside the last one still open when it starts.
    std::map<Thread, std::vector<size_t>> threads; // -> indices into ops, in start order
    for (size_t i = 0; i < ops.size(); ++i) {
        const HostEvent& h = kineto.hostEvents[ops[i].event];
        threads[{h.pid, h.tid}].push_back(i);
    }
    const auto startOf = [&](size_t op) { return kineto.hostEvents[ops[op].event].startUs; };
    const auto endOf = [&](size_t op) {
        const HostEvent& h = kineto.hostEvents[ops[op].event];
        return h.startUs + h.durationUs;
    };
    for (auto& [thread, list] : threads) {
        std::stable_sort(list.begin(), list.end(), [&](size_t a, size_t b) {
            return startOf(a) != startOf(b) ? startOf(a) < startOf(b) : endOf(a) > endOf(b);
        });
        std::vector<size_t> open;
        for (size_t op : list) {
            while (!open.empty() && endOf(open.back()) <= startOf(op))
                open.pop_back();
            if (!open.empty()) {
                ops[op].parent = static_cast<long>(open.back());
                ops[open.back()].nestedUs += std::min(endOf(op), endOf(open.back())) - startOf(op);
            }
            open.push_back(op);
        }
    }

    // Each GPU activity's launcher: the innermost linked operator around the runtime call
    // with its correlation, on the call's thread (-1: launched outside every linked operator).
    std::vector<long> launcherOf(kineto.activities.size(), -1);
    for (size_t i = 0; i < kineto.activities.size(); ++i) {
        const GpuActivity& a = kineto.activities[i];
        const auto call = kineto.runtimeByCorrelation.find(a.correlation);
        if (call == kineto.runtimeByCorrelation.end()) {
            errors.add(ErrorKind::Input, kineto.file,
                       "traceEvents[" + std::to_string(a.eventIndex) + "] (\"" +
                           a.name.substr(0, 80) + "\")",
                       a.correlation < 0
                           ? std::string("the GPU activity has no correlation id")
                           : "no runtime call launched this GPU activity (correlation " +
                                 std::to_string(a.correlation) + " is not in the trace)",
                       "the linker needs the cuda_runtime events; profile with "
                       "ProfilerActivity.CPU and ProfilerActivity.CUDA");
            continue;
        }
        const HostEvent& c = kineto.hostEvents[call->second];
        const auto thread = threads.find({c.pid, c.tid});
        if (thread == threads.end())
            continue;
        const std::vector<size_t>& list = thread->second;
        auto it = std::upper_bound(list.begin(), list.end(), c.startUs,
                                   [&](double ts, size_t op) { return ts < startOf(op); });
        long launcher = it == list.begin() ? -1 : static_cast<long>(*(it - 1));
        while (launcher >= 0 && endOf(static_cast<size_t>(launcher)) < c.startUs)
            launcher = ops[static_cast<size_t>(launcher)].parent;
        launcherOf[i] = launcher;
    }
    errors.throwIfAny();

    // Every node in start order, host operators before kernels at equal times. A kernel is
    // placed no earlier than its launcher and its stream's previous activity, so that every
    // dependency points to an earlier node even where host and device clocks disagree.
    struct Item {
        double time;
        bool gpu;
        size_t index; // into ops or kineto.activities
    };
    std::vector<Item> items;
    for (size_t i = 0; i < ops.size(); ++i)
        items.push_back({startOf(i), false, i});
    std::vector<size_t> byStart(kineto.activities.size());
    for (size_t i = 0; i < byStart.size(); ++i)
        byStart[i] = i;
    std::stable_sort(byStart.begin(), byStart.end(), [&](size_t x, size_t y) {
        return kineto.activities[x].startUs < kineto.activities[y].startUs;
    });
    std::map<Thread, double> streamTime; // (device, stream) -> last placed time
    for (size_t i : byStart) {
        const GpuActivity& a = kineto.activities[i];
        double time = a.startUs;
        if (launcherOf[i] >= 0)
            time = std::max(time, startOf(static_cast<size_t>(launcherOf[i])));
        if (const auto it = streamTime.find({a.device, a.stream}); it != streamTime.end())
            time = std::max(time, it->second);
        streamTime[{a.device, a.stream}] = time;
        items.push_back({time, true, i});
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& x, const Item& y) {
        return x.time != y.time ? x.time < y.time : (!x.gpu && y.gpu);
    });
    for (size_t id = 0; id < items.size(); ++id)
        if (!items[id].gpu)
            ops[items[id].index].node = id;

    const std::vector<std::optional<kineto::CommParams>> comm = kineto::commParamsOf(kineto);
    WorkloadTrace& t = out.trace;
    t.file = et.file + " + " + kineto.file;
    t.schemaVersion = "pytorch-link";
    std::map<Thread, uint64_t> lastOnThread;
    std::map<Thread, uint64_t> lastOnStream; // (device, stream)
    for (size_t id = 0; id < items.size(); ++id) {
        WorkloadNode n;
        if (!items[id].gpu) {
            const HostOp& op = ops[items[id].index];
            const HostEvent& h = kineto.hostEvents[op.event];
            const double own = std::max(h.durationUs - op.nestedUs, 0.0);
            n.name = h.name;
            n.type = NodeType::Comp;
            n.isCpuOp = true;
            n.durationMicros = static_cast<uint64_t>(std::llround(own));
            out.hostTimeUs += own;
            out.nestedTimeUs += h.durationUs - own;
            const Thread thread{h.pid, h.tid};
            if (const auto it = lastOnThread.find(thread); it != lastOnThread.end())
                n.ctrlDeps.push_back(it->second);
            lastOnThread[thread] = id;
        } else {
            const size_t i = items[id].index;
            const GpuActivity& a = kineto.activities[i];
            n = kineto::gpuNode(a, kineto::classifyKernel(a.category, a.name), comm[i], out.comm);
            ++out.kernels;
            const Thread stream{a.device, a.stream};
            if (const auto it = lastOnStream.find(stream); it != lastOnStream.end())
                n.ctrlDeps.push_back(it->second);
            lastOnStream[stream] = id;
            if (launcherOf[i] >= 0) {
                n.dataDeps.push_back(ops[static_cast<size_t>(launcherOf[i])].node);
                ++out.launchedByOp;
            } else {
                ++out.outsideOps;
            }
        }
        n.id = id;
        t.nodes.push_back(std::move(n));
    }
    return out;
}

} // namespace astrolabe::pytorch
