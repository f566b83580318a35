// Chakra traces as users bring them, read leniently: any form the reader takes (binary, gzip,
// protobuf-JSON, Chakra's JSON text format), decoded, repaired by the documented rules and
// validated. Beyond the rule of FuzzTarget.h, the repair has a property of its own: a trace with
// unique ids comes out with every dependency inside the file and no cycle.
#include "FuzzTarget.h"
#include "trace/ErrorCollector.h"
#include "trace/TraceRepair.h"
#include "trace/WorkloadValidator.h"
#include "trace/chakra/ChakraFile.h"
#include "trace/chakra/ChakraRecords.h"

#include <unordered_set>

ASTROLABE_FUZZ_TARGET(chakra_lenient) {
    using namespace astrolabe;
    const std::string bytes = chakra::inflateTraceBytes(std::string(input), "fuzz.0.et");
    WorkloadTrace trace = decodeChakraFile(parseChakraBytes(bytes, "fuzz.0.et"), "fuzz.0.et");
    repairTrace(trace);
    std::unordered_set<uint64_t> ids;
    bool unique = true;
    for (const WorkloadNode& node : trace.nodes)
        unique = ids.insert(node.id).second && unique;
    LoadOptions options;
    options.strict = false;
    ErrorCollector errors(1000);
    validateTrace(trace, 0, 1, options, errors);
    try {
        errors.throwIfAny();
    } catch (const ErrorList& list) {
        for (const Error& e : list.errors()) {
            const std::string& m = e.message();
            if (unique && !trace.nodes.empty() &&
                (m.find("dependency cycle") != std::string::npos ||
                 m.find("which is not in this file") != std::string::npos ||
                 m.find("no dependency-free node") != std::string::npos))
                throw Error(ErrorKind::Internal, "the repaired trace still has: " + m);
        }
        throw;
    }
}
