#pragma once
// The request timeline's picture: one row per request (in arrival order), its phases as
// horizontal spans: queueing (arrival to its first iteration), prefill (to its first token), KV
// transfer (P/D: to the decode replica's queue) and decode (to its last token). Rows are
// painted straight into an image, one pass per phase, so a pixel row that holds many requests
// (100,000 requests on 1,000 pixel rows) costs one write per covered pixel rather than one
// rectangle per request; later passes (transfer, then queueing) stay visible over decode.
//
// Pure apart from QImage: the mapping of rows to pixel rows and the hit test are functions,
// unit-tested with exact expectations.

#include "serving/ServingResult.h"
#include "timeline/TimeMapper.h"

#include <QColor>
#include <QImage>
#include <cstdint>
#include <utility>
#include <vector>

namespace astrolabe::widgets {

enum class RequestPhase : uint8_t { Queueing, Prefill, Transfer, Decode };
inline constexpr int kRequestPhases = 4;
const char* requestPhaseName(RequestPhase phase); ///< "queueing", "prefill", ...
QColor requestPhaseColor(RequestPhase phase);

/// Seconds to the timeline's picoseconds (rounded).
int64_t secondsToPs(double seconds);

/// A phase's span of one request in seconds; empty (begin >= end) when it has none.
struct PhaseInterval {
    double begin = 0;
    double end = 0;
};
/// `runEnd`: where the spans of a request that never finished end.
PhaseInterval phaseSpan(const serving::RequestRecord& r, RequestPhase phase, double runEnd);

/// Which requests are shown: rows [first, first + count) over `height` pixel rows.
struct RowWindow {
    int first = 0;
    int count = 1;
    /// The pixel rows [top, bottom) of row `row`: at least one pixel, rows that share a pixel
    /// row share it.
    std::pair<int, int> pixels(int row, int height) const;
    /// The rows [first, last) drawn on pixel row y (several when rows outnumber pixels).
    std::pair<int, int> rowsAt(int y, int height) const;
    bool operator==(const RowWindow&) const = default;
};

/// Paints the rows of `window` over the time window of `mapper` (x relative to the image's
/// left edge) into `image` (a 32-bit format: RGB32 or ARGB32), cleared to `background` first.
/// Requests must be in arrival order (they are: a run records them as they arrive).
void paintRequestRows(const std::vector<serving::RequestRecord>& requests, double runEnd,
                      const TimeMapper& mapper, const RowWindow& window, QImage& image,
                      QColor background);

/// The request under (x, y) of the image, or -1: among the rows drawn on pixel row y, the one
/// whose [arrival, last token] holds the time under x, else the one closest to it within
/// three pixels.
int requestAt(const std::vector<serving::RequestRecord>& requests, double runEnd,
              const TimeMapper& mapper, const RowWindow& window, int height, double x, int y);

} // namespace astrolabe::widgets
