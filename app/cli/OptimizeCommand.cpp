#include "cli/OptimizeCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/ModelFile.h"
#include "cli/ParallelismCommand.h"
#include "core/Error.h"
#include "core/Units.h"
#include "generate/GeneratorValues.h"
#include "generate/WorkloadGenerator.h"
#include "optimize/BandwidthOptimizer.h"
#include "optimize/SimulatedIterationTime.h"
#include "project/ProjectFile.h"
#include "yaml/ProjectValues.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

namespace astrolabe::cli {
namespace {

using namespace optimize;

/// "250", "250 GB/s" or "2 TB/s" -> GB/s (10^9 B/s). A bare number is GB/s. Held to the
/// bandwidth limits of every other input (core/Units.h).
double parseGBps(const std::string& flag, const std::string& text) {
    const auto refuse = [&](const std::string& problem) {
        std::string message = "--";
        message += flag;
        message += ": ";
        message += problem;
        throw UsageError(message);
    };
    double value = 0;
    if (!parseWholeNumber(text, value)) {
        try {
            value = units::parseBandwidthBytesPerSecond(text) / 1e9;
        } catch (const Error& e) {
            refuse("expected a bandwidth in GB/s (\"250\" or \"250 GB/s\"), found \"" + text +
                   "\" (" + e.message() + ")");
        }
    }
    if (!(value > 0) || !std::isfinite(value))
        refuse("expected a bandwidth above 0, found \"" + text + "\"");
    if (const std::string problem =
            units::bandwidthRangeProblem(value * 1e9, std::string(text).append(" GB/s"));
        !problem.empty())
        refuse(problem);
    return value;
}

/// "DIM=VALUE" with DIM a dimension index of the platform.
std::pair<size_t, std::string> dimensionValue(const std::string& flag, const std::string& text,
                                              size_t dimensions) {
    const size_t eq = text.find('=');
    std::string expected = "--";
    expected += flag;
    expected += ": expected DIM=VALUE with DIM a dimension 0..";
    expected += std::to_string(dimensions - 1);
    expected += ", found \"";
    expected += text;
    expected += "\"";
    if (eq == std::string::npos || eq == 0)
        throw UsageError(expected);
    int dim = -1;
    try {
        dim = parseCount(flag, text.substr(0, eq), 0);
    } catch (const UsageError&) {
        throw UsageError(expected);
    }
    if (static_cast<size_t>(dim) >= dimensions)
        throw UsageError(expected);
    return {static_cast<size_t>(dim), text.substr(eq + 1)};
}

std::string padded(std::string text, size_t width) {
    if (text.size() < width)
        text.insert(0, width - text.size(), ' ');
    return text;
}

std::string dimensionLabel(const DimensionSpec& d, size_t index) {
    std::string label = "dim";
    label += std::to_string(index);
    label += " ";
    label += blockKindName(d.kind);
    label += " ";
    label += std::to_string(d.size);
    return label;
}

/// Iterations per second per million dollars: 10^6 / (time x cost).
double perfPerMillion(const EvaluatedAllocation& a) {
    return a.perfPerCost() * 1e6;
}

struct Row {
    std::string label;
    EvaluatedAllocation allocation;
    bool modelled = false;
};

void printTable(std::ostream& out, const PlatformSpec& platform, const std::vector<Row>& rows) {
    std::vector<size_t> widths;
    std::string head = "  allocation ";
    for (size_t d = 0; d < platform.dimensions.size(); ++d) {
        std::string label = dimensionLabel(platform.dimensions[d], d);
        label += " (GB/s)";
        widths.push_back(std::max<size_t>(label.size(), 10));
        head += "  ";
        head += padded(label, widths.back());
    }
    head += "  simulated (ms)  model (ms)      cost ($)  iter/s per M$";
    out << head << "\n";
    for (const Row& r : rows) {
        std::string line = "  ";
        std::string label = r.label;
        label.resize(std::max<size_t>(label.size(), 11), ' ');
        line += label;
        for (size_t d = 0; d < widths.size(); ++d) {
            line += "  ";
            line += padded(units::formatFixed(r.allocation.gbps[d], 1), widths[d]);
        }
        line += "  ";
        line += padded(units::formatFixed(r.allocation.simulatedSeconds * 1e3, 4), 14);
        line += "  ";
        line += padded(r.modelled && r.allocation.predictedSeconds > 0
                           ? units::formatFixed(r.allocation.predictedSeconds * 1e3, 4)
                           : "-",
                       10);
        line += "  ";
        line += padded(units::formatFixed(r.allocation.costDollars, 0), 12);
        line += "  ";
        line += padded(units::formatFixed(perfPerMillion(r.allocation), 4), 13);
        out << line << "\n";
    }
}

nlohmann::json allocationJson(const EvaluatedAllocation& a) {
    return {{"gbps", a.gbps},
            {"simulated_seconds", a.simulatedSeconds},
            {"model_seconds", a.predictedSeconds},
            {"cost_dollars", a.costDollars},
            {"iterations_per_second_per_million_dollars", perfPerMillion(a)}};
}

} // namespace

ArgParser optimizeParser() {
    std::vector<FlagSpec> flags{
        {"total-bandwidth", "GB/s", "bandwidth per NPU summed over the dimensions (required)", ""},
        {"objective", "NAME", "time or perf-per-cost", "time"},
        {"budget", "DOLLARS", "cost limit for the whole platform's network and NPUs", "none"},
        {"min", "DIM=GB/s", "lowest bandwidth of dimension DIM (0 = the first)",
         "0.1% of the total", true},
        {"max", "DIM=GB/s", "highest bandwidth of dimension DIM", "none", true},
        {"price", "DIM=DOLLARS", "price per GB/s per NPU of dimension DIM",
         "from the block kind, docs/libra.md", true},
        {"generate", "KEY=VALUE,..",
         "optimize for a generated training iteration instead of the project's workload: "
         "generate-llm's flags, e.g. preset=gpt3-175b,layers=2 (npus = the platform's)",
         ""},
        {"pareto", "N", "also print the cost / time Pareto front over N budgets", ""},
        {"backend", "NAME", "network model: congestion-unaware, congestion-aware or packet",
         "the project's"},
        {"json", "", "print the result as JSON instead of tables", ""},
        {"verbose", "", "print each simulation (bandwidths, time) on stderr as it finishes", ""}};
    for (FlagSpec& flag : parallelismFlags())
        flags.push_back(std::move(flag));
    return ArgParser(
        "optimize",
        "WHAT = bandwidth: LIBRA: choose the bandwidth of each network dimension (GB/s per NPU,\n"
        "10^9 B/s) that minimizes the project's iteration time, or maximizes performance per\n"
        "cost, under a total per NPU, per-dimension bounds and a cost budget. The model\n"
        "T = T0 + sum c_d/B_d is fitted to the simulator, solved (closed form or NLopt SLSQP),\n"
        "and every answer is confirmed by simulating it (docs/libra.md).\n"
        "WHAT = parallelism: the best tp x pp x dp (x ep) split, micro-batch, interleaving, ZeRO\n"
        "stage, recomputation and rank placement for --model on the project's platform: every\n"
        "legal configuration, memory-checked, ranked by an analytical estimate, the --top K\n"
        "simulated, the chosen one printed as Megatron-LM / NeMo arguments (docs/planner.md).",
        std::move(flags), {"WHAT", "PROJECT.yaml"});
}

int optimizeCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    if (args.positional().at(0) == "parallelism")
        return parallelismCommand(args, out, err);
    if (args.positional().at(0) != "bandwidth") {
        std::string message = "optimize: unknown target \"";
        message += args.positional().at(0);
        message += "\"; expected \"bandwidth\" or \"parallelism\"";
        throw UsageError(message);
    }
    for (const FlagSpec& flag : parallelismFlags())
        if (args.has(flag.name))
            throw UsageError("optimize bandwidth: --" + flag.name +
                             " belongs to 'optimize parallelism'");
    const std::string project = args.positional().at(1);
    requireFile("project", project);
    if (!args.has("total-bandwidth"))
        throw UsageError("optimize bandwidth: missing required option --total-bandwidth "
                         "(GB/s per NPU, summed over the dimensions)");
    const double total = parseGBps("total-bandwidth", args.value("total-bandwidth"));

