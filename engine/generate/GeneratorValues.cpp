#include "generate/GeneratorValues.h"

#include "core/Error.h"
#include "core/Units.h"
#include "generate/GeneratorSettings.h"
#include "generate/ModelPresets.h"
#include "generate/ParallelismFit.h"
#include "hardware/Accelerator.h"
#include "hardware/KernelCurves.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace astrolabe::generate {
namespace {

[[noreturn]] void fail(const std::string& name, const std::string& expected,
                       const std::string& text) {
    throw Error(ErrorKind::Validation, "expected " + expected + ", found \"" + text + "\"",
                SourceLocation{{}, 0, 0, name});
}

int64_t integer(const std::string& name, const std::string& text) {
    try {
        size_t used = 0;
        const long long value = std::stoll(text, &used);
        if (used == text.size())
            return value;
    } catch (const std::exception&) {
    }
    fail(name, "an integer", text);
}

// --npus: the fit refuses counts past the NPU limit with the limit named; past int it is refused
// here rather than truncated (4294967304 would read as 8).
int npuCount(const std::string& text) {
    const int64_t value = integer("npus", text);
    if (value < 1 || value > std::numeric_limits<int>::max())
        fail("npus", "a positive whole number", text);
    return static_cast<int>(value);
}

settings::Value parse(const GeneratorSetting& s, const std::string& text) {
    using settings::Type;
    switch (s.type) {
    case Type::Int: {
        // The table's range, the same as the builder's spin boxes, checked in 64 bits: a count
        // past int must not be truncated (--layers=4294967297 would read as 1 layer).
        const int64_t value = integer(s.flag, text);
        if (!s.choices.empty() &&
            std::find(s.choices.begin(), s.choices.end(), std::to_string(value)) == s.choices.end())
            fail(s.flag, "one of " + joinAlternatives(s.choices), text);
        if (s.maximum > s.minimum && (value < s.minimum || value > s.maximum))
            fail(s.flag,
                 "a whole number from " + std::to_string(int64_t(s.minimum)) + " to " +
                     std::to_string(int64_t(s.maximum)),
                 text);
        return value;
    }
    case Type::Double: {
        double value = 0;
        try {
            size_t used = 0;
            value = std::stod(text, &used);
            if (used != text.size())
                fail(s.flag, "a number", text);
        } catch (const std::logic_error&) { // std::stod's invalid_argument and out_of_range
            fail(s.flag, "a number", text);
        }
        // The table's range, as for whole numbers; inf is out of it, and nan, which compares
        // false to both ends, is named here too.
        if (!std::isfinite(value) ||
            (s.maximum > s.minimum && (value < s.minimum || value > s.maximum)))
            fail(s.flag,
                 s.maximum > s.minimum ? "a number from " + units::formatPlain(s.minimum) + " to " +
                                             units::formatPlain(s.maximum)
                                       : std::string("a finite number"),
                 text);
        return value;
    }
    case Type::Bool:
        if (text == "true" || text == "1" || text == "yes")
            return true;
        if (text == "false" || text == "0" || text == "no")
            return false;
        fail(s.flag, "true or false", text);
    case Type::Enum:
    case Type::String:
    case Type::Custom:
        return text;
    case Type::Quantity:
        try {
            return static_cast<int64_t>(units::parseSizeBytes(text));
        } catch (const Error& e) {
            throw Error(ErrorKind::Validation, e.message(), SourceLocation{{}, 0, 0, s.flag});
        }
    }
    return text;
}

} // namespace

ComputeSpec acceleratorCompute(const hardware::Accelerator& gpu, ComputeSpec base,
                               const std::string& precision) {
    base.peakTflops = hardware::peakTflops(gpu, precision);
    base.hbmGBps = gpu.hbmGBps;
    base.hbmCapacityGiB = gpu.hbmGiB;
    // The operation model's measured rates (resources/compute); none: its nodes use the roofline.
    // A training step computes for seconds on end, so each short-benchmark rate is taken at the
    // share the GPU keeps under its power limit (sustained_fraction).
    const hardware::GemmRate* rate = hardware::findGemmRate(gpu.name, precision);
    base.gemmTflops = rate ? rate->gemmTflops * rate->sustainedFraction : 0;
    base.attentionPeakTflops = gpu.bf16Tflops;
    base.fp8Gemms = precision == "fp8";
    const hardware::GemmRate* bf16 = hardware::findGemmRate(gpu.name, "bf16");
    base.bf16GemmTflops = base.fp8Gemms && bf16 ? bf16->gemmTflops * bf16->sustainedFraction : 0;
    if (rate)
        base.flashFraction = rate->flashFraction * rate->sustainedFraction;
    return base;
}

