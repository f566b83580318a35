#pragma once
// The training-iteration generator's settings (GeneratorSpec), each declared once in the settings
// schema's terms (schema/Setting.h: path, type, unit, range, label, help, choices, get/set), plus
// its `generate-llm` / `model-info` flag. The CLI's flags, the sweep's and lessons' generate
// values, docs/generator.md's table and the model builder's fields are derived from this table;
// how the builder shows a field (its box, tooltip, the words of its choices) lives in
// widgets/generator/GeneratorPresentation.cpp, by path. The semantics that need code (presets,
// fitting the parallelism to a platform, the global batch following micro-batches x micro-batch
// x dp) stay in their code.
//
// Types as the generator uses them: Int (a count; with `choices`, one of those integers: bytes
// per element, ZeRO stage), Double (a number in `unit`), Bool, Enum (a name: schedule, placement),
// Quantity in Bytes (a size: the CLI takes "25 MiB", the builder whole MiB).

#include "generate/GeneratorSpec.h"
#include "schema/Setting.h"

#include <string>
#include <type_traits>
#include <vector>

namespace astrolabe::generate {

struct GeneratorSetting : settings::SpecSetting<GeneratorSpec> {
    std::string flag;          ///< the CLI flag without "--": "tp"; empty: no flag
    std::string metavar = "N"; ///< the CLI's placeholder; empty for a switch
    /// Its CLI meaning needs code (specFromArgs): not read by the generic flag loop.
    bool customFlag = false;
    /// Applied after the other fields (it depends on them: micro-batches per pipeline).
    bool applyLast = false;
};

/// A setting's common fields (an Int, until the declaration says otherwise).
GeneratorSetting generatorSetting(const std::string& path, const std::string& flag,
                                  const std::string& label, const std::string& help);

/// Declaration helper: get/set over a member of one part of the spec (model, training...).
template <typename Part, typename T>
void bindGeneratorField(GeneratorSetting& s, Part GeneratorSpec::*part, T Part::*member) {
    constexpr bool plain =
        std::is_same_v<T, bool> || std::is_same_v<T, double> || std::is_same_v<T, std::string>;
    s.get = [part, member](const GeneratorSpec& spec) -> settings::Value {
        if constexpr (plain)
            return spec.*part.*member;
        else
            return static_cast<int64_t>(spec.*part.*member);
    };
    s.set = [part, member](GeneratorSpec& spec, const settings::Value& v) {
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
std::string generatorValueText(const GeneratorSetting& setting, const settings::Value& value);
/// The settings table in Markdown (docs/generator.md); defaults are the gpt3-175b preset's.
std::string generatorMarkdownTable();
/// `doc` with its "<!-- settings-table: generator -->" region replaced by
/// generatorMarkdownTable() (settings::replaceDocTable).
std::string updateGeneratorDocTable(const std::string& doc);

} // namespace astrolabe::generate
