#pragma once
// A serving run's records as bytes, for the project database: RunResult::attachments holds them
// under kServingAttachment, so the store keeps them with the run (one transaction) without
// knowing what they mean. Little-endian doubles and LEB128 varints (store/ByteCodec.h); a
// leading format number lets a later format refuse or convert an older one.
//
// 100,000 requests take about 5.6 MB before the store's zlib.

#include "record/RunResult.h"
#include "serving/ServingResult.h"
#include "spec/SimulationSpec.h"

#include <optional>
#include <string>
#include <string_view>

namespace astrolabe::serving {

/// The attachment name of a serving run's records ("serving").
inline constexpr const char* kServingAttachment = "serving";

/// The summary, every request record, the occupancy samples, the replicas and the link.
/// Warnings and wall time are not kept (the run's report lines and row hold them).
std::string encodeServingResult(const ServingResult& result);
/// Throws astrolabe::Error (Input) on bytes that are not a serving record of a known format
/// (truncated, a count beyond its data, an unknown pool role or format number).
ServingResult decodeServingResult(std::string_view bytes);

/// The RunResult a serving run is stored and listed as (CLI and GUI alike): named
/// "<project> (serving)", its GPUs as NPUs, its duration as the simulated time, its iterations
/// as events, its summary and warnings as "[serving] " report lines, and its records attached.
RunResult servingRunResult(const SimulationSpec& spec, const ServingResult& result);
/// The serving records of a run, or nothing when it is not a serving run (no attachment).
/// Throws as decodeServingResult does.
std::optional<ServingResult> servingRecordsOf(const RunResult& run);

} // namespace astrolabe::serving
