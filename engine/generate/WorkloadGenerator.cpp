#include "generate/WorkloadGenerator.h"

#include "astra/AstraExport.h"
#include "core/Error.h"
#include "core/OutputFile.h"
#include "generate/DataParallelProgram.h"
#include "generate/ModelFigures.h"
#include "generate/RankLayout.h"
#include "generate/TraceBuilder.h"
#include "generate/TransformerProgram.h"

#include <fstream>

namespace astrolabe::generate {

ModelProgram buildProgram(const GeneratorSpec& spec) {
    switch (spec.model.kind) {
    case ModelKind::Transformer:
        return buildTransformerProgram(spec);
    case ModelKind::Dlrm:
        return buildDlrmProgram(spec);
    case ModelKind::ResNet:
        return buildResNetProgram(spec);
    }
    return buildTransformerProgram(spec);
}

CommGroups forEachRankTrace(const GeneratorSpec& spec,
                            const std::function<void(int, WorkloadTrace&&)>& sink) {
    validate(spec);
    const ModelProgram program = buildProgram(spec);
    const RankLayout layout(spec.parallel);
    const TraceBuilder builder(spec, program, layout);
    for (int r = 0; r < layout.npus(); ++r) {
        WorkloadTrace trace = builder.buildRank(r);
        if (const double nodes = double(trace.nodes.size()) * layout.npus();
            r == 0 && nodes > kMaxGeneratedNodes)
            throw Error(ErrorKind::Validation,
                        "the iteration would have about " + formatCount(nodes) + " trace nodes (" +
                            std::to_string(trace.nodes.size()) + " on rank 0 x " +
                            std::to_string(layout.npus()) + " NPUs), more than the limit of " +
                            formatCount(kMaxGeneratedNodes),
                        {}, "fewer NPUs, layers or micro-batches; " + std::string(kLimitsHint));
        trace.file = "rank " + std::to_string(r);
        sink(r, std::move(trace));
    }
    return layout.groups();
}

GeneratedWorkload generateWorkload(const GeneratorSpec& spec) {
    GeneratedWorkload out; // not reserved: the NPU count is bounded only once validated
    out.groups = forEachRankTrace(
        spec, [&](int, WorkloadTrace&& trace) { out.traces.push_back(std::move(trace)); });
    return out;
}

void writeCommGroups(const std::string& prefix, const CommGroups& groups) {
    const std::string path = prefix + ".comm_groups.json";
    writeOutputFile(path, "the communicator groups",
                    [&](std::ostream& out) { out << writeCommGroupsJson(groups); });
}

uint64_t generateAndWriteWorkload(const std::string& prefix, const GeneratorSpec& spec,
                                  const TraceWriter& writer) {
    uint64_t nodes = 0;
    const CommGroups groups = forEachRankTrace(spec, [&](int rank, WorkloadTrace&& trace) {
        nodes += trace.nodes.size();
        writer(prefix + "." + std::to_string(rank) + ".et", trace);
    });
    writeCommGroups(prefix, groups);
    return nodes;
}

} // namespace astrolabe::generate
