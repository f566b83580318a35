#pragma once
// The training-iteration generator's settings (GeneratorSpec), each declared once: its key path
// in the spec, its `generate-llm` / `model-info` flag, type, unit, range, label and help. The
// model builder panel's fields, the CLI's flags and docs/generator.md's table are derived from
// this table; the semantics that need code (presets, fitting the parallelism to a platform, the
// global batch following micro-batches x micro-batch x dp) stay in their code.
//
// The generator is not part of a project file, so this table lives here rather than in
// schema/ (schema must not include generate); it follows the same shape.

#include "generate/GeneratorSpec.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace astrolabe::generate {

/// Int: a count. Double: a number in `unit`. Bool. Choice: one of `choices`, whose texts are
/// integers (ZeRO stage, bytes per element). Name: one of `choices` as text (schedule,
/// placement). Size: bytes (the GUI edits whole MiB; the CLI takes "25 MiB").
enum class GenType : uint8_t { Int, Double, Bool, Choice, Name, Size };

/// Int, Choice and Size hold int64_t; Double holds double; Bool bool; Name std::string.
using GenValue = std::variant<int64_t, double, bool, std::string>;

struct GeneratorSetting {
    std::string key;   ///< path in the spec, as validate() names it: "parallel.tp"
    std::string flag;  ///< the CLI flag without "--": "tp"; empty: no flag
    std::string group; ///< the model builder's box: "Model", "Training", "Parallelism", "Compute"
    GenType type = GenType::Int;
    std::string unit; ///< Double: " TFLOP/s"; shown after the number
    double minimum = 0;
    double maximum = std::numeric_limits<int>::max();
    int decimals = 0;                 ///< Double
    double step = 0;                  ///< Double: the spin box step; 0 = 1 unit
    std::string label;                ///< the model builder's label (also its undo step's name)
    std::string help;                 ///< the CLI's help and the docs' meaning
    std::string tip;                  ///< the model builder's tooltip; empty: none
    std::string metavar = "N";        ///< the CLI's placeholder; empty for a switch
    std::vector<std::string> choices; ///< Choice / Name values, in the GUI's order
    std::vector<std::string> choiceLabels; ///< the GUI's words for them (default: choices)
    bool transformerOnly = false;          ///< disabled in the GUI for DLRM / ResNet
    bool inBuilder = true;                 ///< has a model builder field
    /// Its CLI meaning needs code (specFromArgs): not read by the generic flag loop.
    bool customFlag = false;
    /// Applied after the other fields (it depends on them: micro-batches per pipeline).
    bool applyLast = false;
    std::function<GenValue(const GeneratorSpec&)> get;
    std::function<void(GeneratorSpec&, const GenValue&)> set;
};

/// Declaration helper: get/set over a member of one part of the spec (model, training...).
template <typename Part, typename T>
void bindGeneratorField(GeneratorSetting& s, Part GeneratorSpec::*part, T Part::*member) {
    constexpr bool plain =
        std::is_same_v<T, bool> || std::is_same_v<T, double> || std::is_same_v<T, std::string>;
    s.get = [part, member](const GeneratorSpec& spec) -> GenValue {
        if constexpr (plain)
            return spec.*part.*member;
        else
            return static_cast<int64_t>(spec.*part.*member);
    };
    s.set = [part, member](GeneratorSpec& spec, const GenValue& v) {
        if constexpr (plain)
            spec.*part.*member = std::get<T>(v);
        else
            spec.*part.*member = static_cast<T>(std::get<int64_t>(v));
    };
}

/// Every generator setting, in the model builder's (and the CLI help's) order.
const std::vector<GeneratorSetting>& generatorSettings();
/// The parallelism part of the table (GeneratorParallelSettings.cpp).
std::vector<GeneratorSetting> parallelGeneratorSettings();
/// The operation compute model's settings (GeneratorComputeSettings.cpp).
std::vector<GeneratorSetting> operationModelSettings();
/// The setting with flag `flag`; throws std::out_of_range when there is none.
const GeneratorSetting& findGeneratorSetting(const std::string& flag);

/// The value as the CLI and the docs spell it ("4", "0.6", "true", "1f1b", "25 MiB").
std::string generatorValueText(const GeneratorSetting& setting, const GenValue& value);
/// The settings table in Markdown (docs/generator.md); defaults are the gpt3-175b preset's.
std::string generatorMarkdownTable();
/// `doc` with its "<!-- settings-table: generator -->" ... "<!-- end settings-table -->" region
/// replaced by generatorMarkdownTable().
std::string updateGeneratorDocTable(const std::string& doc);

} // namespace astrolabe::generate
