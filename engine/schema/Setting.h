#pragma once
// The settings schema: every setting of a SimulationSpec declared once, in one table per group
// (settings::systemGroup(), ...). The project reader and writer, the ASTRA-sim system reader and
// exporter, the spec JSON, the comparison rows, the GUI editors and docs/project-format.md's
// settings table are all derived from these tables (SchemaProject.cpp, SchemaAstra.cpp,
// SchemaText.cpp, widgets/config/SettingEditor.cpp). Adding a plain setting is one entry; a
// setting whose meaning needs code (algorithm lists, custom collectives) is a Type::Custom entry
// whose hooks sit next to its declaration. What a setting is lives here (name, type, unit,
// range, default, file keys, help); how the window shows it (which page, the words of its
// choices, when it is enabled) lives in widgets/config/SettingPresentation.cpp, by path.

#include "spec/SimulationSpec.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <limits>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace YAML {
class Node;
}

namespace astrolabe::config {
struct ProjectContext;
class AstraJsonObject;
} // namespace astrolabe::config

namespace astrolabe::settings {

enum class Type : uint8_t { Int, Double, Bool, Enum, String, Quantity, Custom };

/// The unit a Double or Quantity value is held in (the spec struct's own unit). It also picks
/// how the project file spells it and which unit box the GUI offers.
enum class Unit : uint8_t {
    None,
    Nanoseconds,    ///< project: "936.25 ns"; ASTRA-sim JSON: cycles (= ns)
    BytesPerSecond, ///< project: "50 GiB/s"
    DecimalGBps,    ///< 10^9 B/s (= bytes per ns); project: "50 GB/s"; ASTRA-sim JSON: the number
    Bytes,          ///< project: "1 MiB"
    TeraFlops,      ///< project: "900 TFLOP/s"
};

enum class Compat : uint8_t {
    Both,          ///< in the project file and ASTRA-sim's system JSON, same meaning
    AstrolabeOnly, ///< exported to ASTRA-sim's JSON, but ASTRA-sim 2.x ignores it
    CommandLine, ///< an ASTRA-sim command-line flag: not in its JSON, allowed next to astra-system
    AstraOnly,   ///< accepted in ASTRA-sim's JSON only; Astrolabe checks it but does not use it
    ProjectOnly, ///< Astrolabe's own, no ASTRA-sim equivalent
};

/// A value in the setting's own unit: Int -> int64_t, Double/Quantity -> double, Bool -> bool,
/// Enum (the name) and String -> std::string.
using Value = std::variant<int64_t, double, bool, std::string>;

/// Reads a T through `read` (a reader's typed accessor; false when the key is absent or wrong)
/// into `out`. The project and ASTRA-sim readers read every kind of value this way.
template <typename T, typename Read> bool take(Value& out, Read read) {
    T value{};
    if (!read(value))
        return false;
    out = value;
    return true;
}

/// What a reader does when the key is absent.
struct Missing {
    enum class Level : uint8_t { Default, Warning, Error };
    Level level = Level::Default;
    std::string message, projectHint, astraHint;
};

/// One comparison row (export/Comparison.h turns them into SettingValue).
struct CompareRow {
    std::string key, label, text;
    std::optional<double> numeric;
};

struct AstraReadContext {
    config::AstraJsonObject& json;
    double injectionScale;
    const std::string& fileName;
};

/// Code that gives a setting its meaning where the plain declaration cannot.
struct Hooks {
    // Custom settings: each place's code for this setting.
    std::function<void(config::ProjectContext&, const YAML::Node& value, SimulationSpec&)>
        readProject;
    /// Writes "  key: value" lines; `relative` makes a path relative to the project's folder.
    std::function<void(std::ostream&, const SimulationSpec&,
                       const std::function<std::string(const std::string&)>& relative)>
        writeProject;
    std::function<void(AstraReadContext&, SystemConfig&)> readAstra;
    std::function<void(const SystemConfig&, nlohmann::ordered_json&, const std::string& perNode)>
        writeAstra;
    std::function<void(const SimulationSpec&, nlohmann::json& group)> specJson;
    /// The inverse of specJson: reads what it wrote back into the spec.
    std::function<void(const nlohmann::json& group, SimulationSpec&)> fromSpecJson;
    std::function<void(const SimulationSpec&, std::vector<CompareRow>&)> compare;

