#include "core/Units.h"
#include "serving/ServingResult.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace astrolabe::serving {
namespace {

template <typename T> Percentiles percentilesOf(std::vector<T>& values) {
    Percentiles p;
    p.count = int64_t(values.size());
    if (values.empty())
        return p;
    std::sort(values.begin(), values.end());
    auto rank = [&](double q) {
        const auto r = static_cast<size_t>(std::ceil(q / 100.0 * double(values.size())));
        return double(values[std::clamp<size_t>(r, 1, values.size()) - 1]);
    };
    p.p50 = rank(50);
    p.p90 = rank(90);
    p.p99 = rank(99);
    p.max = double(values.back());
    double sum = 0;
    for (T v : values)
        sum += double(v);
    p.mean = sum / double(values.size());
    return p;
}

} // namespace

Percentiles percentiles(std::vector<double>& values) {
    return percentilesOf(values);
}
Percentiles percentiles(std::vector<float>& values) {
    return percentilesOf(values);
}

ServingSummary summarize(const std::vector<RequestRecord>& requests, std::vector<float>& itl,
                         const std::vector<OccupancySample>& occupancy, double ttftSlo,
                         double tpotSlo) {
    ServingSummary s;
    s.requests = int64_t(requests.size());
    s.ttftSloSeconds = ttftSlo;
    s.tpotSloSeconds = tpotSlo;
    std::vector<double> ttft, tpot, e2e, queueing;
    double first = requests.empty() ? 0 : requests.front().arrival, last = first;
    double inputTokens = 0, outputTokens = 0;
    int64_t good = 0;
    for (const RequestRecord& r : requests) {
        first = std::min(first, r.arrival);
        if (!r.finished())
            continue;
        ++s.completed;
        last = std::max(last, r.lastToken);
        inputTokens += r.promptTokens;
        outputTokens += r.outputTokens;
        const double t = r.firstToken - r.arrival;
        ttft.push_back(t);
        e2e.push_back(r.lastToken - r.arrival);
        queueing.push_back(r.firstScheduled - r.arrival);
        double perToken = 0;
        if (r.outputTokens > 1) {
            perToken = (r.lastToken - r.firstToken) / (r.outputTokens - 1);
            tpot.push_back(perToken);
        }
        if (t <= ttftSlo && perToken <= tpotSlo)
            ++good;
    }
    s.ttft = percentiles(ttft);
    s.tpot = percentiles(tpot);
    s.e2e = percentiles(e2e);
    s.queueing = percentiles(queueing);
    s.itl = percentiles(itl);
    s.durationSeconds = last - first;
    if (s.durationSeconds > 0) {
        s.requestsPerSecond = double(s.completed) / s.durationSeconds;
        s.inputTokensPerSecond = inputTokens / s.durationSeconds;
        s.outputTokensPerSecond = outputTokens / s.durationSeconds;
        s.goodputRequestsPerSecond = double(good) / s.durationSeconds;
    }
    s.sloAttainment = s.completed > 0 ? double(good) / double(s.completed) : 0;
    double occupancySum = 0;
    for (const OccupancySample& o : occupancy) {
        s.peakKvOccupancy = std::max(s.peakKvOccupancy, o.kvOccupancy);
        occupancySum += o.kvOccupancy;
        s.preemptions += o.preemptions;
    }
    s.meanKvOccupancy = occupancy.empty() ? 0 : occupancySum / double(occupancy.size());
    return s;
}

const char* poolRoleName(PoolRole role) {
    switch (role) {
    case PoolRole::Prefill:
        return "prefill";
    case PoolRole::Decode:
        return "decode";
    case PoolRole::Aggregated:
        break;
    }
    return "aggregated";
}

std::vector<std::string> summaryLines(const ServingSummary& s) {
    // Four significant digits and never e-notation: a TTFT of 141,593 ms reads "141593 ms".
    auto n = [](double value) { return units::formatPlain(value, 4); };
    auto ms = [&n](double seconds) { return n(seconds * 1e3) + " ms"; };
    std::vector<std::string> out;
    auto add = [&](const char* name, const Percentiles& p) {
        char label[16];
        std::snprintf(label, sizeof label, "%-10s", name);
        if (p.count == 0) {
            out.push_back(std::string(label) + " none (n=0)");
            return;
        }
        out.push_back(std::string(label) + " p50 " + ms(p.p50) + "  p90 " + ms(p.p90) + "  p99 " +
                      ms(p.p99) + "  mean " + ms(p.mean) + "  (n=" + std::to_string(p.count) + ")");
    };
    out.push_back("requests  " + std::to_string(s.completed) + " completed of " +
                  std::to_string(s.requests) + " over " + n(s.durationSeconds) + " s on " +
                  std::to_string(s.gpus) + " GPUs");
    add("TTFT", s.ttft);
    add("TPOT", s.tpot);
    add("ITL", s.itl);
    add("E2E", s.e2e);
    add("queueing", s.queueing);
    out.push_back("throughput " + n(s.requestsPerSecond) + " requests/s, " +
                  n(s.inputTokensPerSecond) + " input tokens/s, " + n(s.outputTokensPerSecond) +
                  " output tokens/s, " + n(s.outputTokensPerGpuSecond) +
                  " output tokens/s per GPU");
    out.push_back("goodput   " + n(s.goodputRequestsPerSecond) + " requests/s (" +
                  n(s.goodputPerGpu) + " per GPU), " +
                  units::formatFixed(s.sloAttainment * 100, 1) + "% of requests meet TTFT <= " +
                  ms(s.ttftSloSeconds) + " and TPOT <= " + ms(s.tpotSloSeconds));
    out.push_back("KV cache  peak " + units::formatFixed(s.peakKvOccupancy * 100, 1) + "%, mean " +
                  units::formatFixed(s.meanKvOccupancy * 100, 1) + "% occupied; " +
                  std::to_string(s.preemptions) + " preemptions; " + std::to_string(s.iterations) +
                  " iterations");
    return out;
}

} // namespace astrolabe::serving
