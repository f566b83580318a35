#include "cli/TraceCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "core/Error.h"
#include "core/Limits.h"
#include "core/Units.h"
#include "trace/ErrorCollector.h"
#include "trace/TraceIo.h"
#include "trace/TraceRepair.h"
#include "trace/WorkloadLoader.h"
#include "trace/WorkloadValidator.h"
#include "trace/chakra/ChakraFile.h"

#include <charconv>
#include <chrono>
#include <ostream>
#include <sstream>

namespace astrolabe::cli {
namespace {

std::string joinIds(const google::protobuf::RepeatedField<uint64_t>& ids) {
    std::string out(1, '[');
    for (uint64_t id : ids) {
        if (out.size() > 1)
            out += ',';
        out += std::to_string(id);
    }
    out += ']';
    return out;
}

int dump(const std::string& path, std::ostream& out) {
    const ChakraFile file = readChakraFile(path);
    out << path << ": " << chakra::encodingName(file.encoding) << ", schema \""
        << schemaVersionOf(file.metadata) << "\", " << units::countOf(file.nodes.size(), "node")
        << "\n";
    for (const auto& attr : file.metadata.attr())
        out << "  metadata " << attr.ShortDebugString().substr(0, 200) << "\n";
    for (const ChakraProtoMsg::Node& node : file.nodes) {
        out << "  node " << node.id() << "  " << ChakraProtoMsg::NodeType_Name(node.type())
            << "  \"" << node.name() << "\"";
        if (node.data_deps_size())
            out << "  data_deps " << joinIds(node.data_deps());
        if (node.ctrl_deps_size())
            out << "  ctrl_deps " << joinIds(node.ctrl_deps());
        if (node.duration_micros())
            out << "  duration " << node.duration_micros() << " us";
        out << "\n";
        for (const auto& attr : node.attr()) {
            ChakraProtoMsg::AttributeProto value = attr;
            value.clear_name();
            out << "      " << attr.name() << ": " << value.ShortDebugString() << "\n";
        }
    }
    return kExitOk;
}

void printAssumptions(const std::vector<WorkloadTrace>& traces,
                      const std::vector<std::string>& assumed, std::ostream& out) {
    for (const std::string& line : assumed)
        out << "  assumed " << line << "\n";
    // What the recording itself says of its span; Chakra states no unit for it.
    for (const WorkloadTrace& t : traces)
        if (t.recordedFinishTs > t.recordedStartTs) {
            out << "  recorded start_ts .. finish_ts of " << t.file << ": " << t.recordedStartTs
                << " .. " << t.recordedFinishTs << " (difference "
                << t.recordedFinishTs - t.recordedStartTs << ", in the recording's clock)\n";
            break;
        }
}

std::vector<uint32_t> parseDims(const std::string& text) {
    std::vector<uint32_t> dims;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        uint32_t value = 0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
        if (ec != std::errc() || end != item.data() + item.size() || value == 0)
            throw UsageError("--dims: expected NPUs per dimension like 8,4 (got \"" + text + "\")");
        dims.push_back(value);
    }
    if (dims.size() > kMaxDimensions)
        throw UsageError("--dims: expected at most " + std::to_string(kMaxDimensions) +
                         " dimensions, got " + std::to_string(dims.size()));
    return dims;
}

int check(const ParsedArgs& args, const std::string& prefix, std::ostream& out) {
    LoadOptions options;
    options.strict = args.has("strict");
    options.roofline = args.has("roofline");
    options.dimensionSizes = parseDims(args.value("dims"));
    int npus = 0;
    if (args.has("npus")) {
        npus = parseCount("npus", args.value("npus"), 1, static_cast<int>(kMaxNpus));
    } else {
        if (options.dimensionSizes.empty())
            throw UsageError("trace check needs --npus N or --dims A,B,...");
        uint64_t product = 1; // each factor is at most 2^32 and the product stays below 2^53
        for (uint32_t d : options.dimensionSizes) {
            product *= d;
            if (product > kMaxNpus)
                throw UsageError("--dims: expected at most " + std::to_string(kMaxNpus) +
                                 " NPUs in all, got " + args.value("dims") + " (more than " +
                                 std::to_string(kMaxNpus) + ")");
        }
        npus = static_cast<int>(product);
    }
    const auto start = std::chrono::steady_clock::now();
    const auto traces = loadWorkload(prefix, npus, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    size_t nodes = 0;
    for (const WorkloadTrace& t : traces)
        nodes += t.nodes.size();
    const std::vector<std::string> assumed = assumptionLines(traces);
    out << prefix << ": " << units::countOf(traces.size(), "trace") << ", "
        << units::countOf(nodes, "node") << ", valid"
        << (assumed.empty() ? "" : " with the assumptions below") << " (loaded in " << seconds
        << " s)\n";
    printAssumptions(traces, assumed, out);
    return kExitOk;
}

// The rules of a lenient load, then the strict checks a trace for any NPU count must pass:
// what is written runs under --strict (and in ASTRA-sim) without an assumption.
int repair(const std::string& in, const std::string& outPath, std::ostream& out) {
    WorkloadTrace trace = readWorkloadTrace(in);
    const size_t before = trace.nodes.size();
    repairTrace(trace);
    LoadOptions options;
    options.checkIssuingRank = false;
    ErrorCollector errors(options.maxErrors);
    validateTrace(trace, 0, static_cast<int>(kMaxNpus), options, errors);
    errors.throwIfAny();
    writeWorkloadTrace(outPath, trace);
    const std::vector<std::string> assumed = assumptionLines({trace});
    out << in << " -> " << outPath << ": " << units::countOf(before, "node") << ", "
        << (assumed.empty() ? "nothing to repair" : "repaired by the rules below") << "\n";
    printAssumptions({trace}, assumed, out);
    return kExitOk;
}

} // namespace

ArgParser traceParser() {
    return ArgParser(
        "trace",
        "Inspect Chakra execution traces.\n"
        "  trace dump FILE      print every node and attribute (binary, gzip or JSON)\n"
        "  trace check PREFIX   load PREFIX.i.et for every NPU and validate them; list what\n"
        "                       had to be assumed (docs/real-traces.md), by kind with counts\n"
        "  trace repair IN OUT  apply those rules to one trace and write a clean binary trace",
        {
            {"npus", "N", "check: number of NPUs", ""},
            {"strict", "", "check: refuse traces that need an assumption", ""},
            {"dims", "A,B,..", "check: NPUs per network dimension", ""},
            {"roofline", "", "check: COMP nodes need num_ops and tensor_size", ""},
        },
        {"ACTION", "PATH", "[OUT]"});
}

int traceCommand(const ParsedArgs& args, std::ostream& out, std::ostream&) {
    const std::string action = args.positional().at(0);
    const std::string path = args.positional().at(1);
    if (action != "repair" && args.positional().size() > 2)
        throw UsageError("trace " + action + ": unexpected argument \"" + args.positional()[2] +
                         "\"");
    if (action == "dump")
        return dump(path, out);
    if (action == "check")
        return check(args, path, out);
    if (action == "repair") {
        if (args.positional().size() < 3)
            throw UsageError("trace repair: missing <OUT>, the trace file to write");
        return repair(path, args.positional()[2], out);
    }
    throw UsageError("trace: unknown action \"" + action + "\"; expected dump, check or repair");
}

} // namespace astrolabe::cli
