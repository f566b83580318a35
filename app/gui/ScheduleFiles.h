#pragma once
// A TACOS schedule synthesized in the window as files and as the project's algorithm: "Save…"
// and "Use and Run" of the Timeline tab's schedule panel (widgets/tacos/SchedulePanel.h).

#include "spec/SimulationSpec.h"
#include "tacos/Synthesizer.h"

#include <string>

namespace astrolabe::gui {

/// Writes `schedule` to `path`: MSCCL-IR XML when the path ends in ".xml", else Chakra ET files
/// `<path>.<npu>.et`. Returns what custom-algorithms names for it (the XML file, or the ET
/// prefix). Throws astrolabe::Error when a file cannot be written or the XML cannot say the
/// schedule (an all-gather of several chunks per NPU: write ET instead).
std::string writeScheduleFiles(const Schedule& schedule, const std::string& path);

/// Writes `schedule` beside `projectFile` as "tacos-<collective>.xml" (ET files
/// "tacos-<collective>.<npu>.et" when XML cannot say it) and returns the custom source.
/// Throws astrolabe::Error as writeScheduleFiles does.
std::string writeScheduleBesideProject(const Schedule& schedule, const std::string& projectFile);

} // namespace astrolabe::gui
