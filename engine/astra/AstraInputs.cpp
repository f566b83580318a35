#include "astra/AstraInputs.h"

#include "astra/AstraMemoryConfig.h"
#include "astra/AstraNetworkConfig.h"
#include "astra/AstraSystemConfig.h"
#include "core/Units.h"
#include "spec/SpecValidation.h"

#include <cmath>
#include <filesystem>

namespace astrolabe {
namespace {

// Runs one loader, moving whatever it throws into `errors` so every file gets read.
template <typename Load> bool collect(std::vector<Error>& errors, Load load) {
    try {
        load();
        return true;
    } catch (const ErrorList& list) {
        errors.insert(errors.end(), list.errors().begin(), list.errors().end());
    } catch (const Error& e) {
        errors.push_back(e);
    }
    return false;
}

SourceLocation flag(const std::string& name) {
    return SourceLocation{{}, 0, 0, "--" + name};
}

} // namespace

SimulationSpec loadAstraInputs(const AstraInputs& inputs, std::vector<std::string>* warnings) {
    std::vector<Error> errors;
    if (inputs.workloadPrefix.empty())
        errors.emplace_back(ErrorKind::Input, "required: the Chakra trace prefix",
                            flag("workload-configuration"), "NPU i reads PREFIX.i.et");
    if (inputs.numQueuesPerDim < 1)
        errors.emplace_back(ErrorKind::Validation,
                            "expected 1 or more queues, found " +
                                std::to_string(inputs.numQueuesPerDim),
                            flag("num-queues-per-dim"));
    if (!(inputs.injectionScale > 0) || !std::isfinite(inputs.injectionScale))
        errors.emplace_back(ErrorKind::Validation,
                            "expected a scale greater than 0, found " +
                                units::formatNumber(inputs.injectionScale),
                            flag("injection-scale"));

    SimulationSpec spec;
    spec.name = std::filesystem::path(inputs.workloadPrefix).filename().string();
    spec.workload.kind = WorkloadSource::Kind::ChakraTrace;
    spec.workload.tracePrefix = inputs.workloadPrefix;
    spec.options.backend = inputs.backend;
    spec.options.numQueuesPerDim = inputs.numQueuesPerDim;
    spec.options.injectionScale = inputs.injectionScale;
    spec.options.rendezvousProtocol = inputs.rendezvousProtocol;

    const bool network = collect(
        errors, [&] { spec.platform = loadAstraNetworkYaml(inputs.networkFile, warnings); });
    const bool system = collect(errors, [&] {
        spec.system = loadAstraSystemJson(inputs.systemFile, inputs.injectionScale, warnings);
    });
    if (!inputs.remoteMemoryFile.empty())
        collect(errors, [&] {
            spec.memory = loadAstraRemoteMemoryJson(inputs.remoteMemoryFile, warnings);
        });
    const bool groups =
        collect(errors, [&] { spec.commGroups = loadCommGroupsJson(inputs.commGroupFile); });

    // Cross-file checks only make sense once the files they compare have been read.
    if (network && system && groups && !inputs.workloadPrefix.empty()) {
        std::vector<Error> cross = crossCheckSpec(spec, SpecKeyStyle::AstraFiles);
        for (Error& e : cross) {
            SourceLocation where = e.where();
            if (where.file.empty() && where.keyPath.rfind("--", 0) != 0)
                where.file = inputs.commGroupFile; // rank errors belong to the group file
            errors.emplace_back(e.kind(), e.message(), where, e.hint());
        }
    }
    if (!errors.empty())
        throw ErrorList(std::move(errors));
    return spec;
}

} // namespace astrolabe
