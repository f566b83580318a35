#include "cli/ParallelismCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/ModelFile.h"
#include "cli/PlanMpi.h"
#include "cli/PlanReport.h"
#include "core/Error.h"
#include "core/Units.h"
#include "generate/GeneratorSettings.h"
#include "generate/GeneratorValues.h"
#include "generate/ModelFigures.h"
#include "hardware/Accelerator.h"
#include "plan/MegatronArgs.h"
#include "plan/PlanSimulation.h"
#include "plan/Planner.h"
#include "project/ProjectFile.h"
#include "yaml/ProjectValues.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

namespace astrolabe::cli {
namespace {

using namespace plan;

} // namespace

std::vector<FlagSpec> parallelismFlags() {
    return {
        {"model", "PRESET|FILE",
         "parallelism: the model, a generator preset or a file of generate-llm settings "
         "(\"layers: 60\" per line, \"preset: NAME\" the start)",
         ""},
        {"set", "KEY=VALUE,..", "parallelism: generate-llm settings over the model's", ""},
        {"gpu", "NAME", "parallelism: the accelerator (peak, HBM) of the roofline",
         "the project's platform.accelerator, else the preset's"},
        {"gpus", "N", "parallelism: GPUs (the platform's outermost dimension is resized)",
         "the platform's"},
        {"global-batch", "B", "parallelism: sequences per iteration", "the model's"},
        {"top", "K", "parallelism: simulate the K best estimates (0: estimate only)", "16"},
        {"show", "N", "parallelism: rows of the ranking printed", "the top K, at least 10"},
        {"jobs", "N", "parallelism: simulations run at once, and threads ranking the space", "2"},
        {"placement", "ORDER",
         "parallelism: only this rank order of the groups, innermost first (tp,dp,pp is "
         "Megatron's); repeat for several",
         "all six", true},
        {"baseline", "KEY=VALUE,..",
         "parallelism: a reference configuration as generate-llm settings (e.g. "
         "tp=8,pp=4,dp=32,micro-batch=1), estimated and simulated beside the planner's",
         ""},
        {"rounds", "R",
         "parallelism: batches of K simulations; after each the estimate is refitted to every "
         "simulation so far and the K best candidates by it not yet simulated are next",
         "1"},
        {"mpi", "",
         "parallelism: simulate across MPI ranks (mpirun -n N astrolabe-cli optimize parallelism "
         "... --mpi): each rank runs its share of every batch on --jobs threads; rank 0 prints",
         ""},
    };
}

int parallelismCommand(const ParsedArgs& args, std::ostream& stdOut, std::ostream& stdErr) {
    const std::string project = args.positional().at(1);
    requireFile("project", project);
    if (!args.has("model"))
        throw UsageError("optimize parallelism: missing required option --model PRESET|FILE");
    for (const char* other :
         {"total-bandwidth", "objective", "budget", "min", "max", "price", "generate", "pareto"})
        if (args.has(other))
            throw UsageError(std::string("optimize parallelism: --") + other +
                             " belongs to 'optimize bandwidth'");
    std::map<std::string, std::string> values;
    std::string preset = args.value("model");
    std::string modelFile;
    std::map<std::string, int> modelLines; // setting -> its line in the model file
    if (std::filesystem::is_regular_file(preset)) {
        modelFile = preset;
        values = readModelFile(preset, &modelLines);
        preset = values["preset"];
        values.erase("preset");
    }
    std::map<std::string, std::string> setPairs; // --set, over the file's
    if (args.has("set")) {
        addPairs(setPairs, args.value("set"), "set");
        for (const auto& [key, value] : setPairs)
            values[key] = value;
    }
    if (args.has("gpu"))
        values["gpu"] = args.value("gpu");
    std::vector<std::string> warnings;
    SimulationSpec spec = loadProject(project, &warnings);
    // The project's accelerator stands for a gpu neither --gpu nor the model names, as it does
    // for a sweep's generate: section.
    std::string gpuSource = args.has("gpu")       ? "--gpu"
                            : values.count("gpu") ? "the model's gpu"
                                                  : "";
    if (!values.count("gpu") && !spec.platform.accelerator.empty()) {
        values["gpu"] =
            hardware::findAccelerator(spec.platform.accelerator, "platform.accelerator").name;
        gpuSource = "the project's platform.accelerator";
    }
    // The split is what the planner chooses: a model that sets one would be silently overruled.
    for (const char* parallel : {"tp", "pp", "dp", "cp", "ep", "npus"})
        if (values.count(parallel))
            throw UsageError(std::string("--model/--set: \"") + parallel +
                             "\" is what the planner chooses; drop it (--baseline " + parallel +
                             "=... compares a split of your own with the planner's)");
    // Checked before the plan, not after it.
    if (args.has("show"))
        parseCount("show", args.value("show"), 1);
    generate::GeneratorSpec base;
    try {
        base = generate::generatorSpecFrom(preset, values);
        generate::validateModel(base); // else every configuration would be refused
    } catch (const Error& e) {
        // A setting the file gave is named at its line (unless --set gave it over the file).
        std::string flag = e.where().keyPath;
        for (const generate::GeneratorSetting& setting : generate::generatorSettings())
            if (setting.path == flag && !setting.flag.empty())
                flag = setting.flag;
        if (const auto line = modelLines.find(flag);
            line != modelLines.end() && !setPairs.count(flag))
            throw UsageError(modelFile + ":" + std::to_string(line->second) + ": " + e.what());
        throw UsageError((setPairs.count(flag) ? "--set: " : "--model: ") + std::string(e.what()));
    }
    if (args.has("global-batch"))
        base.training.globalBatch = parseCount("global-batch", args.value("global-batch"), 1);
    std::optional<generate::GeneratorSpec> baselineSpec;
    if (args.has("baseline")) {
        std::map<std::string, std::string> reference = values;
        addPairs(reference, args.value("baseline"), "baseline");
        try {
            baselineSpec = generate::generatorSpecFrom(preset, reference);
        } catch (const Error& e) {
            throw UsageError("--baseline: " + std::string(e.what()));
        }
        baselineSpec->training.globalBatch = base.training.globalBatch;
    }

    std::optional<MpiSweep> mpi; // every rank ranks the same space and takes the same steps
    if (args.has("mpi"))
        mpi.emplace();
    std::ostream silent(nullptr);
    std::ostream& out = mpi && mpi->rank() != 0 ? silent : stdOut;
    std::ostream& err = mpi && mpi->rank() != 0 ? silent : stdErr;
    if (mpi)
        err << "  MPI: " << mpi->size() << " ranks, each batch of simulations split over them\n";
    for (const std::string& w : warnings)
        err << "astrolabe-cli: warning: " << w << "\n";
    applyBackendOption(args.value("backend"), spec.options.backend);
    const int gpus =
        args.has("gpus") ? parseCount("gpus", args.value("gpus"), 1) : spec.platform.npuCount();
    try {
        resizePlatform(spec.platform, gpus);
    } catch (const Error& e) {
        throw UsageError("--gpus " + std::to_string(gpus) + ": " + project + ": " + e.message());
    }
    const int top = args.has("top") ? parseCount("top", args.value("top"), 0, 4096) : 16;
    const int jobs = args.has("jobs") ? parseCount("jobs", args.value("jobs"), 1, 256) : 2;

    PlanRequest request{base, gpus, {}};
    request.threads = jobs;
    offloadTierOf(request, spec.memory); // an offload axis where the project has a memory tier
    for (const std::string& order : args.values("placement")) {
        const auto& names = placementNames();
        const auto it = std::find(names.begin(), names.end(), order);
        if (it == names.end())
            throw UsageError("--placement: expected one of " + joinAlternatives(names) +
                             ", found \"" + order + "\"");
        request.placements.push_back(static_cast<uint8_t>(it - names.begin()));
    }
    std::optional<NetworkCosts> network;
    try {
        network.emplace(spec.platform, spec.system);
    } catch (const Error& e) {
        throw UsageError("optimize parallelism: " + e.message());
    }
    const PlanResult result = rankConfigurations(request, *network);
    const auto simulateCandidates = [&](const SimulationSpec& on, const PlanRequest& asked,
                                        const std::vector<RankedCandidate>& batch, int threads,
                                        const auto& done) {
        return mpi ? simulateCandidatesMpi(*mpi, on, asked, batch, threads, done)
                   : plan::simulateCandidates(on, asked, batch, threads, done);
    };
    if (!result.unsatisfiable.empty()) {
        err << "astrolabe-cli: optimize parallelism: " << result.unsatisfiable << "\n";
        return kExitFailure;
    }
    auto report = [&](const SimulatedCandidate& s) {
        err << "  simulated " << candidateLabel(s.ranked.candidate) << ": "
            << (s.ran ? reportSeconds(s.simulatedSeconds) : "failed: " + s.error) << " ("
            << units::formatFixed(s.wallSeconds, 1) << " s)\n";
    };
    std::optional<SimulatedCandidate> baseline;
    if (baselineSpec) {
        if (baselineSpec->parallel.npus() != gpus)
            throw UsageError(
                "--baseline: tp x pp x dp = " + std::to_string(baselineSpec->parallel.npus()) +
                ", expected the " + std::to_string(gpus) + " GPUs");
        RankedCandidate reference;
        try {
            reference = evaluateCandidate(request, *network, candidateFromSpec(*baselineSpec));
        } catch (const Error& e) {
            throw UsageError("--baseline: " + std::string(e.what()));
        }
        baseline = simulateCandidates(spec, request, {reference}, 1, nullptr).front();
        err << "  baseline ";
        report(*baseline);
    }
    const size_t k = std::min<size_t>(size_t(top), result.ranked.size());
    const std::vector<RankedCandidate> best(result.ranked.begin(),
                                            result.ranked.begin() + std::ptrdiff_t(k));
    const int rounds = args.has("rounds") ? parseCount("rounds", args.value("rounds"), 1, 64) : 1;
    // The first batch: the K best estimates; its statistics are the estimate's own.
    std::vector<SimulatedCandidate> simulated;
    if (k > 0)
        simulated = simulateCandidates(spec, request, best, jobs, report);
    // A candidate that cannot be simulated (an iteration past the generator's trace-node limit,
    // docs/limits.md) is reported and the next in the ranking takes its place, up to 8 K tries.
    for (size_t next = k;;) {
        const size_t ran = size_t(std::count_if(simulated.begin(), simulated.end(),
                                                [](const SimulatedCandidate& s) { return s.ran; }));
        if (ran >= k || next >= result.ranked.size() || next >= 8 * k)
            break;
        const size_t more = std::min(k - ran, result.ranked.size() - next);
        const std::vector<RankedCandidate> batch(result.ranked.begin() + std::ptrdiff_t(next),
                                                 result.ranked.begin() +
                                                     std::ptrdiff_t(next + more));
        next += more;
        for (SimulatedCandidate& s : simulateCandidates(spec, request, batch, jobs, report))
            simulated.push_back(std::move(s));
    }
    std::vector<SimulatedCandidate> later; // rounds 2..R, chosen by the refitted estimate
    for (int round = 2; round <= rounds && k > 0; ++round) {
        std::vector<SimulatedCandidate> all = simulated;
        all.insert(all.end(), later.begin(), later.end());
        const Calibration fitted = calibrate(all);
        std::vector<std::pair<double, size_t>> order;
        for (size_t i = 0; i < result.ranked.size(); ++i)
            order.emplace_back(fitted.apply(result.ranked[i].estimate), i);
        std::sort(order.begin(), order.end());
        std::vector<RankedCandidate> next;
        for (const auto& [predicted, i] : order) {
            const std::string label = candidateLabel(result.ranked[i].candidate);
            const bool done = std::any_of(all.begin(), all.end(), [&](const SimulatedCandidate& s) {
                return candidateLabel(s.ranked.candidate) == label;
            });
            if (!done)
                next.push_back(result.ranked[i]);
            if (next.size() == k)
                break;
        }
        err << "  round " << round << ": " << next.size()
            << " candidates, best by the refitted estimate\n";
        for (SimulatedCandidate& s : simulateCandidates(spec, request, next, jobs, report))
            later.push_back(std::move(s));
    }
    std::vector<double> estimated, measured;
    const SimulatedCandidate* fastest = nullptr;
    for (const SimulatedCandidate& s : simulated)
        if (s.ran) {
            estimated.push_back(s.ranked.seconds());
            measured.push_back(s.simulatedSeconds);
        }
    std::vector<SimulatedCandidate> every = simulated;
    every.insert(every.end(), later.begin(), later.end());
    for (const SimulatedCandidate& s : every)
        if (s.ran && (!fastest || s.simulatedSeconds < fastest->simulatedSeconds))
            fastest = &s;
    const Calibration calibration = calibrate(every);
    const RankedCandidate chosen = fastest ? fastest->ranked : result.ranked.front();
    const generate::GeneratorSpec chosenSpec = candidateSpec(request, chosen.candidate);
    const generate::ModelFigures figures = generate::computeFigures(chosenSpec);

    if (args.has("json")) {
        nlohmann::json j;
        j["project"] = project;
        j["model"] = base.model.name;
        j["gpu"] = {{"name", values.count("gpu") ? values.at("gpu") : std::string()},
                    {"peak_tflops", base.compute.peakTflops},
                    {"hbm_gib", base.compute.hbmCapacityGiB}};
        j["gpus"] = gpus;
        j["global_batch"] = base.training.globalBatch;
        j["enumerated"] = result.enumerated;
        j["rejected_for_memory"] = result.rejectedForMemory;
        j["twins"] = result.twins;
        j["ranked"] = result.ranked.size();
        j["ranking_seconds"] = result.rankingSeconds;
        nlohmann::json rows = nlohmann::json::array();
        for (size_t i = 0; i < simulated.size(); ++i) {
            nlohmann::json row = candidateJson(simulated[i].ranked, result);
            row["estimate_rank"] = i + 1;
            row["simulated_seconds"] = simulated[i].ran ? simulated[i].simulatedSeconds : 0.0;
            if (!simulated[i].ran)
                row["error"] = simulated[i].error;
            rows.push_back(row);
        }
        j["simulated"] = rows;
        j["spearman"] = spearman(estimated, measured);
        j["estimate_error_percent"] = meanAbsErrorPercent(simulated);
        j["calibrated_error_percent"] = meanAbsErrorPercent(every, calibration);
        nlohmann::json more = nlohmann::json::array();
        for (const SimulatedCandidate& s : later) {
            nlohmann::json row = candidateJson(s.ranked, result);
            row["simulated_seconds"] = s.ran ? s.simulatedSeconds : 0.0;
            more.push_back(row);
        }
        j["later_rounds"] = more;
        j["calibration"] = {{"compute", calibration.compute},
                            {"communication", calibration.communication},
                            {"bubble", calibration.bubble},
                            {"tail", calibration.tail}};
        j["chosen"] = candidateJson(chosen, result);
        nlohmann::json folded = nlohmann::json::array();
        for (const FoldedGroup& f : foldedGroups(chosenSpec, *network))
            folded.push_back({{"group", generate::groupKindName(f.kind)},
                              {"members", f.members},
                              {"timed_on_dimension", f.timedOn},
                              {"reaches_dimension", f.reaches}});
        j["chosen"]["folded_groups"] = folded;
        if (fastest)
            j["chosen"]["simulated_seconds"] = fastest->simulatedSeconds;
        if (baseline) {
            j["baseline"] = candidateJson(baseline->ranked, result);
            j["baseline"]["simulated_seconds"] = baseline->ran ? baseline->simulatedSeconds : 0.0;
            if (!baseline->ran)
                j["baseline"]["error"] = baseline->error;
        }
        j["megatron"] = megatronArguments(chosenSpec);
        j["nemo"] = nemoOverrides(chosenSpec);
        out << j.dump(2) << "\n";
        return kExitOk;
    }

    out << "Parallelism plan: " << base.model.name << " on " << gpus << " GPUs of " << project
        << ", global batch " << base.training.globalBatch << "\n";
    out << "  GPU: "
        << (values.count("gpu") ? values.at("gpu") + " (" + gpuSource + ")"
                                : std::string("the model preset's"))
        << ": " << units::formatFixed(base.compute.peakTflops, 1) << " TFLOP/s peak, "
        << units::formatFixed(base.compute.hbmCapacityGiB, 2) << " GiB HBM\n";
    out << "  " << result.enumerated << " legal configurations; " << result.rejectedForMemory
        << " refused for memory";
    std::string terms;
    for (size_t t = 0; t < 4; ++t)
        if (result.rejectedBy[t] > 0)
            terms += std::string(terms.empty() ? " (largest term: " : ", ") +
                     memoryTermName(static_cast<MemoryTerm>(t)) + " " +
                     std::to_string(result.rejectedBy[t]);
    out << terms << (terms.empty() ? "" : ")");
    if (result.twins > 0)
        out << "; " << result.twins << " rank orders share a row with a twin (+)";
    out << "; " << result.ranked.size() << " rows ranked in "
        << units::formatFixed(result.rankingSeconds, 2) << " s ("
        << units::formatFixed(double(result.enumerated) / std::max(result.rankingSeconds, 1e-9), 0)
        << " per second)\n\n";
    const size_t show = args.has("show") ? size_t(parseCount("show", args.value("show"), 1))
                                         : std::max<size_t>(simulated.size(), 10);
    out << "  rank  " << padRight("configuration", 38) << "   estimate  memory/GPU     MFU"
        << (k > 0 ? "   simulated   MFU(sim)" : "") << "\n";
    for (size_t i = 0; i < std::min(show, result.ranked.size()); ++i) {
        const RankedCandidate& r = result.ranked[i];
        out << "  " << padLeft(std::to_string(i + 1), 4) << "  "
            << padRight(candidateLabel(r.candidate) + (r.twinPlacements ? " +" : ""), 38)
            << padLeft(reportSeconds(r.seconds()), 11)
            << padLeft(generate::formatBytes(r.memoryBytes), 12)
            << padLeft(units::formatFixed(100 * result.mfu(r.seconds()), 1) + " %", 8);
        if (i < simulated.size())
            out << padLeft(simulated[i].ran ? reportSeconds(simulated[i].simulatedSeconds)
                                            : "failed",
                           12)
                << padLeft(units::formatFixed(100 * result.mfu(simulated[i].simulatedSeconds), 1) +
                               " %",
                           11);
        out << "\n";
    }
    bool twinShown = false;
    for (size_t i = 0; i < std::min(show, result.ranked.size()); ++i)
        twinShown = twinShown || result.ranked[i].twinPlacements;
    if (twinShown)
        out << "  + the row stands for other rank orders too, which put every group on the same "
               "dimension with the same hops\n    (the estimate cannot tell them apart; "
            << twinPlacementsExample(result, show) << ")\n";
    if (!estimated.empty()) {
        out << "\n  estimate vs simulation on the top " << estimated.size()
            << ": Spearman rank correlation "
            << units::formatFixed(spearman(estimated, measured), 3) << "; mean |error| "
            << units::formatFixed(meanAbsErrorPercent(simulated), 1) << " %, recalibrated "
            << units::formatFixed(meanAbsErrorPercent(simulated, calibration), 1)
            << " % (term weights: compute " << units::formatFixed(calibration.compute, 2)
            << ", communication " << units::formatFixed(calibration.communication, 2) << ", bubble "
            << units::formatFixed(calibration.bubble, 2) << ", tail "
            << units::formatFixed(calibration.tail, 2) << ")\n";
    }
    if (baseline) {
        out << "\n  baseline " << candidateLabel(baseline->ranked.candidate) << ": estimate "
            << reportSeconds(baseline->ranked.seconds()) << ", memory "
            << generate::formatBytes(baseline->ranked.memoryBytes) << ", simulated "
            << (baseline->ran ? reportSeconds(baseline->simulatedSeconds)
                              : "failed: " + baseline->error);
        if (baseline->ran && fastest)
            out << "; the planner's choice is "
                << units::formatFixed(baseline->simulatedSeconds / fastest->simulatedSeconds, 3)
                << "x as fast";
        out << "\n";
    }
    if (!later.empty()) {
        out << "\n  later rounds, chosen by the refitted estimate:\n";
        for (const SimulatedCandidate& c : later)
            out << "        " << padRight(candidateLabel(c.ranked.candidate), 38)
                << padLeft(reportSeconds(calibration.apply(c.ranked.estimate)), 11)
                << padLeft(generate::formatBytes(c.ranked.memoryBytes), 12) << padLeft("", 8)
                << padLeft(c.ran ? reportSeconds(c.simulatedSeconds) : "failed", 12) << "\n";
    }
    out << "\nChosen (" << (fastest ? "fastest simulated" : "best estimate")
        << "): " << candidateLabel(chosen.candidate) << "\n";
    out << foldedNote(foldedGroups(chosenSpec, *network), spec.options.backend);
    out << generate::formatFigures(figures);
    out << "\nMegatron-LM (pretrain_gpt.py):\n";
    for (const std::string& a : megatronArguments(chosenSpec))
        out << "  " << a << (a.rfind('#', 0) == 0 ? "" : " \\") << "\n";
    out << "\nNeMo overrides:\n ";
    for (const std::string& o : nemoOverrides(chosenSpec))
        out << " " << o;
    out << "\n";
    return kExitOk;
}

} // namespace astrolabe::cli
