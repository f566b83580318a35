// What a serving run records per request and per replica, and how the project database keeps
// it: the records' phases in order, replica stats that add up, and a byte-exact round trip.
#include "ServingTestSupport.h"
#include "core/Error.h"
#include "serving/ServingCodec.h"
#include "serving/ServingRun.h"
#include "store/ProjectDatabase.h"
#include "support/TempDir.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::serving;

namespace {

SimulationSpec pdProject() {
    return servingtest::project("model: llama3-8b\n  gpu: h100\n  deployment: pd\n  replicas: 2\n"
                                "  prefill-replicas: 1\n  rate: 20\n  duration: 10 s\n"
                                "  input-distribution: uniform\n  input-min: 200\n"
                                "  input-max: 2000\n  output-distribution: uniform\n"
                                "  output-min: 10\n  output-max: 200\n");
}

void expectSameRecords(const ServingResult& a, const ServingResult& b) {
    ASSERT_EQ(a.requests.size(), b.requests.size());
    for (size_t i = 0; i < a.requests.size(); ++i) {
        const RequestRecord &x = a.requests[i], &y = b.requests[i];
        EXPECT_EQ(x.arrival, y.arrival);
        EXPECT_EQ(x.firstScheduled, y.firstScheduled);
        EXPECT_EQ(x.firstToken, y.firstToken);
        EXPECT_EQ(x.lastToken, y.lastToken);
        EXPECT_EQ(x.transferStart, y.transferStart);
        EXPECT_EQ(x.transferEnd, y.transferEnd);
        EXPECT_EQ(x.prefillReplica, y.prefillReplica);
        EXPECT_EQ(x.decodeReplica, y.decodeReplica);
        EXPECT_EQ(x.outputTokens, y.outputTokens);
    }
    ASSERT_EQ(a.occupancy.size(), b.occupancy.size());
    for (size_t i = 0; i < a.occupancy.size(); ++i) {
        EXPECT_EQ(a.occupancy[i].seconds, b.occupancy[i].seconds);
        EXPECT_EQ(a.occupancy[i].kvOccupancy, b.occupancy[i].kvOccupancy);
        EXPECT_EQ(a.occupancy[i].preemptions, b.occupancy[i].preemptions);
        EXPECT_EQ(a.occupancy[i].running, b.occupancy[i].running);
        EXPECT_EQ(a.occupancy[i].waiting, b.occupancy[i].waiting);
        EXPECT_EQ(a.occupancy[i].outputTokens, b.occupancy[i].outputTokens);
    }
    ASSERT_EQ(a.replicas.size(), b.replicas.size());
    for (size_t i = 0; i < a.replicas.size(); ++i) {
        EXPECT_EQ(a.replicas[i].role, b.replicas[i].role);
        EXPECT_EQ(a.replicas[i].busySeconds, b.replicas[i].busySeconds);
        EXPECT_EQ(a.replicas[i].tokens, b.replicas[i].tokens);
    }
    EXPECT_EQ(a.summary.ttft.p99, b.summary.ttft.p99);
    EXPECT_EQ(a.summary.goodputPerGpu, b.summary.goodputPerGpu);
    EXPECT_EQ(a.summary.tpotSloSeconds, b.summary.tpotSloSeconds);
    EXPECT_EQ(a.linkBytesPerSecond, b.linkBytesPerSecond);
}

} // namespace

TEST(ServingRecords, PdRequestsPrefillThenCrossTheLinkThenDecodeElsewhere) {
    const ServingResult r = runServing(pdProject());
    ASSERT_GT(r.summary.completed, 100);
    ASSERT_EQ(r.replicas.size(), 3u);
    EXPECT_EQ(r.replicas[0].role, PoolRole::Prefill);
    EXPECT_EQ(r.replicas[1].role, PoolRole::Decode);
    int64_t admittedAtDecode = 0;
    for (const RequestRecord& q : r.requests) {
        ASSERT_TRUE(q.finished());
        EXPECT_EQ(q.prefillReplica, 0);
        EXPECT_TRUE(q.decodeReplica == 1 || q.decodeReplica == 2);
        // arrival <= scheduled < first token = transfer start < transfer end < last token
        EXPECT_LE(q.arrival, q.firstScheduled);
        EXPECT_LT(q.firstScheduled, q.firstToken);
        EXPECT_EQ(q.transferStart, q.firstToken);
        // At least the link latency (5 us) after the first token.
        EXPECT_GE(q.transferEnd - q.transferStart, 5e-6 - 1e-12);
        if (q.outputTokens > 1) {
            EXPECT_LT(q.transferEnd, q.lastToken);
        }
        admittedAtDecode += 1;
    }
    // Each request joins one prefill queue and one decode queue (no preemption at this load).
    ASSERT_EQ(r.summary.preemptions, 0);
    EXPECT_EQ(r.replicas[0].requests, int64_t(r.requests.size()));
    EXPECT_EQ(r.replicas[1].requests + r.replicas[2].requests, admittedAtDecode);
    // A replica is busy at most the whole run, and iterations add up to the run's.
    int64_t iterations = 0;
    for (const ReplicaStats& s : r.replicas) {
        EXPECT_GT(s.busySeconds, 0);
        EXPECT_LE(s.busySeconds, r.summary.durationSeconds + 1e-9);
        iterations += s.iterations;
    }
    EXPECT_EQ(iterations, r.summary.iterations);
    // The sampled output tokens add up to every token generated.
    int64_t sampled = 0, generated = 0;
    for (const OccupancySample& o : r.occupancy)
        sampled += o.outputTokens;
    for (const RequestRecord& q : r.requests)
        generated += q.generated;
    EXPECT_EQ(sampled, generated);
}

