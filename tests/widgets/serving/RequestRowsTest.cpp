// The request timeline's mapping: rows to pixel rows, phases to spans, the painted pixels and
// the hit test, with exact expectations.
#include "serving/RequestRows.h"

#include "serving/CdfChart.h"
#include "serving/RequestPath.h"

#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;
using serving::RequestRecord;

namespace {

/// Arrives at `arrival`, waits 1 s, prefills 1 s, decodes 2 s (3 output tokens).
RequestRecord request(double arrival, int replica = 0) {
    RequestRecord r;
    r.arrival = arrival;
    r.firstScheduled = arrival + 1;
    r.firstToken = arrival + 2;
    r.lastToken = arrival + 4;
    r.outputTokens = r.generated = 3;
    r.prefillReplica = r.decodeReplica = replica;
    return r;
}

} // namespace

TEST(RequestRows, RowsShareAPixelRowWhenThereAreMoreRowsThanPixels) {
    // 10 rows on 5 pixels: two per pixel row.
    const RowWindow w{0, 10};
    EXPECT_EQ(w.pixels(0, 5), std::make_pair(0, 1));
    EXPECT_EQ(w.pixels(1, 5), std::make_pair(0, 1));
    EXPECT_EQ(w.pixels(9, 5), std::make_pair(4, 5));
    EXPECT_EQ(w.rowsAt(0, 5), std::make_pair(0, 2));
    EXPECT_EQ(w.rowsAt(4, 5), std::make_pair(8, 10));
    // 4 rows on 100 pixels: 25 each; rows offset by the window's first row.
    const RowWindow z{6, 4};
    EXPECT_EQ(z.pixels(7, 100), std::make_pair(25, 50));
    EXPECT_EQ(z.rowsAt(49, 100), std::make_pair(7, 8));
    EXPECT_EQ(z.rowsAt(50, 100), std::make_pair(8, 9));
    // Every pixel row of a large window maps back to the rows drawn on it.
    const RowWindow big{0, 100000};
    for (int y : {0, 1, 333, 999}) {
        const auto [a, b] = big.rowsAt(y, 1000);
        ASSERT_LT(a, b);
        EXPECT_EQ(big.pixels(a, 1000).first, y);
        EXPECT_EQ(big.pixels(b - 1, 1000).first, y);
    }
}

TEST(RequestRows, PhasesFollowTheRecord) {
    RequestRecord r = request(10);
    EXPECT_EQ(phaseSpan(r, RequestPhase::Queueing, 100).begin, 10);
    EXPECT_EQ(phaseSpan(r, RequestPhase::Queueing, 100).end, 11);
    EXPECT_EQ(phaseSpan(r, RequestPhase::Prefill, 100).end, 12);
    EXPECT_FALSE(phaseSpan(r, RequestPhase::Transfer, 100).end >
                 phaseSpan(r, RequestPhase::Transfer, 100).begin);
    EXPECT_EQ(phaseSpan(r, RequestPhase::Decode, 100).begin, 12);
    EXPECT_EQ(phaseSpan(r, RequestPhase::Decode, 100).end, 14);
    // P/D: the transfer sits between the first token and the decode.
    r.transferStart = 12;
    r.transferEnd = 12.5;
    EXPECT_EQ(phaseSpan(r, RequestPhase::Transfer, 100).end, 12.5);
    EXPECT_EQ(phaseSpan(r, RequestPhase::Decode, 100).begin, 12.5);
    // Never scheduled: it queues to the end of the run.
    RequestRecord waiting;
    waiting.arrival = 5;
    waiting.outputTokens = 2;
    EXPECT_EQ(phaseSpan(waiting, RequestPhase::Queueing, 100).end, 100);
}

