#include "trace/kineto/KinetoTrace.h"

#include "core/Error.h"
#include "core/InputFile.h"
#include "core/JsonKeys.h"
#include "trace/ErrorCollector.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

namespace astrolabe::kineto {
namespace {

using json = nlohmann::json;

// The phases of the Chrome trace-event format. Only X, s and f are imported; the others are
// read past.
constexpr std::string_view kPhases = "BEXiICbneOsftPNDMVvRc";
constexpr double kLongestSliceUs = 86'400e6;
constexpr double kLatestTimestampUs = 1e16;

bool isGpuCategory(const std::string& category) {
    return category == "kernel" || category == "gpu_memcpy" || category == "gpu_memset";
}

bool isHostCategory(const std::string& category) {
    return category == "cpu_op" || category == "user_annotation" || category == "cuda_runtime" ||
           category == "cuda_driver";
}

int64_t integerArg(const json& args, const char* key) {
    const auto it = args.find(key);
    return it != args.end() && it->is_number_integer() ? it->get<int64_t>() : -1;
}

std::string stringArg(const json& args, const char* key) {
    const auto it = args.find(key);
    return it != args.end() && it->is_string() ? it->get<std::string>() : std::string();
}

struct FlowEnd {
    size_t event = 0;
    int64_t pid = 0, tid = 0;
    double ts = 0;
    bool enclosing = false; ///< "bp": "e": bind to the slice around ts, else to the next one
    bool seen = false;
};

class Reader {
public:
    Reader(const std::string& file, ErrorCollector& errors)
        : m_file(file)
        , m_errors(errors) {}

    void event(const json& e, size_t index, KinetoTrace& trace) {
        m_index = index;
        m_name = e.is_object() && e.contains("name") && e["name"].is_string()
                     ? e["name"].get<std::string>()
                     : std::string();
        if (!e.is_object())
            return problem(std::string("expected an event object, found ") + e.type_name());
        const auto ph = e.find("ph");
        if (ph == e.end() || !ph->is_string() || ph->get<std::string>().size() != 1)
            return problem("no event phase: \"ph\" must be one letter of the trace-event format");
        const char phase = ph->get<std::string>()[0];
        if (kPhases.find(phase) == std::string_view::npos)
            return problem(std::string("unknown event phase \"") + phase +
                           "\" (the trace-event format has B, E, X, i, I, C, b, n, e, O, s, t, "
                           "f, P, N, D, M, V, v, R and c)");
        if (phase == 'X')
            complete(e, trace);
        else if (phase == 's' || phase == 'f')
            flow(e, phase);
    }

    void bindFlows(KinetoTrace& trace) {
        // Slices per (pid, tid) in start order, to find the one a flow end binds to.
        std::map<std::pair<int64_t, int64_t>, std::vector<size_t>> lanes;
        for (size_t i = 0; i < trace.activities.size(); ++i)
            lanes[{trace.activities[i].device, trace.activities[i].stream}].push_back(i);
        for (auto& [key, list] : lanes)
            std::stable_sort(list.begin(), list.end(), [&](size_t a, size_t b) {
                return trace.activities[a].startUs < trace.activities[b].startUs;
            });
        auto bind = [&](const FlowEnd& end) -> long {
            const auto it = lanes.find({end.pid, end.tid});
            if (it == lanes.end())
                return -1;
            for (size_t i : it->second) {
                const GpuActivity& a = trace.activities[i];
                if (end.enclosing ? (a.startUs <= end.ts && end.ts <= a.startUs + a.durationUs)
                                  : a.startUs >= end.ts)
                    return static_cast<long>(i);
            }
            return -1;
        };
        for (const auto& [id, ends] : m_flows) {
            const auto& [start, finish] = ends;
            if (!start.seen || !finish.seen) {
                ++trace.unpairedFlows;
                continue;
            }
            const long from = bind(start), to = bind(finish);
            if (from < 0 || to < 0 || from == to) {
                ++trace.hostFlows;
                continue;
            }
            trace.flows.push_back({id, static_cast<size_t>(from), static_cast<size_t>(to)});
        }
    }

private:
    void complete(const json& e, KinetoTrace& trace) {
        const double ts = number(e, "ts");
        const double dur = number(e, "dur");
        if (dur < 0)
            problem("negative duration " + json(dur).dump() + " us");
        // A profiler's ts counts microseconds since 1970 (1.7e15 in 2024); a slice longer
        // than a day is a broken clock, and past these bounds the times do not fit the
        // simulator's picoseconds.
        if (dur > kLongestSliceUs)
            problem("a duration of " + json(dur).dump() +
                    " us is longer than a day (86,400,000,000 us): is the clock broken?");
        if (std::abs(ts) > kLatestTimestampUs)
            problem("the timestamp " + json(ts).dump() +
                    " us is past the year 2286 (1e16 us after 1970): is the clock broken?");
        const std::string category =
            e.contains("cat") && e["cat"].is_string() ? e["cat"].get<std::string>() : "";
        static const json kNoArgs = json::object();
        const auto argsIt = e.find("args");
        const json& args = argsIt != e.end() && argsIt->is_object() ? *argsIt : kNoArgs;
        if (isHostCategory(category))
            return host(e, args, category, ts, dur, trace);
        if (!isGpuCategory(category))
            return;
        GpuActivity a;
        a.name = m_name;
        a.category = category;
        a.device = integer(e, "pid");
        a.stream = integer(e, "tid");
        if (a.device < 0)
            problem("a GPU activity's \"pid\" is its device, a whole number of 0 or more; found " +
                    std::to_string(a.device));
        a.startUs = ts;
        a.durationUs = std::max(dur, 0.0);
        a.eventIndex = m_index;
        if (const auto bytes = args.find("bytes");
            bytes != args.end() && bytes->is_number_unsigned())
            a.bytes = bytes->get<uint64_t>();
        a.correlation = integerArg(args, "correlation");
        a.externalId = integerArg(args, "External id");
        a.comm = commArgs(args);
        trace.activities.push_back(std::move(a));
    }

