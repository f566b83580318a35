#include "serving/ServingCodec.h"

#include "core/Error.h"
#include "serving/ServingTraffic.h"
#include "store/ByteCodec.h"

namespace astrolabe::serving {
namespace {

constexpr uint64_t kFormat = 2; ///< 2: kvBytesPerToken after the link figures

void writePercentiles(ByteWriter& out, const Percentiles& p) {
    for (double v : {p.p50, p.p90, p.p99, p.mean, p.max})
        out.f64(v);
    out.zigzag(p.count);
}

Percentiles readPercentiles(ByteReader& in) {
    Percentiles p;
    for (double* v : {&p.p50, &p.p90, &p.p99, &p.mean, &p.max})
        *v = in.f64();
    p.count = in.zigzag();
    return p;
}

} // namespace

std::string encodeServingResult(const ServingResult& r) {
    ByteWriter out;
    out.varint(kFormat);
    const ServingSummary& s = r.summary;
    for (int64_t v : {s.requests, s.completed, s.preemptions, s.iterations, int64_t(s.gpus),
                      int64_t(s.prefillGpus), int64_t(s.decodeGpus)})
        out.zigzag(v);
    for (const Percentiles* p : {&s.ttft, &s.tpot, &s.itl, &s.e2e, &s.queueing})
        writePercentiles(out, *p);
    for (double v :
         {s.durationSeconds, s.requestsPerSecond, s.inputTokensPerSecond, s.outputTokensPerSecond,
          s.outputTokensPerGpuSecond, s.goodputRequestsPerSecond, s.goodputPerGpu, s.sloAttainment,
          s.peakKvOccupancy, s.meanKvOccupancy, s.ttftSloSeconds, s.tpotSloSeconds,
          r.linkBytesPerSecond, r.linkLatencySeconds, r.kvBytesPerToken})
        out.f64(v);
    out.varint(r.requests.size());
    for (const RequestRecord& q : r.requests) {
        for (double v : {q.arrival, q.firstScheduled, q.firstToken, q.lastToken, q.transferStart,
                         q.transferEnd})
            out.f64(v);
        for (int32_t v :
             {q.promptTokens, q.outputTokens, q.generated, q.prefillReplica, q.decodeReplica})
            out.zigzag(v);
    }
    out.varint(r.occupancy.size());
    for (const OccupancySample& o : r.occupancy) {
        out.f64(o.seconds);
        out.f64(o.kvOccupancy);
        for (int64_t v : {o.preemptions, o.running, o.waiting, o.outputTokens})
            out.zigzag(v);
    }
    out.varint(r.replicas.size());
    for (const ReplicaStats& p : r.replicas) {
        out.byte(uint8_t(p.role));
        out.zigzag(p.gpus);
        out.f64(p.busySeconds);
        for (int64_t v : {p.iterations, p.requests, p.tokens})
            out.zigzag(v);
    }
    return out.take();
}

ServingResult decodeServingResult(std::string_view bytes) {
    ByteReader in(bytes);
    const uint64_t format = in.varint();
    if (format != 1 && format != kFormat) // format 1 has no kvBytesPerToken
        throw Error(ErrorKind::Input, "a serving record of format " + std::to_string(format) +
                                          " in the project database; this version reads " +
                                          std::to_string(kFormat));
    ServingResult r;
    ServingSummary& s = r.summary;
    for (int64_t* v : {&s.requests, &s.completed, &s.preemptions, &s.iterations})
        *v = in.zigzag();
    for (int* v : {&s.gpus, &s.prefillGpus, &s.decodeGpus})
        *v = int(in.zigzag());
    for (Percentiles* p : {&s.ttft, &s.tpot, &s.itl, &s.e2e, &s.queueing})
        *p = readPercentiles(in);
    for (double* v :
         {&s.durationSeconds, &s.requestsPerSecond, &s.inputTokensPerSecond,
          &s.outputTokensPerSecond, &s.outputTokensPerGpuSecond, &s.goodputRequestsPerSecond,
          &s.goodputPerGpu, &s.sloAttainment, &s.peakKvOccupancy, &s.meanKvOccupancy,
          &s.ttftSloSeconds, &s.tpotSloSeconds, &r.linkBytesPerSecond, &r.linkLatencySeconds})
        *v = in.f64();
    if (format >= 2)
        r.kvBytesPerToken = in.f64();
    r.requests.resize(in.count(6 * 8 + 5));
    for (RequestRecord& q : r.requests) {
        for (double* v : {&q.arrival, &q.firstScheduled, &q.firstToken, &q.lastToken,
                          &q.transferStart, &q.transferEnd})
            *v = in.f64();
        for (int32_t* v :
             {&q.promptTokens, &q.outputTokens, &q.generated, &q.prefillReplica, &q.decodeReplica})
            *v = int32_t(in.zigzag());
    }
    r.occupancy.resize(in.count(2 * 8 + 4));
    for (OccupancySample& o : r.occupancy) {
        o.seconds = in.f64();
        o.kvOccupancy = in.f64();
        for (int64_t* v : {&o.preemptions, &o.running, &o.waiting, &o.outputTokens})
            *v = in.zigzag();
    }
    r.replicas.resize(in.count(1 + 1 + 8 + 3));
    for (ReplicaStats& p : r.replicas) {
        p.role = PoolRole(in.below(3));
        p.gpus = int(in.zigzag());
        p.busySeconds = in.f64();
        for (int64_t* v : {&p.iterations, &p.requests, &p.tokens})
            *v = in.zigzag();
    }
    if (!in.atEnd())
        throw Error(ErrorKind::Input, "a serving record in the project database has " +
                                          std::to_string(in.remaining()) +
                                          " bytes after its end (corrupt)");
    for (const RequestRecord& q : r.requests)
        for (int32_t replica : {q.prefillReplica, q.decodeReplica})
            if (replica < -1 || replica >= int32_t(r.replicas.size()))
                throw Error(ErrorKind::Input, "a serving record in the project database names "
                                              "replica " +
                                                  std::to_string(replica) + " of " +
                                                  std::to_string(r.replicas.size()) + " (corrupt)");
    return r;
}

RunResult servingRunResult(const SimulationSpec& spec, const ServingResult& r) {
    RunResult result;
    result.name = spec.name + " (serving)";
    result.npuCount = r.summary.gpus;
    result.endTime = SimTime::fromPsRounded(r.summary.durationSeconds * 1e12);
    result.events = static_cast<uint64_t>(r.summary.iterations);
    result.wallSeconds = r.wallSeconds;
    for (const std::string& line : summaryLines(r.summary))
        result.reportLines.push_back("[serving] " + line);
    for (const std::string& w : r.warnings)
        result.reportLines.push_back("[serving] [warning] " + w);
    addServingTraffic(result, spec, r);
    result.attachments.emplace_back(kServingAttachment, encodeServingResult(r));
    return result;
}

std::optional<ServingResult> servingRecordsOf(const RunResult& run) {
    for (const auto& [name, bytes] : run.attachments)
        if (name == kServingAttachment)
            return decodeServingResult(bytes);
    return std::nullopt;
}

} // namespace astrolabe::serving