TEST(ServingRecords, AggregatedRequestsStayOnOneReplicaWithoutTransfer) {
    const ServingResult r = runServing(servingtest::project(
        "model: llama3-8b\n  gpu: h100\n  replicas: 2\n  rate: 10\n  duration: 5 s\n"));
    ASSERT_EQ(r.replicas.size(), 2u);
    for (const RequestRecord& q : r.requests) {
        EXPECT_EQ(q.prefillReplica, q.decodeReplica);
        EXPECT_EQ(q.transferStart, -1);
    }
}

TEST(ServingRecords, CodecRoundTripsExactlyAndRefusesDamage) {
    const ServingResult r = runServing(pdProject());
    const std::string bytes = encodeServingResult(r);
    expectSameRecords(r, decodeServingResult(bytes));
    EXPECT_THROW(decodeServingResult(bytes.substr(0, bytes.size() / 2)), Error);
    EXPECT_THROW(decodeServingResult(bytes + "x"), Error);
    std::string future = bytes;
    future[0] = 9; // format 9
    EXPECT_THROW(decodeServingResult(future), Error);
}

TEST(ServingRecords, ProjectDatabaseKeepsTheRecordsWithTheRun) {
    test::TempDir dir("serving_records");
    const ServingResult r = runServing(pdProject());
    RunResult run;
    run.name = "serving";
    run.npuCount = r.summary.gpus;
    run.attachments.emplace_back(kServingAttachment, encodeServingResult(r));
    ProjectDatabase db(dir.path("astrolabe.db"));
    const int64_t id = db.saveRun(run, RunProvenance{});
    const std::optional<std::string> bytes = db.loadAttachment(id, kServingAttachment);
    ASSERT_TRUE(bytes.has_value());
    expectSameRecords(r, decodeServingResult(*bytes));
    EXPECT_FALSE(db.loadAttachment(id, "other").has_value());
    const auto loaded = db.loadResult(id, false, false);
    ASSERT_EQ(loaded->attachments.size(), 1u);
    EXPECT_EQ(loaded->attachments[0].first, kServingAttachment);
    EXPECT_EQ(loaded->attachments[0].second, *bytes);
    EXPECT_THROW(db.loadAttachment(id + 1, kServingAttachment), Error);
}

TEST(ServingRecords, AStoredRunReadsBackItsKvOccupancyAndPreemptionsOverTime) {
    // Llama-3 8B on one H100 with 22% of HBM usable: 17.6 GB less 16.1 GB of weights leaves
    // about 11,000 tokens of cache for requests of 1,000 to 3,000 tokens at 8 per second, so the
    // cache fills and requests are preempted. The series Compare and the Serving tab draw must
    // come back from the database as they were.
    test::TempDir dir("serving_occupancy");
    const ServingResult r = runServing(servingtest::project(
        "model: llama3-8b\n  gpu: h100\n  kv-memory-fraction: 0.22\n  rate: 8\n"
        "  duration: 20 s\n  input-distribution: uniform\n  input-min: 1000\n"
        "  input-max: 3000\n  output-distribution: uniform\n  output-min: 100\n"
        "  output-max: 400\n"));
    ASSERT_GT(r.summary.preemptions, 0);
    ASSERT_GT(r.occupancy.size(), 100u);
    int64_t preemptions = 0;
    double peak = 0;
    for (const OccupancySample& o : r.occupancy) {
        preemptions += o.preemptions;
        peak = std::max(peak, o.kvOccupancy);
    }
    EXPECT_EQ(preemptions, r.summary.preemptions);
    EXPECT_GT(peak, 0.9);
    RunResult run;
    run.name = "serving";
    run.npuCount = r.summary.gpus;
    run.attachments.emplace_back(kServingAttachment, encodeServingResult(r));
    ProjectDatabase db(dir.path("astrolabe.db"));
    const int64_t id = db.saveRun(run, RunProvenance{});
    const std::optional<std::string> bytes = db.loadAttachment(id, kServingAttachment);
    ASSERT_TRUE(bytes.has_value());
    const ServingResult back = decodeServingResult(*bytes);
    expectSameRecords(r, back);
    EXPECT_EQ(back.summary.preemptions, r.summary.preemptions);
}

// The report lines a run stores and `serve` prints: large figures in plain digits (a TTFT of
// 141,592 ms was "1.416e+05 ms"), and a percentile with no sample says so (a TPOT of outputs of
// one token read "p50 0 ms ... (n=0)").
TEST(ServingRecords, SummaryLinesWriteNoENotationAndNoFiguresWithoutSamples) {
    ServingSummary s;
    s.requests = s.completed = 3000;
    s.durationSeconds = 322.3;
    s.gpus = 8;
    s.ttft = {141.5926, 150.0, 160.0, 145.0, 170.0, 3000};
    s.tpot = {};
    s.inputTokensPerSecond = 34961.2;
    const std::vector<std::string> lines = summaryLines(s);
    std::string all;
    for (const std::string& line : lines)
        all += line + "\n";
    EXPECT_EQ(all.find("e+"), std::string::npos) << all;
    EXPECT_NE(all.find("TTFT       p50 141593 ms  p90 150000 ms"), std::string::npos) << all;
    EXPECT_NE(all.find("TPOT       none (n=0)"), std::string::npos) << all;
    EXPECT_NE(all.find("34961 input tokens/s"), std::string::npos) << all;
}