    // Any setting.
    /// After the whole group is read (ASTRA-sim's injection scale applies to a configured delay).
    std::function<void(config::ProjectContext&, const YAML::Node& group, SimulationSpec&)>
        afterProjectRead;
    std::function<void(AstraReadContext&, SystemConfig&)> afterAstraRead;
    /// What the GUI, the comparison and the spec JSON show when it differs from `get` (the
    /// endpoint delay after the injection scale); `edited` sets that shown value (the GUI's
    /// editor, the spec JSON read back).
    std::function<Value(const SimulationSpec&)> shown;
    std::function<void(SimulationSpec&, const Value&)> edited;
};

/// What a setting is, whatever spec holds it: its path, type, unit, range, label, help and
/// choices. The project's settings (Setting, over SimulationSpec) and the training generator's
/// (generate::GeneratorSetting, over GeneratorSpec) are both this, with get/set over their spec
/// (SpecSetting) and what their own files need; projectText spells the values of both.
struct SettingInfo {
    std::string path; ///< key path, e.g. "system.chunks" or "parallel.tp"; empty for AstraOnly
    Type type = Type::Int;
    Unit unit = Unit::None;
    double minimum = -std::numeric_limits<double>::infinity();
    double maximum = std::numeric_limits<double>::infinity();
    /// A limit far above real use (docs/limits.md), below `maximum`: the readers accept up to
    /// `maximum` and SpecValidation's checkLimits refuses beyond the limit, reporting every
    /// over-limit key of a file together. Editors and the docs table show the limit.
    double limit = std::numeric_limits<double>::infinity();
    bool minimumExclusive = false;
    double upperBound() const { return limit < maximum ? limit : maximum; }
    std::string rangeNoun; ///< "chunks" in "expected 1 or more chunks"; "factor" in "a factor > 0"
    std::string label;     ///< its name in the window and the docs
    std::string help;      ///< tooltip and docs
    /// Enum: one name per enum value, in enum order. Int: the only values allowed, as text
    /// (the generator's bytes per element "1", "2", "4"); empty: any in range.
    std::vector<std::string> choices;
};

/// A setting of a `Spec`: how its value is read from and written to that spec.
template <typename Spec> struct SpecSetting : SettingInfo {
    std::function<Value(const Spec&)> get;
    std::function<void(Spec&, const Value&)> set; ///< throws astrolabe::Error (names)
    Value defaultValue() const { return get(Spec{}); }
};

struct Setting : SpecSetting<SimulationSpec> {
    Compat compat = Compat::Both;
    std::string astraKey; ///< ASTRA-sim system JSON key, or the command-line flag (CommandLine)
    /// Custom settings reading several ASTRA-sim keys list them all (unknown-key check).
    std::vector<std::string> astraKeys;
    std::string astraUnit;  ///< how ASTRA-sim's JSON counts it: "GB/s", "cycles (ns)"
    int astraOrder = 0;     ///< position in the exported JSON (ASTRA-sim's own sample order)
    std::string shortLabel; ///< the comparison table's label
    std::vector<std::string> displayChoices; ///< the comparison's words (default: choices)
    std::vector<std::string> astraChoices;   ///< ASTRA-sim's name for each (default: choices)
    /// The spec holds a whole number (remote memory's ns, bytes/ns): the ASTRA-sim JSON and the
    /// spec JSON get an integer, not a floating-point number.
    bool whole = false;
    std::function<bool(const SimulationSpec&)> writeProjectWhen; ///< empty: always written
    std::function<bool(const SimulationSpec&)> writeAstraWhen;   ///< empty: always exported
    Missing missing;
    std::string specJsonKey; ///< key in the spec JSON's group object; empty: not in it
    std::string specJsonGroup = "system";
    std::string compareKey; ///< comparison row key; empty: not compared
    Hooks hooks;

