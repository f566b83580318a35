// The parallelism part of the generator's settings table (GeneratorSettings.h).
#include "generate/GeneratorSettings.h"

// metavar = std::string("X"), not = "X": GCC 12 flags the latter with a false -Wrestrict.

namespace astrolabe::generate {
namespace {

GeneratorSetting degree(const std::string& key, const std::string& label, const std::string& help,
                        double maximum) {
    GeneratorSetting s;
    s.key = "parallel." + key;
    s.flag = key;
    s.group = "Parallelism";
    s.label = label;
    s.help = help;
    s.minimum = 1;
    s.maximum = maximum;
    return s;
}

} // namespace

std::vector<GeneratorSetting> parallelGeneratorSettings() {
    using P = ParallelSpec;
    const auto parallel = &GeneratorSpec::parallel;
    std::vector<GeneratorSetting> out;
    const auto add = [&](GeneratorSetting s, auto member, bool transformerOnly) {
        bindGeneratorField(s, parallel, member);
        s.transformerOnly = transformerOnly;
        out.push_back(std::move(s));
    };
    add(degree("tp", "Tensor (TP)", "tensor parallelism", 1 << 16), &P::tp, true);
    add(degree("pp", "Pipeline (PP)", "pipeline stages", 1 << 16), &P::pp, true);
    add(degree("dp", "Data (DP)", "data parallelism", 1 << 20), &P::dp, false);
    add(degree("ep", "Expert (EP, within DP)", "expert parallelism (carved out of dp)", 1 << 16),
        &P::ep, true);

    GeneratorSetting s = degree("schedule", "Schedule", "gpipe, 1f1b or interleaved", 0);
    s.type = GenType::Name;
    s.metavar = std::string("NAME");
    s.minimum = s.maximum = 0;
    s.choices = {"gpipe", "1f1b", "interleaved"};
    s.get = [](const GeneratorSpec& spec) -> GenValue {
        return std::string(pipelineScheduleName(spec.parallel.schedule));
    };
    s.set = [](GeneratorSpec& spec, const GenValue& v) {
        spec.parallel.schedule = parsePipelineSchedule(std::get<std::string>(v));
    };
    s.transformerOnly = true;
    out.push_back(s);

    s = degree("virtual-stages", "Virtual stages", "model chunks per stage (interleaved)", 1 << 10);
    s.key = "parallel.virtualStages";
    s.metavar = std::string("V");
    add(s, &P::virtualStages, true);

    s = degree("zero", "ZeRO stage", "ZeRO stage (3 = FSDP)", 3);
    s.key = "parallel.zeroStage";
    s.type = GenType::Choice;
    s.metavar = std::string("0-3");
    s.minimum = 0;
    s.choices = {"0", "1", "2", "3"};
    s.choiceLabels = {"0 (all-reduce)", "1 (optimizer)", "2 (+ gradients)", "3 (+ weights, FSDP)"};
    add(s, &P::zeroStage, true);

    s = degree("sp", "Sequence parallel", "sequence parallelism (--sp=false turns it off)", 1);
    s.key = "parallel.sequenceParallel";
    s.type = GenType::Bool;
    s.metavar.clear();
    s.minimum = 0;
    add(s, &P::sequenceParallel, true);

    s = degree("recompute", "Activation recompute",
               "full activation recomputation (--recompute=false: off)", 1);
    s.type = GenType::Bool;
    s.metavar.clear();
    s.minimum = 0;
    add(s, &P::recompute, true);

    // The GUI edits whole MiB; 1 MiB .. 1 TiB.
    s = degree("bucket", "Gradient bucket (MiB)", "gradient bucket, e.g. \"25 MiB\"", 1 << 20);
    s.key = "parallel.bucketBytes";
    s.type = GenType::Size;
    s.metavar = std::string("SIZE");
    add(s, &P::bucketBytes, false);

    s = degree("placement", "Placement", "innermost first, a permutation of tp,dp,pp", 0);
    s.type = GenType::Name;
    s.metavar = std::string("ORDER");
    s.minimum = s.maximum = 0;
    s.tip = "innermost (consecutive ranks) first";
    s.choices = {"tp,dp,pp", "tp,pp,dp", "dp,tp,pp", "dp,pp,tp", "pp,tp,dp", "pp,dp,tp"};
    add(s, &P::placement, false);
    return out;
}

} // namespace astrolabe::generate
