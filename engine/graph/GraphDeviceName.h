#pragma once
// The device names of a graph platform: "npuK" and "swK" (docs/graph-platforms.md), read by the
// project reader and the edge-list CSV reader alike.

#include <string>
#include <utility>

namespace astrolabe {

/// "npu3" -> {false, 3}, "sw2" -> {true, 2}; index -1 when malformed (no prefix, no digits,
/// anything after them, more than 9 digits).
inline std::pair<bool, int> parseGraphDeviceName(const std::string& name) {
    const bool sw = name.rfind("sw", 0) == 0;
    const bool npu = name.rfind("npu", 0) == 0;
    const std::string digits = name.substr(npu ? 3 : sw ? 2 : 0);
    if ((!npu && !sw) || digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
        return {sw, -1};
    return {sw, std::stoi(digits)};
}

} // namespace astrolabe
