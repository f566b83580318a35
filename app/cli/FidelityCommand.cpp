#include "cli/FidelityCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/TerminalProgress.h"
#include "core/Collectives.h"
#include "core/Units.h"
#include "project/ProjectFile.h"
#include "simulation/Simulation.h"
#include "store/RunStorage.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace astrolabe::cli {

namespace {

struct ModelRun {
    const char* label;
    NetworkBackend backend;
    std::shared_ptr<const RunResult> result;
};

std::string percent(double value, double reference) {
    if (reference <= 0)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%+.2f %%", 100.0 * (value / reference - 1.0));
    return text;
}

std::string padded(std::string text, size_t width) {
    if (text.size() < width)
        text.append(width - text.size(), ' ');
    return text;
}

/// NPU 0's collectives in issue order (every model runs the same trace).
std::vector<CollectiveSpan> collectivesOf(const RunResult& r, int npu) {
    std::vector<CollectiveSpan> out;
    for (const CollectiveSpan& c : r.collectives)
        if (c.npu == npu)
            out.push_back(c);
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.start < b.start; });
    return out;
}

void printBusiestLinks(std::ostream& out, const ModelRun& run, size_t top) {
    const RunResult& r = *run.result;
    std::vector<size_t> order(std::min(r.links.size(), r.linkStats.size()));
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return r.linkStats[a].busy > r.linkStats[b].busy; });
    out << "  " << run.label << ":";
    for (size_t i = 0; i < order.size() && i < top; ++i) {
        const size_t l = order[i];
        const double busy = r.endTime.ps() > 0
                                ? 100.0 * static_cast<double>(r.linkStats[l].busy.ps()) /
                                      static_cast<double>(r.endTime.ps())
                                : 0.0;
        char text[96];
        std::snprintf(text, sizeof text, " link %zu (%d->%d) %.1f %% busy, %s;", l, r.links[l].src,
                      r.links[l].dst, busy, units::formatSize(r.linkStats[l].bytes).c_str());
        out << text;
    }
    out << "\n";
}

} // namespace

ArgParser fidelityParser() {
    return ArgParser("fidelity",
                     "Run one project through the congestion-unaware, congestion-aware and "
                     "packet-level (ns-3) network models and show where they differ.",
                     {{"top", "N", "busiest links shown per model", "3"},
                      {"collectives", "N", "collectives listed (NPU 0, issue order)", "20"},
                      {"db", "FILE", "project database to store the three runs in",
                       "the project's folder/astrolabe.db"},
                      {"no-store", "", "do not store the runs in the project database", ""},
                      progressFlag()},
                     {"PROJECT.yaml"});
}

int fidelityCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const std::string project = args.positional().at(0);
    requireFile("project", project);
    std::vector<std::string> warnings;
    const SimulationSpec base = loadProject(project, &warnings);
    refuseServingProject(base, "fidelity", project);
    for (const std::string& w : warnings)
        err << "astrolabe-cli: warning: " << w << "\n";
    const auto top = static_cast<size_t>(parseCount("top", args.value("top", "3")));
    const auto listed =
        static_cast<size_t>(parseCount("collectives", args.value("collectives", "20")));

    std::vector<ModelRun> runs{{"congestion-unaware", NetworkBackend::CongestionUnaware, {}},
                               {"congestion-aware", NetworkBackend::CongestionAware, {}},
                               {"packet (ns-3)", NetworkBackend::Packet, {}}};
    std::vector<int64_t> stored;
    const std::string db =
        args.value("db").empty() ? defaultDatabasePath(project) : args.value("db");
    for (ModelRun& run : runs) {
        SimulationSpec spec = base;
        spec.options.backend = run.backend;
        // The model in the run's name: the runs list and the Compare tab's column headers then
        // say which run is which without opening their settings.
        spec.name = (base.name.empty() ? std::string("fidelity") : base.name) + ": " + run.label;
        TerminalProgress progress(err, args);
        run.result = runSimulation(spec, &progress);
        if (!args.has("no-store"))
            stored.push_back(saveRunToProjectDb(db, spec, *run.result, run.result->wallSeconds));
    }
    const RunResult& packet = *runs.back().result;
    out << "fidelity: " << (base.name.empty() ? project : base.name) << ", " << packet.npuCount
        << " NPUs\n";
    out << "  " << padded("model", 20) << padded("end time", 16) << padded("vs packet", 12)
        << "wall time\n";
    for (const ModelRun& run : runs) {
        char wall[32];
        std::snprintf(wall, sizeof wall, "%.3f s", run.result->wallSeconds);
        out << "  " << padded(run.label, 20) << padded(units::formatTime(run.result->endTime), 16)
            << padded(percent(run.result->endTime.ns(), packet.endTime.ns()), 12) << wall << "\n";
    }

    std::vector<std::vector<CollectiveSpan>> spans;
    for (const ModelRun& run : runs)
        spans.push_back(collectivesOf(*run.result, 0));
    const size_t common = std::min({spans[0].size(), spans[1].size(), spans[2].size()});
    if (common > 0)
        out << "per collective (NPU 0, issue order): duration in each model, difference from "
               "packet\n";
    for (size_t i = 0; i < common && i < listed; ++i) {
        const CollectiveSpan& p = spans[2][i];
        const double packetNs = (p.end - p.start).ns();
        out << "  #" << i + 1 << " " << collectiveTypeName(p.type) << " "
            << units::formatSize(p.sizeBytes) << ":";
        for (size_t m = 0; m < runs.size(); ++m) {
            const SimTime d = spans[m][i].end - spans[m][i].start;
            out << " " << runs[m].label << " " << units::formatTime(d);
            if (m + 1 < runs.size())
                out << " (" << percent(d.ns(), packetNs) << ")";
            out << (m + 1 < runs.size() ? "," : "\n");
        }
    }
    if (common > listed)
        out << "  ... and " << common - listed << " more\n";
    out << "busiest links (share of the run each was transmitting)\n";
    for (const ModelRun& run : runs)
        printBusiestLinks(out, run, top);
    for (const std::string& line : packet.reportLines)
        if (line.rfind("[packet]", 0) == 0)
            out << "  " << line << "\n";
    if (stored.size() == runs.size())
        out << "stored as runs " << stored[0] << ", " << stored[1] << ", " << stored[2] << " in "
            << db << " (select the three in the GUI's runs list and Compare)\n";
    return kExitOk;
}

} // namespace astrolabe::cli
