#pragma once
// Requests in: synthetic arrivals (Poisson, gamma, fixed concurrency) with token-length
// distributions (fixed, uniform, lognormal, empirical), and public request traces (the Azure
// LLM inference trace, BurstGPT). Deterministic for a seed (std::mt19937_64 and our own
// inversions, so the sequence does not depend on the standard library's distributions).

#include "spec/ServingSpec.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace astrolabe::serving {

struct Request {
    int64_t id = 0;
    double arrivalSeconds = 0;
    int32_t promptTokens = 0;
    int32_t outputTokens = 0;
    int32_t cachedTokens = 0; ///< prefix already in the cache (prefix reuse): no prefill
};

/// Requests of a trace or file past this are refused (docs/limits.md).
inline constexpr int64_t kMaxServingRequests = 20'000'000;

/// A prompt or output longer than this is refused: no model serves 10 M tokens of context.
inline constexpr int64_t kMaxRequestTokens = 10'000'000;

/// A token-length distribution. Throws astrolabe::Error (Validation) at `key` for an unknown
/// kind, bounds out of order, or an empirical file that is empty or holds a bad line (named).
class LengthDistribution {
public:
    LengthDistribution(const LengthSpec& spec, const std::string& key);
    int32_t sample(std::mt19937_64& random) const;
    double mean() const; ///< of the clamped distribution (empirical: the file's mean)

private:
    LengthSpec m_spec;
    std::vector<int32_t> m_values; ///< empirical
};

/// A uniform draw in [0, 1) from 53 random bits.
double uniform01(std::mt19937_64& random);
/// A standard normal draw (Box-Muller).
double standardNormal(std::mt19937_64& random);
/// A gamma(shape, 1) draw (Marsaglia-Tsang; shape < 1 by the boost u^(1/shape)).
double gammaDraw(std::mt19937_64& random, double shape);

/// Open-loop synthetic arrivals up to spec.durationNs (poisson, gamma); for "concurrency" the
/// first spec.concurrency requests at time 0 (the scheduler issues one more as each finishes,
/// see closedLoopRequest). Throws astrolabe::Error (Validation) naming the serving.* key.
std::vector<Request> syntheticRequests(const ServingSpec& spec);
/// The next request of a closed loop (concurrency): id `id`, arriving at `now`.
Request closedLoopRequest(const ServingSpec& spec, int64_t id, double now, std::mt19937_64& random,
                          const LengthDistribution& input, const LengthDistribution& output);

/// A request trace. "azure": the Azure LLM inference trace (TIMESTAMP,ContextTokens,
/// GeneratedTokens; a date-time or seconds). "burstgpt": BurstGPT (Timestamp,Model,Request
/// tokens,Response tokens,...; seconds); its failed requests (0 response tokens) are skipped and
/// counted in `warnings`. Times are made relative to the first request; requests after
/// `durationSeconds` (when > 0) are dropped. Throws astrolabe::Error (Input) naming the file and
/// row: a missing column, a bad number, a zero-length prompt, a timestamp going backwards.
std::vector<Request> readRequestTrace(const std::string& path, const std::string& format,
                                      double durationSeconds, double prefixReuse,
                                      std::vector<std::string>* warnings = nullptr);
/// The same from text (`file` names it in messages).
std::vector<Request> parseRequestTrace(const std::string& text, const std::string& file,
                                       const std::string& format, double durationSeconds,
                                       double prefixReuse,
                                       std::vector<std::string>* warnings = nullptr);

} // namespace astrolabe::serving
