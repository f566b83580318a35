#include "serving/RequestPath.h"

#include "core/Units.h"
#include "serving/RequestRows.h"

#include <algorithm>
#include <cstdio>

namespace astrolabe::widgets {
namespace {

double runEndOf(const serving::ServingResult& r) {
    double end = r.requests.empty() ? 0 : r.requests.front().arrival + r.summary.durationSeconds;
    if (!r.occupancy.empty())
        end = std::max(end, r.occupancy.back().seconds);
    return end;
}

/// When request q is resident on `replica`: [first iteration, leaves), or empty.
PhaseInterval residency(const serving::RequestRecord& q, int replica, double runEnd) {
    const PhaseInterval decode = phaseSpan(q, RequestPhase::Decode, runEnd);
    const PhaseInterval prefill = phaseSpan(q, RequestPhase::Prefill, runEnd);
    if (q.prefillReplica == replica && q.decodeReplica == replica)
        return {prefill.begin, decode.end};
    if (q.prefillReplica == replica)
        return prefill;
    if (q.decodeReplica == replica)
        return decode;
    return {};
}

bool overlaps(PhaseInterval a, PhaseInterval b) {
    return a.begin < b.end && b.begin < a.end;
}

std::string ms(double seconds) { // "14110 ms", never "1.411e+04 ms"
    return units::formatPlain(seconds * 1e3, 4) + " ms";
}

std::string firstFew(const std::vector<int>& requests) {
    std::string out;
    for (size_t i = 0; i < std::min<size_t>(requests.size(), 8); ++i)
        out += (i ? ", #" : " #") + std::to_string(requests[i]);
    if (requests.size() > 8)
        out += ", ...";
    return out;
}

} // namespace

RequestPathInfo requestPath(const serving::ServingResult& result, int request) {
    RequestPathInfo p;
    p.request = request;
    const double end = runEndOf(result);
    const serving::RequestRecord& q = result.requests.at(size_t(request));
    auto length = [&](RequestPhase phase) {
        const PhaseInterval s = phaseSpan(q, phase, end);
        return std::max(0.0, s.end - s.begin);
    };
    p.queueing = length(RequestPhase::Queueing);
    p.prefill = length(RequestPhase::Prefill);
    p.transfer = length(RequestPhase::Transfer);
    p.decode = length(RequestPhase::Decode);
    p.prefillReplica = q.prefillReplica;
    p.decodeReplica = q.decodeReplica;
    const PhaseInterval prefill = phaseSpan(q, RequestPhase::Prefill, end);
    const PhaseInterval decode = phaseSpan(q, RequestPhase::Decode, end);
    for (int i = 0; i < int(result.requests.size()); ++i) {
        if (i == request)
            continue;
        const serving::RequestRecord& other = result.requests[size_t(i)];
        if (other.arrival >= decode.end)
            break; // arrival order: no later request can overlap
        if (overlaps(residency(other, q.prefillReplica, end), prefill))
            p.prefillCompanions.push_back(i);
        if (overlaps(residency(other, q.decodeReplica, end), decode))
            p.decodeCompanions.push_back(i);
    }
    return p;
}

std::vector<std::string> describePath(const serving::ServingResult& result,
                                      const RequestPathInfo& p) {
    std::vector<std::string> lines;
    const serving::RequestRecord& q = result.requests.at(size_t(p.request));
    auto role = [&](int replica) {
        return replica >= 0 && replica < int(result.replicas.size())
                   ? std::string(serving::poolRoleName(result.replicas[size_t(replica)].role))
                   : std::string("?");
    };
    lines.push_back("Request #" + std::to_string(p.request) + ": " +
                    std::to_string(q.promptTokens) + " prompt tokens, " +
                    std::to_string(q.outputTokens) + " output tokens");
    lines.push_back("queueing " + ms(p.queueing) + ", prefill " + ms(p.prefill) +
                    (q.transferStart >= 0 ? ", KV transfer " + ms(p.transfer) : std::string()) +
                    ", decode " + ms(p.decode));
    if (q.firstToken >= 0)
        lines.push_back("TTFT " + ms(q.firstToken - q.arrival) +
                        (q.finished() ? ", end to end " + ms(q.lastToken - q.arrival)
                                      : std::string(", not finished")));
    lines.push_back("prefill on replica " + std::to_string(p.prefillReplica) + " (" +
                    role(p.prefillReplica) + ") with " +
                    std::to_string(p.prefillCompanions.size()) + " companions" +
                    firstFew(p.prefillCompanions));
    if (q.transferStart >= 0) {
        char link[160];
        std::snprintf(link, sizeof link,
                      "KV cache to replica %d over the inter-replica link (%.4g GB/s, %.4g us): "
                      "left at %.6g s, arrived at %.6g s",
                      p.decodeReplica, result.linkBytesPerSecond / 1e9,
                      result.linkLatencySeconds * 1e6, q.transferStart, q.transferEnd);
        lines.emplace_back(link);
    }
    lines.push_back("decode on replica " + std::to_string(p.decodeReplica) + " (" +
                    role(p.decodeReplica) + ") with " + std::to_string(p.decodeCompanions.size()) +
                    " companions" + firstFew(p.decodeCompanions));
    return lines;
}

} // namespace astrolabe::widgets