    std::vector<std::string> warnings;
    SimulationSpec spec = loadProject(project, &warnings);
    for (const std::string& w : warnings)
        err << "astrolabe-cli: warning: " << w << "\n";
    applyBackendOption(args.value("backend"), spec.options.backend);
    const size_t dims = spec.platform.dimensions.size();
    AllocationProblem problem = defaultProblem(spec.platform, total);
    if (args.has("objective")) {
        try {
            problem.objective = parseObjective(args.value("objective"));
        } catch (const Error& e) {
            throw UsageError(std::string("--objective: ") + e.message());
        }
    }
    if (args.has("budget")) {
        problem.budgetDollars = parseReal("budget", args.value("budget"));
        if (!(*problem.budgetDollars > 0))
            throw UsageError("--budget: expected dollars above 0");
    }
    // One value per dimension and flag: a second --min=1=... would silently replace the first.
    const auto perDimension = [&](const char* flag) {
        std::vector<std::pair<size_t, std::string>> out;
        std::map<size_t, std::string> given; // dimension -> the value that named it
        for (const std::string& v : args.values(flag)) {
            const auto [d, text] = dimensionValue(flag, v, dims);
            const auto [it, added] = given.try_emplace(d, v);
            if (!added)
                throw UsageError("--" + std::string(flag) + " gives dimension " +
                                 std::to_string(d) + " twice (" + it->second + " and " + v +
                                 "): give each dimension once");
            out.emplace_back(d, text);
        }
        return out;
    };
    for (const auto& [d, text] : perDimension("min"))
        problem.minGBps[d] = parseGBps("min", text);
    for (const auto& [d, text] : perDimension("max"))
        problem.maxGBps[d] = parseGBps("max", text);
    for (const auto& [d, text] : perDimension("price")) {
        const double price = parseReal("price", text);
        if (price < 0)
            throw UsageError("--price: expected dollars per GB/s of 0 or more, found \"" + text +
                             "\"");
        problem.dollarsPerGBps[d] = price * static_cast<double>(spec.platform.npuCount());
    }
    if (const std::string note = problem.totalOutOfReach(); !note.empty())
        err << "astrolabe-cli: warning: optimize bandwidth: " << note
            << " (raise a --max or lower --total-bandwidth)\n";
    try {
        problem.validate();
    } catch (const Error& e) {
        std::string message = "optimize bandwidth: ";
        message += e.message();
        if (!e.hint().empty()) {
            message += " (";
            message += e.hint();
            message += ")";
        }
        throw UsageError(message);
    }
    int paretoPoints = 0;
    if (args.has("pareto")) {
        paretoPoints = parseCount("pareto", args.value("pareto"));
        if (paretoPoints < 2 || paretoPoints > 64)
            throw UsageError("--pareto: expected a number of budgets from 2 to 64");
    }

