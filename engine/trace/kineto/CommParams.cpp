#include "trace/kineto/CommParams.h"

#include "trace/WorkloadNode.h"

#include <algorithm>
#include <map>
#include <utility>

namespace astrolabe::kineto {
namespace {

CommParams paramsFrom(const CommArgs& args, const char* source) {
    CommParams p;
    p.collectiveName = args.collective;
    // Collective names are c10d's calls ("allreduce", "_reduce_scatter_base", "all_to_allv"):
    // one name table for every reader, collectiveTypeFromName, which reads c10d names.
    if (!args.collective.empty())
        p.collective = collectiveTypeFromName("c10d::" + args.collective);
    if (const uint64_t element = dtypeBytes(args.dtype); element > 0 && args.inElements >= 0) {
        uint64_t bytes = 0;
        if (!__builtin_mul_overflow(static_cast<uint64_t>(args.inElements), element, &bytes))
            p.bytes = bytes;
    } else if (!args.dtype.empty() && element == 0) {
        p.unknownDtype = args.dtype;
    }
    p.groupName = args.groupName;
    p.groupSize = args.groupSize;
    p.source = source;
    return p;
}

const std::vector<std::pair<std::string, uint64_t>>& dtypeTable() {
    static const std::vector<std::pair<std::string, uint64_t>> kBytes = {{"Bool", 1},
                                                                         {"Byte", 1},
                                                                         {"Char", 1},
                                                                         {"UInt8", 1},
                                                                         {"Int8", 1},
                                                                         {"Float8_e4m3fn", 1},
                                                                         {"Float8_e5m2", 1},
                                                                         {"Float8_e4m3fnuz", 1},
                                                                         {"Float8_e5m2fnuz", 1},
                                                                         {"Short", 2},
                                                                         {"Half", 2},
                                                                         {"BFloat16", 2},
                                                                         {"UInt16", 2},
                                                                         {"ComplexHalf", 4},
                                                                         {"Int", 4},
                                                                         {"Float", 4},
                                                                         {"UInt32", 4},
                                                                         {"Long", 8},
                                                                         {"Double", 8},
                                                                         {"UInt64", 8},
                                                                         {"ComplexFloat", 8},
                                                                         {"ComplexDouble", 16}};
    return kBytes;
}

} // namespace

uint64_t dtypeBytes(const std::string& dtype) {
    for (const auto& [name, bytes] : dtypeTable())
        if (name == dtype)
            return bytes;
    return 0;
}

const std::vector<std::string>& knownDtypes() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& entry : dtypeTable())
            out.push_back(entry.first);
        return out;
    }();
    return names;
}

std::vector<std::optional<CommParams>> commParamsOf(const KinetoTrace& trace) {
    std::map<int64_t, size_t> byExternalId; // record_param_comms by External id
    std::map<std::pair<int64_t, int64_t>, std::vector<size_t>> byThread; // (pid, tid) -> events
    for (size_t i = 0; i < trace.hostEvents.size(); ++i) {
        const HostEvent& h = trace.hostEvents[i];
        if (h.name != "record_param_comms")
            continue;
        if (h.externalId >= 0)
            byExternalId.try_emplace(h.externalId, i);
        byThread[{h.pid, h.tid}].push_back(i);
    }
    for (auto& [thread, list] : byThread)
        std::stable_sort(list.begin(), list.end(), [&](size_t a, size_t b) {
            return trace.hostEvents[a].startUs < trace.hostEvents[b].startUs;
        });

    std::vector<std::optional<CommParams>> out(trace.activities.size());
    for (size_t i = 0; i < trace.activities.size(); ++i) {
        const GpuActivity& a = trace.activities[i];
        if (a.comm.present()) {
            out[i] = paramsFrom(a.comm, "kernel args");
            continue;
        }
        if (const auto it = byExternalId.find(a.externalId);
            a.externalId >= 0 && it != byExternalId.end()) {
            out[i] =
                paramsFrom(trace.hostEvents[it->second].comm, "record_param_comms by External id");
            continue;
        }
        const auto launch = trace.runtimeByCorrelation.find(a.correlation);
        if (a.correlation < 0 || launch == trace.runtimeByCorrelation.end())
            continue;
        const HostEvent& call = trace.hostEvents[launch->second];
        const auto thread = byThread.find({call.pid, call.tid});
        if (thread == byThread.end())
            continue;
        // The innermost record_param_comms around the call: the latest to start that still
        // holds the call's start.
        const std::vector<size_t>& list = thread->second;
        auto it =
            std::upper_bound(list.begin(), list.end(), call.startUs,
                             [&](double ts, size_t e) { return ts < trace.hostEvents[e].startUs; });
        while (it != list.begin()) {
            --it;
            const HostEvent& op = trace.hostEvents[*it];
            if (call.startUs <= op.startUs + op.durationUs) {
                out[i] = paramsFrom(op.comm, "record_param_comms around the launch");
                break;
            }
        }
    }
    return out;
}

} // namespace astrolabe::kineto
