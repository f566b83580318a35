#pragma once
// Field-level helpers shared by the nccl-tests text and CSV readers: whitespace, strict numbers
// and the one way both readers report a bad line. Internal to engine/calibrate.

#include "core/Error.h"
#include "core/Text.h" // trimmed

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe::calibrate {

/// Splits on runs of spaces and tabs.
std::vector<std::string_view> words(std::string_view line);

/// A whole token of decimal digits that fits in uint64_t; false otherwise.
bool parseCount(std::string_view token, uint64_t& out);
/// A whole token that is a finite number >= 0; false otherwise.
bool parseNonNegative(std::string_view token, double& out);

/// "file:line: message" as an Input error.
[[noreturn]] void failAt(const std::string& file, int line, const std::string& message,
                         const std::string& hint = {});

/// Refuses a run over fewer than two GPUs (`ranks` read at `line`): it moves nothing between
/// GPUs, so it says nothing of a network.
void checkTwoRanksOrMore(int ranks, const std::string& file, int line);

} // namespace astrolabe::calibrate
