#pragma once
// Whether a project's custom collective (system.custom-algorithms: a Chakra ET prefix or an
// MSCCL-IR XML file) is a TACOS schedule exported for its graph (astrolabe-cli synthesize --et /
// --xml, docs/tacos.md): the files are read and compared node by node (type, peers, size,
// channel, dependencies) with the traces of the schedule synthesized on the graph for the same
// collective, size and chunks per NPU (the chunk count follows from the files' message size).
// Synthesis is deterministic, so an unedited export is recognized and any edit is not.

#include "spec/GraphSpec.h"
#include "tacos/Synthesizer.h"

#include <optional>
#include <string>

namespace astrolabe {

struct ScheduleRecognition {
    bool recognized = false;
    Schedule schedule;  ///< the synthesized schedule the files were compared with
    std::string reason; ///< why not, when not recognized: the first difference, or the error
};

/// Reads `source` (resolved path: an .xml file, else an ET prefix of PREFIX.<npu>.et files)
/// and compares it with the synthesized schedule for `options` (its chunksPerNpu is replaced
/// by the files'). Never throws: a file that cannot be read is a reason.
ScheduleRecognition recognizeExportedSchedule(const GraphSpec& graph, SynthesisOptions options,
                                              const std::string& source);

} // namespace astrolabe