    IterationTime time;
    std::string workload = "the project's workload";
    if (const std::string generate = args.value("generate"); !generate.empty()) {
        std::map<std::string, std::string> values;
        addPairs(values, generate, "generate");
        std::string preset = "gpt3-175b";
        if (const auto it = values.find("preset"); it != values.end()) {
            preset = it->second;
            values.erase(it);
        }
        if (!values.count("npus") && !values.count("tp") && !values.count("pp") &&
            !values.count("dp"))
            values["npus"] = std::to_string(spec.platform.npuCount());
        generate::GeneratorSpec generator;
        try {
            generator = generate::generatorSpecFrom(preset, values);
            generate::validate(generator);
        } catch (const Error& e) {
            throw UsageError(std::string("--generate: ") + e.what());
        }
        if (generator.parallel.npus() != spec.platform.npuCount()) {
            std::string message = "--generate: the iteration uses ";
            message += std::to_string(generator.parallel.npus());
            message += " NPUs and the platform has ";
            message += std::to_string(spec.platform.npuCount());
            throw UsageError(message);
        }
        generate::GeneratedWorkload generated = generate::generateWorkload(generator);
        spec.commGroups = std::move(generated.groups);
        spec.workload.kind = WorkloadSource::Kind::ChakraTrace;
        spec.workload.tracePrefix = "generated:" + generator.model.name;
        time = simulatedIterationTime(
            spec, std::make_shared<const std::vector<WorkloadTrace>>(std::move(generated.traces)));
        workload = "generated ";
        workload += generator.model.name;
        workload += " iteration (";
        workload += generate;
        workload += ")";
    } else {
        time = simulatedIterationTime(spec);
    }