    void host(const json& e, const json& args, const std::string& category, double ts, double dur,
              KinetoTrace& trace) {
        HostEvent h;
        h.name = m_name;
        h.category = category;
        h.pid = e.contains("pid") && e["pid"].is_number_integer() ? e["pid"].get<int64_t>() : -1;
        h.tid = e.contains("tid") && e["tid"].is_number_integer() ? e["tid"].get<int64_t>() : -1;
        h.startUs = ts;
        h.durationUs = std::max(dur, 0.0);
        h.externalId = integerArg(args, "External id");
        h.recordFunctionId = integerArg(args, "Record function id");
        h.eventIndex = m_index;
        if (h.isRuntime()) {
            h.correlation = integerArg(args, "correlation");
            if (h.correlation >= 0) {
                const auto [it, added] =
                    trace.runtimeByCorrelation.try_emplace(h.correlation, trace.hostEvents.size());
                if (!added)
                    return problem("correlation " + std::to_string(h.correlation) +
                                   " is used twice: here and at traceEvents[" +
                                   std::to_string(trace.hostEvents[it->second].eventIndex) +
                                   "] (a correlation id names one launch)");
            }
        }
        if (h.name == "record_param_comms")
            h.comm = commArgs(args);
        trace.hostEvents.push_back(std::move(h));
    }

    void flow(const json& e, char phase) {
        const auto id = e.find("id");
        if (id == e.end() || !(id->is_number_integer() || id->is_string()))
            return problem("a flow event needs an \"id\" (a number or a string)");
        const std::string category =
            e.contains("cat") && e["cat"].is_string() ? e["cat"].get<std::string>() : "";
        const std::string key =
            category + ":" + (id->is_string() ? id->get<std::string>() : id->dump());
        FlowEnd end;
        end.event = m_index;
        end.pid = e.contains("pid") && e["pid"].is_number_integer() ? e["pid"].get<int64_t>() : -1;
        end.tid = e.contains("tid") && e["tid"].is_number_integer() ? e["tid"].get<int64_t>() : -1;
        end.ts = number(e, "ts");
        end.enclosing = phase == 's' || (e.contains("bp") && e["bp"] == "e");
        end.seen = true;
        FlowEnd& slot = phase == 's' ? m_flows[key].first : m_flows[key].second;
        if (slot.seen)
            return problem("flow id " + key + (phase == 's' ? " starts" : " finishes") +
                           " twice: here and at traceEvents[" + std::to_string(slot.event) +
                           "] (flow ids may not be reused)");
        slot = end;
    }