    /// The project key inside the group ("chunks" for "system.chunks").
    std::string projectKey() const;
    Value shownValue(const SimulationSpec& spec) const {
        return hooks.shown ? hooks.shown(spec) : get(spec);
    }
};

/// A setting's common fields; each group's table adds what is particular to it.
inline Setting declare(std::string path, Type type, std::string label, std::string shortLabel,
                       std::string help) {
    Setting s;
    s.path = std::move(path);
    s.type = type;
    s.label = std::move(label);
    s.shortLabel = std::move(shortLabel);
    s.help = std::move(help);
    return s;
}

struct Group {
    std::string name;  ///< the project section, "system"
    std::string title; ///< for docs
    std::vector<Setting> settings;
    std::string astraFile = "system JSON"; ///< the ASTRA-sim file of Compat::Both keys (docs)
    /// Its settings describe one item of a list (a platform dimension): readers, writers, the
    /// spec JSON and the comparison apply it per item, through a one-item view of the spec.
    bool perItem = false;
};

const Group& systemGroup();
const Group& runGroup();
/// Remote memory (`memory:`; ASTRA-sim's remote-memory JSON), MemorySettings.cpp.
const Group& memoryGroup();
/// One dimension of a stacked platform (`platform.dimensions[i]`; ASTRA-sim's network YAML),
/// PlatformSettings.cpp. Its settings read and write dimensionView()'s one dimension.
const Group& dimensionGroup();
/// A graph platform's own settings (`platform.graph`, PlatformSettings.cpp): they read and
/// write spec.platform.graph (creating an empty graph when there is none).
const Group& graphGroup();
/// The platform's own settings beside its dimensions or graph (`platform.accelerator`),
/// PlatformSettings.cpp.
const Group& platformGroup();
/// LLM inference (`serving:`), ServingSettings.cpp: read only when the project has the section.
const Group& servingGroup();
/// A spec whose platform is `dimension` alone: what dimensionGroup()'s settings get and set.
SimulationSpec dimensionView(const DimensionSpec& dimension);
/// The setting at `path` of `group`; throws std::out_of_range when there is none.
const Setting& find(const Group& group, const std::string& path);
/// Every group whose settings are documented and derived (docs, CLI `settings`).
std::vector<const Group*> allGroups();

/// The value as the project file spells it ("936.25 ns", "LIFO", "true", "4").
std::string projectText(const SettingInfo& setting, const Value& value);
/// The value for the comparison table and docs ("936.25 ns", "on").
std::string displayText(const Setting& setting, const Value& value);
/// The unit's words after a number: " ns", " GB/s", " TFLOP/s"; empty for None.
const char* unitSuffix(Unit unit);
/// A number in `unit` as the comparison shows it ("50 GiB/s", "1 MiB", "936.25 ns").
std::string displayQuantity(Unit unit, double value);
/// The value in the comparison's base unit (ns, B/s, B, count), or nothing for names and text.
std::optional<double> numericValue(const Setting& setting, const Value& value);
/// Why `value` is out of the setting's range, or empty.
std::string rangeError(const Setting& setting, const Value& value, bool astraUnits);

/// The value as ASTRA-sim's JSON holds it: astraChoices' name, an integer for Int and `whole`
/// settings, else the value itself.
nlohmann::ordered_json astraValue(const Setting& setting, const Value& value);

/// The comparison rows of a group, in table order.
std::vector<CompareRow> compareRows(const Group& group, const SimulationSpec& spec);
/// Adds the group's settings to the spec JSON (`root[setting.specJsonGroup][key]`).
void addSpecJson(const Group& group, const SimulationSpec& spec, nlohmann::json& root);
/// The inverse of addSpecJson: the group's settings found in `root` set in `spec`. A key that is
/// missing, of another JSON type or refused by the setting (a configuration written by another
/// version) leaves the spec's value as it was.
void readSpecJson(const Group& group, const nlohmann::json& root, SimulationSpec& spec);
/// A group's settings table in Markdown (docs/project-format.md).
std::string markdownTable(const Group& group);
/// `doc` with its "<!-- settings-table: NAME -->" ... "<!-- end settings-table -->" region, if
/// it has one, holding `table`.
std::string replaceDocTable(const std::string& doc, const std::string& name,
                            const std::string& table);
/// `doc` with each "<!-- settings-table: GROUP -->" ... "<!-- end settings-table -->" region
/// replaced by markdownTable(GROUP). Regenerate the docs: astrolabe-cli settings --update-doc
/// docs/project-format.md.
std::string updateDocTables(const std::string& doc);

// Declaration helpers: get/set over a member of a SimulationSpec part.
template <typename Struct, typename T>
void bindField(Setting& s, Struct SimulationSpec::*part, T Struct::*member) {
    s.get = [part, member](const SimulationSpec& spec) -> Value {
        if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double> ||
                      std::is_same_v<T, std::string>)
            return spec.*part.*member;
        else
            return static_cast<int64_t>(spec.*part.*member);
    };
    s.set = [part, member](SimulationSpec& spec, const Value& v) {
        if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double> ||
                      std::is_same_v<T, std::string>)
            spec.*part.*member = std::get<T>(v);
        else
            spec.*part.*member = static_cast<T>(std::get<int64_t>(v));
    };
}

template <typename Struct, typename Enum>
void bindEnum(Setting& s, Struct SimulationSpec::*part, Enum Struct::*member,
              const char* (*nameOf)(Enum), Enum (*parse)(const std::string&), int count) {
    s.type = Type::Enum;
    s.choices.clear();
    for (int i = 0; i < count; ++i)
        s.choices.push_back(nameOf(static_cast<Enum>(i)));
    s.get = [part, member, nameOf](const SimulationSpec& spec) -> Value {
        return std::string(nameOf(spec.*part.*member));
    };
    s.set = [part, member, parse](SimulationSpec& spec, const Value& v) {
        spec.*part.*member = parse(std::get<std::string>(v));
    };
}

} // namespace astrolabe::settings
