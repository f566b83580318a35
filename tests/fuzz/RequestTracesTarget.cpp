// Request traces for serving (docs/serving.md): the same bytes read as the Azure LLM inference
// trace and as BurstGPT, whole and cut to their first simulated second.
#include "FuzzTarget.h"
#include "serving/Requests.h"

#include <stdexcept>
#include <string>
#include <vector>

ASTROLABE_FUZZ_TARGET(request_traces) {
    const std::string text(input);
    for (const char* format : {"azure", "burstgpt"})
        for (const double duration : {0.0, 1.0}) {
            std::vector<std::string> warnings;
            const auto requests = astrolabe::serving::parseRequestTrace(text, "fuzz.csv", format,
                                                                        duration, 0.5, &warnings);
            for (size_t i = 0; i < requests.size(); ++i) {
                const astrolabe::serving::Request& r = requests[i];
                if (r.arrivalSeconds < 0 ||
                    (i > 0 && r.arrivalSeconds < requests[i - 1].arrivalSeconds))
                    throw std::logic_error("request arrivals go backwards");
                if (r.promptTokens <= 0 || r.cachedTokens < 0 || r.cachedTokens > r.promptTokens)
                    throw std::logic_error("a request's prompt or cached tokens are out of range");
            }
        }
}