TEST(RequestRows, PaintsEachPhaseInItsColumns) {
    // One request over a 10 s window on 100 pixels: 10 pixels per second. Queueing [0, 1 s) is
    // columns 0-9, prefill 10-19, decode 20-39, nothing after.
    const std::vector<RequestRecord> rows{request(0)};
    const TimeMapper mapper(0, secondsToPs(10), 0, 100);
    QImage image(100, 4, QImage::Format_ARGB32_Premultiplied);
    paintRequestRows(rows, 10, mapper, RowWindow{0, 1}, image, Qt::white);
    EXPECT_EQ(image.pixelColor(5, 1), requestPhaseColor(RequestPhase::Queueing));
    EXPECT_EQ(image.pixelColor(15, 1), requestPhaseColor(RequestPhase::Prefill));
    EXPECT_EQ(image.pixelColor(30, 1), requestPhaseColor(RequestPhase::Decode));
    EXPECT_EQ(image.pixelColor(45, 1), QColor(Qt::white));
    // Zoomed on [2 s, 3 s): the whole width is decode.
    TimeMapper zoomed = mapper;
    zoomed.setWindow(secondsToPs(2), secondsToPs(3));
    paintRequestRows(rows, 10, zoomed, RowWindow{0, 1}, image, Qt::white);
    EXPECT_EQ(image.pixelColor(0, 1), requestPhaseColor(RequestPhase::Decode));
    EXPECT_EQ(image.pixelColor(99, 1), requestPhaseColor(RequestPhase::Decode));
}

TEST(RequestRows, ClickFindsTheRequestUnderThePointer) {
    // Two requests, one per 10-pixel row; the second arrives at 5 s.
    const std::vector<RequestRecord> rows{request(0), request(5)};
    const TimeMapper mapper(0, secondsToPs(10), 0, 100);
    const RowWindow w{0, 2};
    EXPECT_EQ(requestAt(rows, 10, mapper, w, 20, 30, 5), 0);   // 3 s, top row
    EXPECT_EQ(requestAt(rows, 10, mapper, w, 20, 60, 15), 1);  // 6 s, bottom row
    EXPECT_EQ(requestAt(rows, 10, mapper, w, 20, 30, 15), -1); // 3 s: before it arrived
    EXPECT_EQ(requestAt(rows, 10, mapper, w, 20, 42, 5), 0);   // 4.2 s: within 3 pixels
}

TEST(RequestPath, CompanionsAreTheRequestsResidentTogether) {
    // Requests 0 and 1 overlap on replica 0 (resident [1, 4) and [1.5, 4.5)); 2 runs on replica
    // 1 at the same time; 3 comes after request 0 has finished.
    serving::ServingResult r;
    r.requests = {request(0, 0), request(0.5, 0), request(0.5, 1), request(10, 0)};
    r.replicas.resize(2);
    r.summary.durationSeconds = 14;
    const RequestPathInfo p = requestPath(r, 0);
    EXPECT_EQ(p.prefillCompanions, std::vector<int>{1});
    EXPECT_EQ(p.decodeCompanions, std::vector<int>{1});
    EXPECT_DOUBLE_EQ(p.queueing, 1);
    EXPECT_DOUBLE_EQ(p.prefill, 1);
    EXPECT_DOUBLE_EQ(p.decode, 2);
    const std::vector<std::string> lines = describePath(r, p);
    EXPECT_EQ(lines.size(), 5u);
    // Phases of many seconds in ms without e-notation ("16420 ms", never "1.642e+04 ms").
    r.requests[0].lastToken = r.requests[0].firstToken + 16.42;
    const std::vector<std::string> longer = describePath(r, requestPath(r, 0));
    ASSERT_GE(longer.size(), 2u);
    EXPECT_NE(longer[1].find("decode 16420 ms"), std::string::npos) << longer[1];
}

TEST(CdfChart, CdfIsTheFractionAtOrBelow) {
    const std::vector<double> v{1, 2, 2, 4};
    EXPECT_DOUBLE_EQ(cdfAt(v, 0.5), 0);
    EXPECT_DOUBLE_EQ(cdfAt(v, 2), 0.75);
    EXPECT_DOUBLE_EQ(cdfAt(v, 4), 1);
    // At most two points per column, whatever the count of values.
    std::vector<double> many(100000);
    for (size_t i = 0; i < many.size(); ++i)
        many[i] = double(i) * 1e-5;
    const auto line = cdfPolyline(many, 1.0, 300);
    EXPECT_LE(line.size(), 2u * 301u);
    EXPECT_DOUBLE_EQ(line.back().second, 1.0);
    EXPECT_NEAR(line[line.size() / 2].second, 0.5, 0.01);
}