std::vector<std::string> generatorValueNames() {
    std::vector<std::string> names{"preset", "gpu", "precision"};
    for (const GeneratorSetting& s : generatorSettings())
        if (!s.flag.empty())
            names.push_back(s.flag);
    names.push_back("npus");
    return names;
}

GeneratorSpec generatorSpecFrom(const std::string& preset,
                                const std::map<std::string, std::string>& values) {
    const std::vector<std::string> names = generatorValueNames();
    for (const auto& [name, text] : values)
        if (std::find(names.begin(), names.end(), name) == names.end())
            throw Error(
                ErrorKind::Validation, "not a generator setting", SourceLocation{{}, 0, 0, name},
                "the names are generate-llm's flags (docs/generator.md)" +
                    std::string(closestMatch(name, names).empty()
                                    ? ""
                                    : "; did you mean \"" + closestMatch(name, names) + "\"?"));
    auto given = [&](const std::string& name) { return values.count(name) > 0; };
    GeneratorSpec s = presetSpec(preset);
    // The accelerator first, so that --peak-tflops and the other compute flags override it.
    if (given("gpu"))
        s.compute = acceleratorCompute(hardware::findAccelerator(values.at("gpu")), s.compute,
                                       given("precision") ? values.at("precision") : "bf16");
    else if (given("precision"))
        fail("precision", "a gpu to take the precision's peak from", values.at("precision"));
    auto apply = [&](bool last) {
        for (const GeneratorSetting& setting : generatorSettings())
            if (!setting.flag.empty() && setting.applyLast == last && given(setting.flag) &&
                setting.flag != "global-batch")
                setting.set(s, parse(setting, values.at(setting.flag)));
    };
    apply(false);
    // What the table cannot say: interleaving needs 2+ chunks per stage unless told otherwise;
    // the global batch is as given, or micro-batches x micro-batch x dp (applied last), or
    // the preset's rounded to whole micro-batch x dp.
    ParallelSpec& p = s.parallel;
    if (p.schedule == PipelineSchedule::Interleaved && !given("virtual-stages") &&
        p.virtualStages == 1)
        p.virtualStages = 2;
    TrainingSpec& t = s.training;
    if (given("global-batch"))
        t.globalBatch = static_cast<int>(std::get<int64_t>(
            parse(findGeneratorSetting("global-batch"), values.at("global-batch"))));
    apply(true);
    // A preset whose shape a flag changed is no longer that model: "custom (from GPT-3 175B)",
    // as the GUI's model builder names it.
    s.model.name = builtModelName(s.model, presetSpec(preset).model);
    if (!given("micro-batches") && !given("global-batch") && t.microBatch * p.dp > 0 &&
        t.globalBatch % (t.microBatch * p.dp) != 0)
        t.globalBatch = std::max(1, t.globalBatch / (t.microBatch * p.dp)) * t.microBatch * p.dp;
    if (given("npus")) {
        // The same fit as the GUI's model builder; a given global batch must stay as given.
        const ParallelFit fit = fitParallelism(
            s, npuCount(values.at("npus")),
            given("global-batch") ? BatchRule::GlobalBatchFixed : BatchRule::MicroBatchesFixed);
        if (!fit.fits)
            throw Error(ErrorKind::Validation, fit.reason, SourceLocation{{}, 0, 0, "npus"});
        s = fit.spec;
    }
    return s;
}

GeneratorSpec generatorSpecForPlatform(std::map<std::string, std::string> values,
                                       const std::string& defaultPreset, int npus,
                                       const std::string& hint) {
    std::string preset = defaultPreset;
    if (const auto it = values.find("preset"); it != values.end()) {
        preset = it->second;
        values.erase(it);
    }
    GeneratorSpec spec = generatorSpecFrom(preset, values);
    validate(spec);
    if (spec.parallel.npus() != npus)
        throw Error(ErrorKind::Validation,
                    "the generated workload has " + std::to_string(spec.parallel.npus()) +
                        " NPUs (" + splitLabel(spec.parallel) + ") and the platform " +
                        std::to_string(npus),
                    {}, hint);
    return spec;
}

} // namespace astrolabe::generate
