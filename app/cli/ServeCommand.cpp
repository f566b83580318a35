#include "cli/ServeCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "core/Error.h"
#include "core/OutputFile.h"
#include "core/Units.h"
#include "project/ProjectFile.h"
#include "serving/RateSearch.h"
#include "serving/ServingCodec.h"
#include "serving/ServingRun.h"
#include "store/ProjectDatabase.h"
#include "store/RunStorage.h"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <sstream>

namespace astrolabe::cli {
namespace {

double positiveNumber(const std::string& flag, const std::string& text) {
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !(v > 0))
        throw UsageError("--" + flag + ": expected a number > 0, found \"" + text + "\"");
    return v;
}

/// "3600" (seconds) or a time with its unit ("3600 s", "500 ms"), in nanoseconds.
double durationNs(const std::string& flag, const std::string& text) {
    double seconds = 0;
    double ns = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (ec == std::errc() && end == text.data() + text.size() && seconds > 0) {
        ns = seconds * 1e9;
    } else {
        try {
            const SimTime t = units::parseTime(text);
            if (t > SimTime::zero())
                ns = t.ns();
        } catch (const Error&) {
        }
    }
    if (ns > kMaxServingDurationNs)
        throw UsageError("--" + flag + ": expected at most 1e6 s (about 11.6 days), found \"" +
                         text + "\"");
    if (ns > 0)
        return ns;
    throw UsageError("--" + flag + ": expected seconds or a time (\"60 s\", \"500 ms\"), found \"" +
                     text + "\"");
}

/// PREFIX-requests.csv (one row per request, seconds) and PREFIX-occupancy.csv (the KV cache
/// and the queues over time).
void writeCsv(const std::string& prefix, const serving::ServingResult& r) {
    std::ostringstream requests;
    requests.precision(9);
    requests << "request,arrival_s,prompt_tokens,output_tokens,queueing_s,ttft_s,tpot_s,e2e_s\n";
    for (size_t i = 0; i < r.requests.size(); ++i) {
        const serving::RequestRecord& q = r.requests[i];
        const double tpot =
            q.outputTokens > 1 ? (q.lastToken - q.firstToken) / (q.outputTokens - 1) : 0;
        requests << i << "," << q.arrival << "," << q.promptTokens << "," << q.outputTokens << ","
                 << q.firstScheduled - q.arrival << "," << q.firstToken - q.arrival << "," << tpot
                 << "," << q.lastToken - q.arrival << "\n";
    }
    writeOutputFile(prefix + "-requests.csv", "the per-request CSV",
                    [&](std::ostream& file) { file << requests.str(); });
    std::ostringstream occupancy;
    occupancy.precision(9);
    occupancy << "time_s,kv_occupancy,preemptions,running,waiting\n";
    for (const serving::OccupancySample& o : r.occupancy)
        occupancy << o.seconds << "," << o.kvOccupancy << "," << o.preemptions << "," << o.running
                  << "," << o.waiting << "\n";
    writeOutputFile(prefix + "-occupancy.csv", "the KV-cache occupancy CSV",
                    [&](std::ostream& file) { file << occupancy.str(); });
}

int rateSearch(const SimulationSpec& spec, const std::string& attainmentText, std::ostream& out) {
    const double attainment = positiveNumber("rate-search", attainmentText);
    if (attainment > 1)
        throw UsageError("--rate-search: expected a share of requests from 0 to 1 (0.9 for 90%), "
                         "found \"" +
                         attainmentText + "\"");
    serving::RateSearchOptions options;
    options.attainment = attainment;
    options.confirmFactor = 4;
    // Four significant digits, never e-notation.
    auto n = [](double value) { return units::formatPlain(value, 4); };
    out << "Rate search: the highest rate at which " << n(attainment * 100)
        << "% of requests meet TTFT <= " << n(spec.serving.ttftSloNs / 1e6)
        << " ms and TPOT <= " << n(spec.serving.tpotSloNs / 1e6) << " ms\n";
    const serving::RateSearchResult result =
        serving::searchRate(spec, options, [&out, &n](const serving::RateProbe& p) {
            out << "  rate " << padLeft(n(p.rate), 9) << " requests/s: "
                << padLeft(units::formatFixed(p.summary.sloAttainment * 100, 1), 5)
                << "% meet the SLOs, TTFT p99 " << n(p.summary.ttft.p99 * 1e3) << " ms, TPOT p99 "
                << n(p.summary.tpot.p99 * 1e3) << " ms, " << n(p.summary.outputTokensPerGpuSecond)
                << " output tokens/s per GPU  " << (p.meets ? "meets" : "fails") << "\n"
                << std::flush;
        });
    out << "  highest rate meeting the target: " << n(result.rate) << " requests/s ("
        << result.probes.size() << " runs"
        << (result.converged ? "" : ", stopped before converging") << ")\n";
    if (const auto& c = result.confirmation) {
        out << "  over 4 x the duration (" << n(result.confirmationDurationSeconds)
            << " s) at that "
            << "rate: " << units::formatFixed(c->summary.sloAttainment * 100, 1)
            << "% meet the SLOs, " << n(c->summary.requestsPerSecond) << " requests/s completed";
        if (c->meets)
            out << ": sustained\n";
        else
            out << "\n  warning: not sustained: the queue still grows at this rate (the "
                   "deployment completes "
                << n(c->summary.requestsPerSecond)
                << " requests/s under this load), so the share meeting the SLOs falls as the "
                   "run gets longer; the rate it sustains is lower: search again with --duration "
                << n(result.confirmationDurationSeconds) << " s or longer\n";
    }
    return result.rate > 0 ? kExitOk : kExitFailure;
}

} // namespace

