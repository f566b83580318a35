// The parallelism part of the generator's settings table (GeneratorSettings.h).
#include "generate/GeneratorSettings.h"

// metavar = std::string("X"), not = "X": GCC 12 flags the latter with a false -Wrestrict.

namespace astrolabe::generate {
namespace {

using settings::Type;
using settings::Value;

GeneratorSetting degree(const std::string& flag, const std::string& label, const std::string& help,
                        double maximum) {
    GeneratorSetting s = generatorSetting("parallel." + flag, flag, label, help);
    s.minimum = 1;
    s.maximum = maximum;
    return s;
}

} // namespace

std::vector<GeneratorSetting> parallelGeneratorSettings() {
    using P = ParallelSpec;
    const auto parallel = &GeneratorSpec::parallel;
    std::vector<GeneratorSetting> out;
    const auto add = [&](GeneratorSetting s, auto member) {
        bindGeneratorField(s, parallel, member);
        out.push_back(std::move(s));
    };
    add(degree("tp", "Tensor (TP)", "tensor parallelism", 1 << 16), &P::tp);
    add(degree("pp", "Pipeline (PP)", "pipeline stages", 1 << 16), &P::pp);
    add(degree("dp", "Data (DP)", "data parallelism", 1 << 20), &P::dp);
    add(degree("cp", "Context (CP)",
               "context parallelism: each sequence split over cp ranks (ring attention)", 1 << 16),
        &P::cp);
    add(degree("ep", "Expert (EP, within DP)", "expert parallelism (carved out of dp)", 1 << 16),
        &P::ep);

    GeneratorSetting s = degree("schedule", "Schedule", "gpipe, 1f1b or interleaved", 0);
    s.type = Type::Enum;
    s.metavar = std::string("NAME");
    s.minimum = s.maximum = 0;
    s.choices = {"gpipe", "1f1b", "interleaved"};
    s.get = [](const GeneratorSpec& spec) -> Value {
        return std::string(pipelineScheduleName(spec.parallel.schedule));
    };
    s.set = [](GeneratorSpec& spec, const Value& v) {
        spec.parallel.schedule = parsePipelineSchedule(std::get<std::string>(v));
    };
    out.push_back(s);

    s = degree("virtual-stages", "Virtual stages", "model chunks per stage (interleaved)", 1 << 10);
    s.path = "parallel.virtualStages";
    s.metavar = std::string("V");
    add(s, &P::virtualStages);

    s = degree("zero", "ZeRO stage", "ZeRO stage (3 = FSDP)", 3);
    s.path = "parallel.zeroStage";
    s.metavar = std::string("0-3");
    s.minimum = 0;
    s.choices = {"0", "1", "2", "3"};
    add(s, &P::zeroStage);

    s = degree("sp", "Sequence parallel", "sequence parallelism (--sp=false turns it off)", 1);
    s.path = "parallel.sequenceParallel";
    s.type = Type::Bool;
    s.metavar.clear();
    s.minimum = 0;
    add(s, &P::sequenceParallel);

    s = degree("recompute", "Activation recompute",
               "full activation recomputation (--recompute=false: off)", 1);
    s.type = Type::Bool;
    s.metavar.clear();
    s.minimum = 0;
    add(s, &P::recompute);

    s = degree("selective-recompute", "Selective recompute",
               "recompute only the attention core (Megatron's --recompute-granularity selective)",
               1);
    s.path = "parallel.selectiveRecompute";
    s.type = Type::Bool;
    s.metavar.clear();
    s.minimum = 0;
    add(s, &P::selectiveRecompute);

    // In bytes; the GUI edits whole MiB.
    s = degree("bucket", "Gradient bucket (MiB)", "gradient bucket, e.g. \"25 MiB\"", 0);
    s.path = "parallel.bucketBytes";
    s.type = Type::Quantity;
    s.unit = settings::Unit::Bytes;
    s.minimum = double(1 << 20);
    s.maximum = double(int64_t{1} << 40);
    s.metavar = std::string("SIZE");
    add(s, &P::bucketBytes);

    s = degree("placement", "Placement", "innermost first, a permutation of tp,dp,pp", 0);
    s.type = Type::Enum;
    s.metavar = std::string("ORDER");
    s.minimum = s.maximum = 0;
    s.choices = {"tp,dp,pp", "tp,pp,dp", "dp,tp,pp", "dp,pp,tp", "pp,tp,dp", "pp,dp,tp"};
    add(s, &P::placement);
    return out;
}

} // namespace astrolabe::generate
