#include "cli/GraphCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "core/OutputFile.h"
#include "export/GraphExport.h"
#include "graph/GraphCsv.h"
#include "project/ProjectFile.h"
#include "topology/Topology.h"
#include "trace/WorkloadNode.h"

#include <filesystem>
#include <ostream>

namespace astrolabe::cli {
namespace {

int count(const ParsedArgs& args, const std::string& flag) {
    const std::string text = args.value(flag);
    if (text.empty())
        return -1;
    return parseCount(flag, text, 0);
}

int exportGraph(const ParsedArgs& args, const std::string& project, std::ostream& out) {
    const std::string format = args.value("format", "dot");
    if (format != "dot" && format != "graphml")
        throw UsageError("--format: expected dot or graphml, got \"" + format + "\"");
    const SimulationSpec spec = loadProject(project);
    // A dimension stack is exported as the graph of its devices and links.
    const GraphSpec graph =
        spec.platform.graph ? *spec.platform.graph : graphOfStack(spec.platform);
    const std::string name = std::filesystem::path(project).stem().string();
    const std::string text = format == "dot" ? graphDot(graph, name) : graphGraphMl(graph);
    if (args.value("out").empty()) {
        out << text;
        return kExitOk;
    }
    checkOutputPath(args.value("out"), "the " + format + " export", {{project, "the project"}});
    writeOutputFile(args.value("out"), "the " + format + " export",
                    [&](std::ostream& file) { file << text; });
    out << "wrote " << args.value("out") << " (" << graph.deviceCount() << " devices, "
        << graph.links.size() << " links)\n";
    return kExitOk;
}

int importGraph(const ParsedArgs& args, const std::string& csv, std::ostream& out) {
    const std::string target = args.value("out");
    if (target.empty())
        throw UsageError("graph import: --out PROJECT.yaml is required");
    checkOutputPath(target, "the project", {{csv, "the edge list"}});
    GraphSpec graph = loadGraphEdgeCsv(csv, count(args, "npus"), count(args, "switches"));
    SimulationSpec spec;
    spec.name = std::filesystem::path(target).stem().string();
    spec.platform = graphPlatform(std::move(graph));
    spec.workload.kind = WorkloadSource::Kind::Microbenchmark;
    spec.workload.microbenchmark.collective = static_cast<int>(CollectiveType::AllReduce);
    spec.workload.microbenchmark.sizeBytes = 1 << 20;
    // The quick-start system (projects/quickstart): ring everywhere, 4 chunks.
    spec.system.allReduce = spec.system.reduceScatter = spec.system.allGather =
        spec.system.allToAll = {parseAlgorithm("ring")};
    spec.system.schedulingPolicy = SchedulingPolicy::LIFO;
    spec.system.collectiveOptimization = CollectiveOptimization::LocalBWAware;
    spec.system.preferredDatasetSplits = 4;
    spec.system.activeChunksPerDimension = 1;
    spec.system.endpointDelayNs = 10;
    spec.system.localMemBandwidthGBps = 50;
    saveProject(spec, target);
    out << "wrote " << target << " (" << spec.platform.graph->npus << " NPUs, "
        << spec.platform.graph->switches << " switches, " << spec.platform.graph->links.size()
        << " links)\n";
    return kExitOk;
}

} // namespace

ArgParser graphParser() {
    return ArgParser("graph",
                     "Graph platforms in and out (docs/graph-platforms.md).\n"
                     "  graph export PROJECT   the platform as DOT or GraphML (a dimension stack "
                     "as its device graph)\n"
                     "  graph import EDGES.csv a project whose platform is the edge list "
                     "(from,to,bandwidth,latency[,bidirectional])",
                     {
                         {"format", "dot|graphml", "export: the format", "dot"},
                         {"out", "FILE",
                          "export: write here instead of stdout; import: the "
                          "project to write (required)",
                          ""},
                         {"npus", "N", "import: NPU count (default: highest npuK + 1)", ""},
                         {"switches", "S", "import: switch count (default: highest swK + 1)", ""},
                     },
                     {"ACTION", "PATH"});
}

int graphCommand(const ParsedArgs& args, std::ostream& out, std::ostream&) {
    const std::string action = args.positional().at(0);
    const std::string path = args.positional().at(1);
    if (action == "export")
        return exportGraph(args, path, out);
    if (action == "import")
        return importGraph(args, path, out);
    throw UsageError("graph: unknown action \"" + action + "\"; expected export or import");
}

} // namespace astrolabe::cli
