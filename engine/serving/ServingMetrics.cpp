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
    std::vector<std::string> out;
    char line[256];
    auto add = [&](const char* name, const Percentiles& p) {
        std::snprintf(line, sizeof line,
                      "%-10s p50 %.4g ms  p90 %.4g ms  p99 %.4g ms  mean %.4g ms  (n=%lld)", name,
                      p.p50 * 1e3, p.p90 * 1e3, p.p99 * 1e3, p.mean * 1e3,
                      static_cast<long long>(p.count));
        out.emplace_back(line);
    };
    std::snprintf(line, sizeof line, "requests  %lld completed of %lld over %.4g s on %d GPUs",
                  static_cast<long long>(s.completed), static_cast<long long>(s.requests),
                  s.durationSeconds, s.gpus);
    out.emplace_back(line);
    add("TTFT", s.ttft);
    add("TPOT", s.tpot);
    add("ITL", s.itl);
    add("E2E", s.e2e);
    add("queueing", s.queueing);
    std::snprintf(line, sizeof line,
                  "throughput %.4g requests/s, %.4g input tokens/s, %.4g output tokens/s, "
                  "%.4g output tokens/s per GPU",
                  s.requestsPerSecond, s.inputTokensPerSecond, s.outputTokensPerSecond,
                  s.outputTokensPerGpuSecond);
    out.emplace_back(line);
    std::snprintf(line, sizeof line,
                  "goodput   %.4g requests/s (%.4g per GPU), %.1f%% of requests meet TTFT <= %.4g "
                  "ms and TPOT <= %.4g ms",
                  s.goodputRequestsPerSecond, s.goodputPerGpu, s.sloAttainment * 100,
                  s.ttftSloSeconds * 1e3, s.tpotSloSeconds * 1e3);
    out.emplace_back(line);
    std::snprintf(line, sizeof line,
                  "KV cache  peak %.1f%%, mean %.1f%% occupied; %lld preemptions; %lld iterations",
                  s.peakKvOccupancy * 100, s.meanKvOccupancy * 100,
                  static_cast<long long>(s.preemptions), static_cast<long long>(s.iterations));
    out.emplace_back(line);
    return out;
}

} // namespace astrolabe::serving
