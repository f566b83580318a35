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

/// Every link and memory bandwidth is held to [1 KB/s, 10^18 B/s] (docs/limits.md): far outside
/// any real link, and inside it the time to move a message is a number the simulated clock holds
/// (below, a small message takes longer than the clock's 106 days; above, a large one takes less
/// than its picosecond).
inline constexpr double kMinBandwidthBytesPerSecond = 1e3;
inline constexpr double kMaxBandwidthBytesPerSecond = 1e18;
/// Empty when `bytesPerSecond` is within the limits above; otherwise what was expected and found
/// ("expected a bandwidth from 1 KB/s to 1000000 TB/s, found 999 B/s"), the found value as the
/// user wrote it when `asWritten` is given ("1e-300 GB/s").
std::string bandwidthRangeProblem(double bytesPerSecond, std::string_view asWritten = {});
/// Bytes per second, within the limits above.
double parseBandwidthBytesPerSecond(std::string_view text);
SimTime parseTime(std::string_view text);

// Formatting. Every size, bandwidth and time the product shows (CLI report, GUI labels, axes,
// tables, tooltips, export headers) is written by these functions, so they all agree. Numbers
// never use e-notation; the prefix is chosen so the number reads in [1, 1000) (or [1, 1024)).

/// Decimal (GB = 10^9) or binary (GiB = 2^30) prefixes for sizes and bandwidths.
enum class Convention : uint8_t {
    /// The convention the value was most likely entered in: binary when it is a whole number of
    /// binary units and not of decimal ones ("50 GiB/s", "64 MiB"), decimal otherwise
    /// ("400 GB/s", "1 GB"). The default.
    AsEntered,
    Decimal, ///< always KB, MB, GB, TB (and KB/s ...)
    Binary,  ///< always KiB, MiB, GiB, TiB (and KiB/s ...)
};
/// The process-wide choice (GUI: View > Units; CLI: --units). Thread-safe.
void setConvention(Convention convention);
Convention convention();
const char* conventionName(Convention convention); ///< "as-entered", "decimal", "binary"
/// Reads "as-entered", "decimal" or "binary"; throws Error (Validation) otherwise.
Convention parseConvention(std::string_view text);

/// How microseconds are written: "us" on a terminal, in logs and files (ASCII, as ASTRA-sim
/// writes them); "µs" where the text is shown in the GUI.
enum class TimeSpelling : uint8_t { Ascii, MicroSign };

/// A unit with its factor from the base unit (bytes, bytes per second, picoseconds).
struct Scale {
    double factor = 1;
    std::string_view symbol;
};
/// The unit a value of this magnitude is written in. Callers that show several values side by
/// side (a table row, an axis) choose the scale of the largest and write all in it. A derived
/// value (an achieved bandwidth, bytes moved) passes `like`, the entered value it is read
/// against (the peak, the message size): its prefix family (GiB/s or GB/s) is then that one's.
Scale sizeScale(double bytes, double like = 0);
Scale bandwidthScale(double bytesPerSecond, double like = 0);
Scale timeScale(double ps, TimeSpelling spelling = TimeSpelling::Ascii);
/// value / scale.factor with up to `digits` significant digits, no e-notation, no trailing zeros.
std::string formatScaled(double value, Scale scale, int digits = 6);
/// The number only, as formatScaled writes it.
std::string formatPlain(double value, int digits = 6);

/// "1 MiB", "1.5 GiB", "1 GB"; exact bytes below 1 KiB.
std::string formatSize(uint64_t bytes);
/// "400 GB/s", "50 GiB/s"; with `like`, in that value's prefix family (see bandwidthScale).
std::string formatBandwidth(double bytesPerSecond, double like = 0, int digits = 6);
/// Picks ps, ns, us, ms or s so the number stays readable ("936.25 ns", "1.5 ms").
std::string formatTime(SimTime time, TimeSpelling spelling = TimeSpelling::Ascii);
/// "1 node", "3 nodes": a count with its noun in singular or plural.
std::string countOf(uint64_t count, std::string_view singular, std::string_view plural = {});

/// Accepted spellings, for help texts and error messages.
const char* acceptedSizeForms();
const char* acceptedBandwidthForms();
const char* acceptedTimeForms();

/// Shortest decimal form of a double that reads back exactly ("50", "936.25", "0.1").
std::string formatNumber(double value);
/// Exactly `decimals` digits after the point, for aligned tables ("12.50", "3").
std::string formatFixed(double value, int decimals);

} // namespace astrolabe::units
