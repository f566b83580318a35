#pragma once
// The Astrolabe project YAML: one file describing a whole experiment (platform, system, memory,
// workload, communicator groups, run options) with explicit units. Schema: docs/project-format.md.

#include "spec/SimulationSpec.h"

#include <string>
#include <vector>

namespace astrolabe {

/// Reads and validates a project. Relative paths in it resolve against the project file's
/// folder and come back absolute and normalised. Throws ErrorList with every problem found
/// (file:line:col: key.path: ...), including those of referenced ASTRA-sim files. Warnings
/// (a key that does nothing for the values chosen, and those of referenced ASTRA-sim files) are
/// appended to `warnings` when not null.
SimulationSpec loadProject(const std::string& path, std::vector<std::string>* warnings = nullptr);
/// Same from text; `fileName` names the file in messages and anchors relative paths.
SimulationSpec parseProject(const std::string& text, const std::string& fileName,
                            std::vector<std::string>* warnings = nullptr);
/// loadProject for an editor: everything is checked except whether the trace files exist for
/// every NPU, which the editor flags on its trace field and a run checks again (a project
/// whose traces are not generated yet, or made for another NPU count, opens to be fixed).
SimulationSpec loadProjectForEditing(const std::string& path,
                                     std::vector<std::string>* warnings = nullptr);

/// The spec as project YAML, fully explicit (no ASTRA-sim file references: the platform, system
/// and memory are written inline), paths relative to `projectPath`'s folder. loadProject of the
/// result gives back the same spec in every field except the sourceFile provenance fields and
/// the memory values its type does not read (which are not written).
std::string projectYamlText(const SimulationSpec& spec, const std::string& projectPath);
/// Writes projectYamlText to `path`, with the comments of the project file the spec was read
/// from (spec.sourceFile), or else of the one at `path`, carried over by key path
/// (ProjectComments.h). Throws Error (Input) when the file cannot be written.
void saveProject(const SimulationSpec& spec, const std::string& path);

} // namespace astrolabe