    if (args.has("verbose")) {
        // Each simulation on stderr as it finishes: a generated iteration takes seconds each.
        time = [inner = std::move(time), &err, count = 0](const std::vector<double>& gbps) mutable {
            const double seconds = inner(gbps);
            err << "  simulation " << ++count << ":";
            for (double b : gbps)
                err << " " << units::formatFixed(b, 2);
            err << " GB/s -> " << units::formatFixed(seconds * 1e3, 4) << " ms\n";
            return seconds;
        };
    }
    EvaluatedAllocation current;
    current.gbps = platformGBps(spec.platform);
    current.simulatedSeconds = time(current.gbps);
    current.costDollars = problem.costDollars(current.gbps);
    const OptimizationReport report = optimizeBandwidth(problem, equalAllocation(problem), time);
    std::vector<EvaluatedAllocation> front;
    if (paretoPoints > 0)
        front = paretoFront(problem, equalAllocation(problem), time, paretoPoints);

    if (args.has("json")) {
        nlohmann::json j;
        j["project"] = project;
        j["workload"] = workload;
        j["objective"] = objectiveName(problem.objective);
        j["total_gbps"] = total;
        if (problem.budgetDollars)
            j["budget_dollars"] = *problem.budgetDollars;
        j["current"] = allocationJson(current);
        j["equal"] = allocationJson(report.start);
        j["optimized"] = allocationJson(report.best);
        j["model"] = {{"fixed_seconds", report.model.fixedSeconds},
                      {"coefficients_seconds_gbps", report.model.coefficients}};
        j["simulations"] = report.simulations;
        j["solver_seconds"] = report.solverSeconds;
        nlohmann::json pareto = nlohmann::json::array();
        for (const EvaluatedAllocation& a : front)
            pareto.push_back(allocationJson(a));
        if (paretoPoints > 0)
            j["pareto"] = pareto;
        out << j.dump(2) << "\n";
        return kExitOk;
    }

    out << "LIBRA bandwidth allocation for " << project << "\n";
    out << "  workload: " << workload << "\n";
    out << "  objective: " << objectiveName(problem.objective) << ", at most "
        << units::formatFixed(total, 1) << " GB/s per NPU";
    if (problem.budgetDollars)
        out << ", budget $" << units::formatFixed(*problem.budgetDollars, 0);
    out << "\n\n";
    printTable(out, spec.platform,
               {{"current", current, false},
                {"equal", report.start, false},
                {"optimized", report.best, true}});
    double currentTotal = 0;
    for (double b : current.gbps)
        currentTotal += b;
    if (std::abs(currentTotal - total) > total * 1e-9)
        out << "\n  note: the current allocation spends " << units::formatFixed(currentTotal, 1)
            << " GB/s per NPU, not " << units::formatFixed(total, 1) << "\n";
    out << "\n  speedup of the optimized allocation: "
        << units::formatFixed(current.simulatedSeconds / report.best.simulatedSeconds, 3)
        << "x over current, "
        << units::formatFixed(report.start.simulatedSeconds / report.best.simulatedSeconds, 3)
        << "x over equal\n";
    out << "  model at the answer: T = " << units::formatFixed(report.model.fixedSeconds * 1e3, 4)
        << " ms";
    for (size_t d = 0; d < dims; ++d)
        out << " + " << units::formatFixed(report.model.coefficients[d] * 1e3, 4) << "/B" << d;
    out << " ms (B in GB/s)\n";
    out << "  " << report.simulations << " simulations, "
        << units::formatFixed(report.solverSeconds * 1e3, 2) << " ms in the solver\n";
    if (!front.empty()) {
        out << "\nPareto front (cost against simulated time, " << paretoPoints << " budgets)\n";
        std::vector<Row> rows;
        for (size_t i = 0; i < front.size(); ++i)
            rows.push_back({"point " + std::to_string(i + 1), front[i], true});
        printTable(out, spec.platform, rows);
    }
    return kExitOk;
}

} // namespace astrolabe::cli