ArgParser serveParser() {
    return ArgParser(
        "serve",
        "Simulate LLM inference as the project's serving: section describes it (docs/serving.md) "
        "and print TTFT, TPOT, ITL, end-to-end and queueing percentiles, throughput and goodput.",
        {{"rate", "R", "Poisson arrivals at R requests/s instead of the project's arrivals", ""},
         {"trace", "FILE", "replay a request trace (CSV) instead of synthetic arrivals", ""},
         {"trace-format", "NAME", "the trace's format: azure or burstgpt", "the project's"},
         {"duration", "S", "seconds of arrivals (or a time: \"60 s\")", "the project's"},
         {"ttft-slo", "T", "the TTFT objective of the goodput (\"2 s\")", "the project's"},
         {"tpot-slo", "T", "the TPOT objective of the goodput (\"50 ms\")", "the project's"},
         {"csv", "PREFIX", "also write PREFIX-requests.csv and PREFIX-occupancy.csv", ""},
         {"rate-search", "A",
          "find the highest rate at which a share A (0 to 1) of requests meets both SLOs, by "
          "bisection from the project's rate (each probe a run; none stored)",
          ""},
         {"db", "FILE", "project database to store the run in",
          "the project's folder/astrolabe.db"},
         {"no-store", "", "do not store the run in the project database", ""}},
        {"PROJECT.yaml"});
}

int serveCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const std::string project = args.positional().at(0);
    requireFile("project", project);
    std::vector<std::string> warnings;
    SimulationSpec spec = loadProject(project, &warnings);
    for (const std::string& w : warnings)
        err << "astrolabe-cli: warning: " << w << "\n";
    if (!spec.serving.enabled)
        throw UsageError("the project has no serving: section (docs/serving.md)");
    if (args.has("rate") && args.has("trace"))
        throw UsageError("--rate and --trace exclude each other");
    ServingSpec& s = spec.serving;
    if (args.has("rate")) {
        s.rate = positiveNumber("rate", args.value("rate"));
        if (!(s.rate >= kMinServingRate && s.rate <= kMaxServingRate))
            throw UsageError("--rate: expected requests per second from 1e-6 to 1e7, found \"" +
                             args.value("rate") + "\"");
        s.arrival = "poisson";
        s.trace.clear();
    }
    if (args.has("trace")) {
        requireFile("--trace", args.value("trace"));
        s.trace = std::filesystem::absolute(args.value("trace")).string();
    }
    if (args.has("trace-format")) {
        if (s.trace.empty())
            throw UsageError(
                "--trace-format: this run's requests are synthetic (the project has no "
                "serving.trace); give the trace with --trace FILE");
        s.traceFormat = args.value("trace-format");
    }
    if (args.has("duration"))
        s.durationNs = durationNs("duration", args.value("duration"));
    if (args.has("ttft-slo"))
        s.ttftSloNs = durationNs("ttft-slo", args.value("ttft-slo"));
    if (args.has("tpot-slo"))
        s.tpotSloNs = durationNs("tpot-slo", args.value("tpot-slo"));

    if (args.has("rate-search"))
        return rateSearch(spec, args.value("rate-search"), out);
    const serving::ServingResult result = serving::runServing(spec);
    for (const std::string& w : result.warnings)
        err << "astrolabe-cli: warning: " << w << "\n";
    out << "Serving " << s.model << " on " << result.summary.gpus << " x " << s.gpu << " ("
        << s.deployment << "), simulated in " << units::formatFixed(result.wallSeconds, 2)
        << " s\n";
    for (const std::string& line : serving::summaryLines(result.summary))
        out << "  " << line << "\n";
    // The throughput above runs to the last token, the drain after the arrivals included; the
    // offered load is over the arrivals alone.
    if (!result.requests.empty()) {
        double lastArrival = 0;
        for (const serving::RequestRecord& r : result.requests)
            lastArrival = std::max(lastArrival, r.arrival);
        if (lastArrival > 0 && lastArrival < result.summary.durationSeconds)
            out << "  offered   "
                << units::formatPlain(double(result.requests.size()) / lastArrival, 4)
                << " requests/s over the " << units::formatPlain(lastArrival, 4)
                << " s of arrivals (the throughput above counts the run to its last token, "
                << units::formatPlain(result.summary.durationSeconds - lastArrival, 4)
                << " s later)\n";
    }
    if (const std::string prefix = args.value("csv"); !prefix.empty()) {
        writeCsv(prefix, result);
        out << "  wrote " << prefix << "-requests.csv and " << prefix << "-occupancy.csv\n";
    }
    if (!args.has("no-store")) {
        const std::string db =
            args.value("db").empty() ? defaultDatabasePath(project) : args.value("db");
        ProjectDatabase database(db);
        const int64_t id =
            storeRun(database, spec, serving::servingRunResult(spec, result), result.wallSeconds);
        out << "  stored as run " << id << " in " << db << "\n";
    }
    return kExitOk;
}

} // namespace astrolabe::cli
