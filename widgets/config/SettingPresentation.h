#pragma once
// How the window shows the settings of the schema (engine/schema/Setting.h), by setting path:
// the page that holds a setting's editor, the words its choices read as, when the editor is
// enabled, the objections the editor raises before a value reaches the spec, and the text
// fields of settings whose value is a list (the per-dimension algorithms). The engine's table
// says what a setting is; this one says how it looks. A setting with no entry here has no editor
// of its own (the Topology tab, the graph page or the model builder edit it), and its choices
// read as their names.
#include "schema/Setting.h"

#include <functional>
#include <string>
#include <vector>

namespace astrolabe::widgets {

/// The Configuration page (or part of it) that holds a setting's editor.
enum class SettingPage : uint8_t { None, Collectives, System, Run, RunOptions, Memory, TestOnly };

/// A free-text editor of a Custom setting (an algorithm list): the window shows `get`'s text and
/// calls `set`, which throws astrolabe::Error for bad text.
struct SettingTextField {
    std::string label, key, astraKey;
    std::function<std::string(const SimulationSpec&)> get;
    std::function<void(SimulationSpec&, const std::string&)> set;
};

struct SettingPresentation {
    SettingPage page = SettingPage::None;
    std::vector<std::string> choiceLabels; ///< Enum: the window's words (default: the names)
    /// The editor is enabled only when this holds (empty: always).
    std::function<bool(const SimulationSpec&)> enabledWhen;
    /// An objection to a value, in the setting's unit (empty string: none), beyond its range.
    std::function<std::string(const settings::Value&)> check;
    std::vector<SettingTextField> textFields;
};

/// The presentation of the setting at `path`; an empty one when the window has none for it.
const SettingPresentation& presentationOf(const std::string& path);
/// The words the window shows for choice `index` of an Enum setting.
std::string choiceLabel(const settings::Setting& setting, size_t index);
/// Adds or replaces the presentation of `path` (tests declaring settings of their own).
void setPresentation(const std::string& path, SettingPresentation presentation);

} // namespace astrolabe::widgets
