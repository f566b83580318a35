#include "cli/SynthesizeCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/TerminalProgress.h"
#include "core/Error.h"
#include "core/Limits.h"
#include "core/OutputFile.h"
#include "core/SimTime.h"
#include "core/Units.h"
#include "project/ProjectFile.h"
#include "tacos/Evaluate.h"
#include "tacos/ScheduleExport.h"
#include "topology/Topology.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <ostream>

namespace astrolabe::cli {
namespace {

std::string ns(double value) {
    return units::formatTime(SimTime::fromNsRounded(value));
}

SynthesisOptions options(const ParsedArgs& args) {
    SynthesisOptions o;
    try {
        o.kind = parseSynthesisKind(
            args.value("collective", synthesisKindName(SynthesisKind::AllReduce)));
    } catch (const Error& e) {
        throw UsageError("--collective: " + e.message());
    }
    try {
        o.bytes = units::parseSizeBytes(args.value("size", "64MiB"));
    } catch (const Error& e) {
        throw UsageError("--size: " + e.message() +
                         (e.hint().empty() ? std::string() : " (" + e.hint() + ")"));
    }
    const std::string chunks = args.value("chunks", "1");
    o.automaticChunks = chunks == "auto";
    if (!o.automaticChunks)
        // The project's chunks limit (docs/limits.md).
        o.chunksPerNpu = parseCount("chunks", chunks, 1, kMaxChunksPerCollective);
    o.seed = static_cast<uint64_t>(parseCount("seed", args.value("seed", "1"), 0));
    return o;
}

void write(const std::string& path, const std::string& what, const std::string& text,
           std::ostream& out) {
    writeOutputFile(path, what, [&](std::ostream& file) { file << text; });
    out << "wrote " << path << "\n";
}

void compare(const SimulationSpec& base, const Schedule& s, const SynthesisOptions& o,
             const std::string& etPrefix, std::ostream& out) {
    // The schedule runs from its Chakra ET form; without --et, from a temporary folder.
    std::filesystem::path temp;
    std::string prefix = etPrefix;
    if (prefix.empty()) {
        temp = std::filesystem::temp_directory_path() /
               ("astrolabe_synthesize_" +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
        std::filesystem::create_directories(temp);
        prefix = (temp / "tacos").string();
        writeScheduleEt(s, prefix);
    }
    double tacos = 0;
    try {
        tacos = runCustomCollective(base, o.kind, o.bytes, prefix);
    } catch (...) {
        if (!temp.empty())
            std::filesystem::remove_all(temp);
        throw;
    }
    if (!temp.empty())
        std::filesystem::remove_all(temp);
    const double bound = bandwidthLowerBoundNs(s);
    out << "\nin the engine ("
        << (base.options.backend == NetworkBackend::CongestionAware ? "congestion-aware"
                                                                    : "congestion-unaware")
        << "):\n  tacos            " << ns(tacos) << "\n";
    double best = 0;
    std::string bestName;
    for (const AlgorithmTime& t :
         runBuiltinAlgorithms(base, o.kind, o.bytes, {"ring", "direct", "halvingDoubling"})) {
        std::string name = t.algorithm;
        name.resize(17, ' ');
        if (!t.error.empty()) {
            out << "  " << name << "cannot run: " << t.error << "\n";
            continue;
        }
        out << "  " << name << ns(t.ns) << "\n";
        if (best == 0 || t.ns < best) {
            best = t.ns;
            bestName = t.algorithm;
        }
    }
    if (best > 0)
        out << "speedup over the best built-in (" << bestName
            << "): " << units::formatFixed(best / tacos, 3) << "x\n";
    out << "engine time / bandwidth lower bound: " << units::formatFixed(tacos / bound, 3) << "\n";
}

} // namespace

ArgParser synthesizeParser() {
    return ArgParser(
        "synthesize",
        "TACOS: a topology-aware collective algorithm for the project's platform "
        "(docs/tacos.md).\n"
        "  Greedy link-chunk matching on a time-expanded network; all-reduce = reduce-scatter "
        "then all-gather.\n"
        "  Prints the schedule's steps and time; writes it as MSCCL-IR XML, Chakra ET or CSV.",
        {
            {"collective", "NAME", joinAlternatives(synthesisKindNames()),
             synthesisKindName(SynthesisKind::AllReduce)},
            {"size", "SIZE", "the collective's size (all-gather: per NPU), e.g. 64MiB or \"1 GiB\"",
             "64MiB"},
            {"chunks", "N|auto", "chunks per NPU; auto: the fastest of 1, 2 and 4", "1"},
            {"seed", "N", "seed of the random matching order", "1"},
            {"xml", "FILE", "write MSCCL-IR XML (a custom-algorithms source)", ""},
            {"et", "PREFIX", "write Chakra ET PREFIX.<npu>.et (a custom-algorithms prefix)", ""},
            {"schedule", "FILE", "write the per-link schedule as CSV", ""},
            {"table", "", "print the per-link schedule (links x steps, chunk ids)", ""},
            {"compare", "",
             "run it in the engine beside ring, direct and halving-doubling, with the bound", ""},
            progressFlag(),
        },
        {"PROJECT"});
}

int synthesizeCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const std::string project = args.positional().at(0);
    SynthesisOptions o = options(args);
    const SimulationSpec spec = loadProject(project);
    // The outputs are checked before the synthesis (which may take a while): none may be the
    // project, and no two one file.
    const std::vector<NamedInput> inputs{{project, "the project"}};
    std::vector<NamedInput> outputs;
    for (const auto& [flag, what] :
         {std::pair{"xml", "the MSCCL-IR XML"}, std::pair{"schedule", "the schedule CSV"}})
        if (!args.value(flag).empty()) {
            checkOutputPath(args.value(flag), what, inputs);
            outputs.push_back({args.value(flag), what});
        }
    if (!args.value("et").empty()) // its folder, before the XML is written beside it
        checkOutputPath(args.value("et") + ".0.et", "the Chakra ET traces", inputs);
    checkDistinctOutputs(outputs);
    // A dimension stack is synthesized on the graph of its devices and links.
    const GraphSpec graph =
        spec.platform.graph ? *spec.platform.graph : graphOfStack(spec.platform);
    const auto started = std::chrono::steady_clock::now();
    Schedule s;
    {
        // Thousands of chunks per NPU take minutes: their progress, as a run's (--progress);
        // its line is gone before the report is printed.
        TerminalProgress progress(err, args);
        double lastReport = -1;
        o.progress = [&](uint64_t scheduled, uint64_t total) {
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            if (seconds - lastReport < 0.1)
                return;
            lastReport = seconds;
            progress.report(seconds, "synthesizing: " +
                                         std::to_string(total > 0 ? 100 * scheduled / total : 0) +
                                         " % of " + units::countOf(total, "chunk send"));
        };
        try {
            s = synthesize(graph, o);
        } catch (const Error& e) {
            // The synthesizer knows the graph, not the file it came from.
            throw Error(e.kind(), e.message(), {project, 0, 0, e.where().keyPath}, e.hint());
        }
        o.progress = nullptr;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const auto through = static_cast<uint64_t>(std::count_if(
        s.links.begin(), s.links.end(), [](const SynthLink& l) { return l.switches > 0; }));
    std::string links = units::countOf(s.links.size(), "link");
    if (through > 0) {
        links += ", ";
        links += std::to_string(through);
        links += " of them through switches";
    }
    out << "TACOS " << synthesisKindName(s.kind) << ", " << units::formatSize(s.bytes) << " on "
        << units::countOf(static_cast<uint64_t>(s.npus), "NPU") << " (" << links << "), "
        << units::countOf(static_cast<uint64_t>(s.chunksPerNpu), "chunk") << " per NPU of "
        << units::formatSize(s.chunkBytes) << "\n"
        << "synthesized in " << units::formatFixed(seconds * 1e3, 3)
        << " ms: " << units::countOf(static_cast<uint64_t>(s.steps), "step") << ", "
        << units::countOf(s.sends.size(), "chunk send") << ", " << ns(s.finishNs)
        << " in the time-expanded network\n"
        << "bandwidth lower bound " << ns(bandwidthLowerBoundNs(s)) << " (schedule / bound "
        << units::formatFixed(s.finishNs / bandwidthLowerBoundNs(s), 3) << ")\n";
    if (args.has("table"))
        out << "\n" << scheduleTable(s) << "\n";
    if (!args.value("xml").empty())
        write(args.value("xml"), "the MSCCL-IR XML",
              scheduleMscclXml(s, "tacos_" + std::filesystem::path(project).stem().string()), out);
    if (!args.value("et").empty()) {
        writeScheduleEt(s, args.value("et"));
        out << "wrote " << args.value("et") << ".0.et .. " << args.value("et") << "." << s.npus - 1
            << ".et\n";
    }
    if (!args.value("schedule").empty())
        write(args.value("schedule"), "the schedule CSV", scheduleCsv(s), out);
    if (args.has("compare"))
        compare(spec, s, o, args.value("et"), out);
    return kExitOk;
}

} // namespace astrolabe::cli
