#pragma once
// One place that turns unit strings into numbers and back.
//
//   sizes:      "4096 B", "1 KB" (10^3), "1 MiB" (2^20), "1.5 GB" (10^9), "2 GiB" (2^30), ... TB,
//   TiB bandwidths: "400 GB/s" (10^9 B/s), "50 GiB/s" (2^30 B/s), "100 Gbps" (10^9 bit/s), B/s ...
//   TB/s times:      "936.25 ns", "2 us" (also "µs"), "1.5 ms", "3 s", "500 ps"
//
// A bare number or an unknown unit is rejected; the message lists the accepted forms.
// Parsing functions throw astrolabe::Error (kind Validation) with the offending text.

#include "core/SimTime.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace astrolabe::units {

uint64_t parseSizeBytes(std::string_view text);
/// Bytes per second.
double parseBandwidthBytesPerSecond(std::string_view text);
SimTime parseTime(std::string_view text);

/// Binary units for sizes ("1 MiB", "1.5 GiB"), exact bytes below 1 KiB.
std::string formatSize(uint64_t bytes);
/// Decimal bandwidth ("400 GB/s"); GB = 10^9 B.
std::string formatBandwidth(double bytesPerSecond);
/// How microseconds are written: "us" on a terminal, in logs and files (ASCII, as ASTRA-sim
/// writes them); "µs" where the text is shown in the GUI.
enum class TimeSpelling : uint8_t { Ascii, MicroSign };
/// Picks ns, us, ms or s so the number stays readable ("936.25 ns", "1.5 ms").
std::string formatTime(SimTime time, TimeSpelling spelling = TimeSpelling::Ascii);

/// Accepted spellings, for help texts and error messages.
const char* acceptedSizeForms();
const char* acceptedBandwidthForms();
const char* acceptedTimeForms();

/// Shortest decimal form of a double that reads back exactly ("50", "936.25", "0.1").
std::string formatNumber(double value);

} // namespace astrolabe::units