    CommArgs commArgs(const json& args) {
        CommArgs c;
        c.collective = stringArg(args, "Collective name");
        c.dtype = stringArg(args, "dtype");
        c.groupName = stringArg(args, "Process Group Name");
        c.inElements = count(args, "In msg nelems");
        c.outElements = count(args, "Out msg nelems");
        c.groupSize = count(args, "Group size");
        if (c.groupSize == 0)
            problem("args.\"Group size\" is 0; a process group has at least one rank");
        return c;
    }
    /// A count an event may leave out (-1), but not give as anything but a whole number >= 0:
    /// -5 elements read as "no size" would time the collective as 0 bytes without a word.
    int64_t count(const json& args, const char* key) {
        const auto it = args.find(key);
        if (it == args.end())
            return -1;
        if (it->is_number_unsigned() && it->get<uint64_t>() <= uint64_t(INT64_MAX))
            return it->get<int64_t>();
        problem(std::string("args.\"") + key + "\" must be a whole number of 0 or more, found " +
                quotedExcerpt(it->dump()));
        return -1;
    }

    double number(const json& e, const char* key) {
        const auto it = e.find(key);
        if (it != e.end() && it->is_number())
            return it->get<double>();
        problem(std::string("\"") + key + "\" must be a number (microseconds), found " +
                (it == e.end() ? std::string("nothing") : it->type_name()));
        return 0;
    }
    int64_t integer(const json& e, const char* key) {
        const auto it = e.find(key);
        if (it != e.end() && it->is_number_integer())
            return it->get<int64_t>();
        problem(std::string("a GPU activity's \"") + key + "\" must be a whole number (" +
                (key[0] == 'p' ? "the device" : "the stream") + ")");
        return 0;
    }
    void problem(const std::string& message) {
        m_errors.add(ErrorKind::Input, m_file,
                     "traceEvents[" + std::to_string(m_index) + "]" +
                         (m_name.empty() ? "" : " (\"" + m_name.substr(0, 80) + "\")"),
                     message);
    }

    const std::string& m_file;
    ErrorCollector& m_errors;
    size_t m_index = 0;
    std::string m_name;
    std::map<std::string, std::pair<FlowEnd, FlowEnd>> m_flows;
};

} // namespace

nlohmann::json parseTraceJson(std::string_view text, const std::string& file,
                              const std::string& hint) {
    json document;
    try {
        document = json::parse(text);
    } catch (const json::parse_error& e) {
        throw Error(ErrorKind::Input,
                    "not JSON at byte offset " + std::to_string(e.byte) + ": " + e.what(),
                    SourceLocation{file, 0, 0, {}}, hint);
    } catch (const json::exception& e) { // a number past the range of a double, say
        throw Error(ErrorKind::Input, std::string("not readable JSON: ") + e.what(),
                    SourceLocation{file, 0, 0, {}});
    }
    refuseRepeatedJsonKeys(text, file); // the parser keeps the last one
    return document;
}

KinetoTrace parseKinetoTrace(std::string_view text, const std::string& file) {
    const json document = parseTraceJson(text, file,
                                         "a PyTorch profiler trace is the JSON torch.profiler "
                                         "exports (export_chrome_trace); was the file cut short?");
    const json* events = &document;
    KinetoTrace trace;
    trace.file = file;
    if (document.is_object()) {
        const auto it = document.find("traceEvents");
        if (it == document.end() || !it->is_array())
            throw Error(ErrorKind::Input, "no \"traceEvents\" array",
                        SourceLocation{file, 0, 0, "traceEvents"},
                        "expected a Chrome trace: {\"traceEvents\": [...]} or [...]");
        events = &*it;
        if (const auto info = document.find("distributedInfo");
            info != document.end() && info->is_object()) {
            if (const auto r = info->find("rank"); r != info->end() && r->is_number_integer())
                trace.rank = r->get<int64_t>();
            if (const auto w = info->find("world_size"); w != info->end() && w->is_number_integer())
                trace.worldSize = w->get<int64_t>();
        }
    } else if (!document.is_array()) {
        throw Error(ErrorKind::Input,
                    std::string("expected a trace object or an array of events, found ") +
                        document.type_name(),
                    SourceLocation{file, 0, 0, {}});
    }
    ErrorCollector errors;
    Reader reader(file, errors);
    trace.events = events->size();
    for (size_t i = 0; i < events->size() && !errors.full(); ++i)
        reader.event((*events)[i], i, trace);
    errors.throwIfAny();
    reader.bindFlows(trace);
    return trace;
}

KinetoTrace readKinetoTrace(const std::string& path) {
    return parseKinetoTrace(readInputFile(path, "the profiler trace"), path);
}

} // namespace astrolabe::kineto
