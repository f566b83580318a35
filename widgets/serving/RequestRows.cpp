#include "serving/RequestRows.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace astrolabe::widgets {

const char* requestPhaseName(RequestPhase phase) {
    switch (phase) {
    case RequestPhase::Queueing:
        return "queueing";
    case RequestPhase::Prefill:
        return "prefill";
    case RequestPhase::Transfer:
        return "KV transfer";
    case RequestPhase::Decode:
        break;
    }
    return "decode";
}

QColor requestPhaseColor(RequestPhase phase) {
    // Colour-blind safe (Okabe-Ito): orange, blue, vermilion, bluish green.
    switch (phase) {
    case RequestPhase::Queueing:
        return QColor(0xe6, 0x9f, 0x00);
    case RequestPhase::Prefill:
        return QColor(0x00, 0x72, 0xb2);
    case RequestPhase::Transfer:
        return QColor(0xd5, 0x5e, 0x00);
    case RequestPhase::Decode:
        break;
    }
    return QColor(0x00, 0x9e, 0x73);
}

int64_t secondsToPs(double seconds) {
    return std::llround(seconds * 1e12);
}

PhaseInterval phaseSpan(const serving::RequestRecord& r, RequestPhase phase, double runEnd) {
    const double scheduled = r.firstScheduled >= 0 ? r.firstScheduled : runEnd;
    const double first = r.firstToken >= 0 ? r.firstToken : runEnd;
    const double last = r.lastToken >= 0 && r.finished() ? r.lastToken : runEnd;
    switch (phase) {
    case RequestPhase::Queueing:
        return {r.arrival, scheduled};
    case RequestPhase::Prefill:
        return {scheduled, first};
    case RequestPhase::Transfer:
        return r.transferStart >= 0 ? PhaseInterval{r.transferStart, r.transferEnd}
                                    : PhaseInterval{};
    case RequestPhase::Decode:
        break;
    }
    return {r.transferEnd >= 0 ? std::min(r.transferEnd, last) : first, last};
}

std::pair<int, int> RowWindow::pixels(int row, int height) const {
    const int64_t i = row - first;
    const int top = int(i * height / std::max(count, 1));
    const int bottom = int((i + 1) * height / std::max(count, 1));
    return {top, std::max(bottom, top + 1)};
}

std::pair<int, int> RowWindow::rowsAt(int y, int height) const {
    // Row r covers [floor(r h / c), max(floor((r + 1) h / c), top + 1)): the rows drawn on y are
    // those with top <= y < bottom.
    const int64_t c = std::max(count, 1);
    const int64_t h = std::max(height, 1);
    // Smallest r with floor((r + 1) h / c) > y, i.e. (r + 1) h >= (y + 1) c.
    int64_t lo = ((int64_t(y) + 1) * c + h - 1) / h - 1;
    // Largest r with floor(r h / c) <= y, i.e. r h < (y + 1) c.
    int64_t hi = ((int64_t(y) + 1) * c - 1) / h;
    lo = std::max<int64_t>(lo, 0);
    hi = std::min<int64_t>(hi, c - 1);
    // A row shorter than a pixel still owns the pixel of its top.
    while (lo > 0 && pixels(int(first + lo - 1), height).second > y)
        --lo;
    return {first + int(lo), first + int(std::max(hi + 1, lo))};
}

void paintRequestRows(const std::vector<serving::RequestRecord>& requests, double runEnd,
                      const TimeMapper& mapper, const RowWindow& window, QImage& image,
                      QColor background) {
    image.fill(background);
    const int width = image.width(), height = image.height();
    if (requests.empty() || width <= 0 || height <= 0)
        return;
    auto* bits = reinterpret_cast<uint32_t*>(image.bits());
    const qsizetype stride = image.bytesPerLine() / 4;
    const int first = std::clamp(window.first, 0, int(requests.size()));
    // Rows arriving after the window's end draw nothing: they are sorted by arrival.
    const double t1 = double(mapper.t1()) * 1e-12;
    const auto lastArrival = std::upper_bound(
        requests.begin() + first,
        requests.begin() +
            std::min<int64_t>(int64_t(requests.size()), int64_t(window.first) + window.count),
        t1, [](double t, const serving::RequestRecord& r) { return t < r.arrival; });
    const int last = int(lastArrival - requests.begin());
    // A gap between rows once they are 4 pixels or taller.
    const bool gap = height >= 4 * std::max(window.count, 1);
    // Pixel columns of every phase of every request in view, computed once; then one pass per
    // phase so that the rarer phases (transfer, queueing) are written last and stay visible.
    struct Spans {
        int top, bottom;
        int from[kRequestPhases], to[kRequestPhases];
    };
    std::vector<Spans> spans;
    spans.reserve(size_t(std::max(0, last - first)));
    const double t0 = double(mapper.t0()) * 1e-12;
    for (int i = first; i < last; ++i) {
        const serving::RequestRecord& r = requests[size_t(i)];
        Spans s;
        bool any = false;
        for (int p = 0; p < kRequestPhases; ++p) {
            const PhaseInterval span = phaseSpan(r, RequestPhase(p), runEnd);
            s.from[p] = s.to[p] = 0;
            if (!(span.end > span.begin) || span.end < t0)
                continue;
            const double x0 = mapper.timeToX(secondsToPs(span.begin));
            const double x1 = mapper.timeToX(secondsToPs(span.end));
            if (x1 <= 0 || x0 >= width)
                continue;
            s.from[p] = std::max(0, int(std::floor(x0)));
            s.to[p] = std::min(width, std::max(s.from[p] + 1, int(std::ceil(x1))));
            any = true;
        }
        if (!any)
            continue;
        std::tie(s.top, s.bottom) = window.pixels(i, height);
        s.bottom = std::min(gap ? s.bottom - 1 : s.bottom, height);
        spans.push_back(s);
    }
    for (RequestPhase phase : {RequestPhase::Decode, RequestPhase::Prefill, RequestPhase::Transfer,
                               RequestPhase::Queueing}) {
        const uint32_t color = requestPhaseColor(phase).rgba();
        const int p = int(phase);
        for (const Spans& s : spans) {
            if (s.to[p] <= s.from[p])
                continue;
            for (int y = s.top; y < s.bottom; ++y)
                std::fill(bits + y * stride + s.from[p], bits + y * stride + s.to[p], color);
        }
    }
}

int requestAt(const std::vector<serving::RequestRecord>& requests, double runEnd,
              const TimeMapper& mapper, const RowWindow& window, int height, double x, int y) {
    if (y < 0 || y >= height || requests.empty())
        return -1;
    auto [from, to] = window.rowsAt(y, height);
    from = std::max(from, 0);
    to = std::min(to, int(requests.size()));
    const double t = double(mapper.xToTime(x)) * 1e-12;
    const double slack = double(mapper.pixelsToDuration(3)) * 1e-12;
    int best = -1;
    double bestDistance = slack;
    for (int i = from; i < to; ++i) {
        const serving::RequestRecord& r = requests[size_t(i)];
        const double end = phaseSpan(r, RequestPhase::Decode, runEnd).end;
        const double distance = t < r.arrival ? r.arrival - t : (t > end ? t - end : 0);
        if (distance <= bestDistance && (best < 0 || distance < bestDistance)) {
            best = i;
            bestDistance = distance;
        }
        if (distance == 0)
            break;
    }
    return best;
}

} // namespace astrolabe::widgets
