#include "timeline/TimelineGeometry.h"

#include "timeline/ColorKey.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

Lane laneOf(const ActivityInterval& activity) {
    return activity.kind == ActivityKind::Communication ? Lane::Communication : Lane::Work;
}

LaneBand laneBand(int rowTop, int rowHeight, Lane lane) {
    const int inner = std::max(rowHeight - 4, 3);
    const int barHeight = std::max(inner * 4 / 11, 1);
    const int top = rowTop + 2;
    switch (lane) {
    case Lane::Work:
        return {top, barHeight};
    case Lane::Communication:
        return {top + barHeight + 1, barHeight};
    case Lane::Phase:
        return {top + 2 * barHeight + 2, std::max(inner - 2 * barHeight - 2, 1)};
    }
    return {top, barHeight};
}

int laneAt(int rowTop, int rowHeight, int y) {
    for (int lane = 0; lane < kLaneCount; ++lane) {
        const LaneBand band = laneBand(rowTop, rowHeight, static_cast<Lane>(lane));
        if (y >= band.top && y < band.top + band.height)
            return lane;
    }
    return -1;
}

void RunMerger::add(double x0, double x1, uint8_t key) {
    const bool narrow = x1 - x0 < 1.0;
    if (m_pending) {
        if (key == m_run.key && (x0 <= m_run.x1 || (narrow && x0 < m_run.x1 + 1.0))) {
            m_run.x1 = std::max(m_run.x1, static_cast<float>(narrow ? std::floor(x0) + 1.0 : x1));
            m_run.x1 = std::max(m_run.x1, static_cast<float>(x1));
            ++m_run.count;
            return;
        }
        if (narrow && x0 < m_run.x1) {
            // Its pixel column is already drawn by the pending run.
            ++m_run.count;
            return;
        }
        flush();
    }
    m_pending = true;
    if (narrow) {
        const double column = std::floor(x0);
        m_run = {static_cast<float>(column), static_cast<float>(std::max(x1, column + 1.0)), key,
                 m_lane, 1};
    } else {
        m_run = {static_cast<float>(x0), static_cast<float>(x1), key, m_lane, 1};
    }
}

void RunMerger::flush() {
    if (m_pending)
        m_out.push_back(m_run);
    m_pending = false;
}

void buildNpuRow(const TimelineSource& source, int npu, const TimeMapper& mapper,
                 const TimelineOverlay& overlay, RowGeometry& out) {
    out = RowGeometry{};
    const int64_t t0 = mapper.t0();
    const int64_t t1 = mapper.t1();
    RunMerger work(out.runs, static_cast<uint8_t>(Lane::Work));
    RunMerger comm(out.runs, static_cast<uint8_t>(Lane::Communication));
    RunMerger criticalWork(out.overlays, static_cast<uint8_t>(Lane::Work));
    RunMerger criticalComm(out.overlays, static_cast<uint8_t>(Lane::Communication));
    RunMerger matchWork(out.overlays, static_cast<uint8_t>(Lane::Work));
    RunMerger matchComm(out.overlays, static_cast<uint8_t>(Lane::Communication));

    static const std::vector<uint64_t> kNone;
    const std::vector<uint64_t>& critical =
        overlay.showCritical && npu >= 0 && static_cast<size_t>(npu) < overlay.criticalByNpu.size()
            ? overlay.criticalByNpu[npu]
            : kNone;
    const std::vector<bool>& matches = overlay.nameMatches;

    const ActivityWindow window = source.activities(npu, t0, t1);
    for (size_t i = 0; i < window.items.size(); ++i) {
        const ActivityInterval& a = window.items[i];
        if (a.end.ps() <= t0 && a.start.ps() < t0)
            continue;
        const double x0 = mapper.timeToX(std::max(a.start.ps(), t0));
        const double x1 = mapper.timeToX(std::min(a.end.ps(), t1));
        const bool isComm = laneOf(a) == Lane::Communication;
        (isComm ? comm : work).add(x0, x1, window.colorKeys[i]);
        ++out.itemCount;
        if (!critical.empty() && std::binary_search(critical.begin(), critical.end(), a.nodeId))
            (isComm ? criticalComm : criticalWork).add(x0, x1, colorkey::Critical);
        if (a.nameIndex < matches.size() && matches[a.nameIndex])
            (isComm ? matchComm : matchWork).add(x0, x1, colorkey::SearchMatch);
    }
    for (RunMerger* merger : {&work, &comm, &criticalWork, &criticalComm, &matchWork, &matchComm})
        merger->flush();

    RunMerger phases(out.runs, static_cast<uint8_t>(Lane::Phase));
    for (const PhaseSpan& p : source.phases(npu, t0, t1).items) {
        if (p.end.ps() <= t0)
            continue;
        phases.add(mapper.timeToX(std::max(p.start.ps(), t0)),
                   mapper.timeToX(std::min(p.end.ps(), t1)),
                   colorkey::forPhase(p.phaseKind, p.phase + p.chunk));
    }
    phases.flush();
    out.finishX = static_cast<float>(mapper.timeToX(std::clamp(source.rowFinishPs(npu), t0, t1)));
}

void buildGroupRow(const TimelineSource& source, int firstNpu, int npuCount,
                   const TimeMapper& mapper, RowGeometry& out) {
    out = RowGeometry{};
    const int width = std::max(1, static_cast<int>(std::ceil(mapper.width())));
    const int64_t t0 = mapper.t0();
    const int64_t t1 = mapper.t1();
    const double pixelsPerPs = mapper.width() / static_cast<double>(mapper.spanPs());
    // busy[lane][column] in column units; full interior columns go through a difference array
    // so that a long interval costs O(1), not O(columns).
    std::vector<double> busy(2 * static_cast<size_t>(width), 0.0);
    std::vector<double> full(2 * (static_cast<size_t>(width) + 1), 0.0);
    int64_t lastFinish = t0;
    for (int npu = firstNpu; npu < firstNpu + npuCount; ++npu) {
        lastFinish = std::max(lastFinish, source.rowFinishPs(npu));
        const ActivityWindow window = source.activities(npu, t0, t1);
        for (const ActivityInterval& a : window.items) {
            if (a.end.ps() <= t0)
                continue;
            const size_t lane = laneOf(a) == Lane::Communication ? 1 : 0;
            double* laneBusy = busy.data() + lane * width;
            double* laneFull = full.data() + lane * (width + 1);
            const double from = static_cast<double>(std::max(a.start.ps(), t0) - t0) * pixelsPerPs;
            const double to = static_cast<double>(std::min(a.end.ps(), t1) - t0) * pixelsPerPs;
            const int c0 = std::clamp(static_cast<int>(from), 0, width - 1);
            const int c1 = std::clamp(static_cast<int>(to), 0, width - 1);
            ++out.itemCount;
            if (c0 == c1) {
                laneBusy[c0] += to - from;
                continue;
            }
            laneBusy[c0] += c0 + 1 - from;
            laneBusy[c1] += to - c1;
            laneFull[c0 + 1] += 1.0;
            laneFull[c1] -= 1.0;
        }
    }
    out.densityWidth = width;
    out.density.resize(2 * static_cast<size_t>(width));
    for (size_t lane = 0; lane < 2; ++lane) {
        double running = 0;
        for (int c = 0; c < width; ++c) {
            running += full[lane * (width + 1) + c];
            const double occupancy = (busy[lane * width + c] + running) / npuCount;
            out.density[lane * width + c] =
                static_cast<uint8_t>(std::lround(255.0 * std::clamp(occupancy, 0.0, 1.0)));
        }
    }
    out.finishX = static_cast<float>(mapper.timeToX(std::clamp(lastFinish, t0, t1)));
}

GroupHistogram buildGroupHistogram(const TimelineSource& source, int firstNpu, int npuCount,
                                   int buckets) {
    GroupHistogram h;
    h.beginPs = source.beginPs();
    h.buckets = std::max(buckets, 1);
    h.npuCount = npuCount;
    const int64_t span = std::max<int64_t>(source.endPs() - h.beginPs, 1);
    h.bucketPs = static_cast<double>(span) / h.buckets;
    const size_t n = static_cast<size_t>(h.buckets);
    std::vector<double> busy[2] = {std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)};
    std::vector<double> full[2] = {std::vector<double>(n + 1, 0.0),
                                   std::vector<double>(n + 1, 0.0)};
    const int64_t end = h.beginPs + span;
    for (int npu = firstNpu; npu < firstNpu + npuCount; ++npu) {
        h.lastFinishPs = std::max(h.lastFinishPs, source.rowFinishPs(npu));
        for (const ActivityInterval& a : source.activities(npu, h.beginPs, end).items) {
            const size_t lane = laneOf(a) == Lane::Communication ? 1 : 0;
            const double from =
                static_cast<double>(std::max(a.start.ps(), h.beginPs) - h.beginPs) / h.bucketPs;
            const double to =
                static_cast<double>(std::min(a.end.ps(), end) - h.beginPs) / h.bucketPs;
            if (!(to > from))
                continue;
            const int b0 = std::clamp(static_cast<int>(from), 0, h.buckets - 1);
            const int b1 = std::clamp(static_cast<int>(to), 0, h.buckets - 1);
            if (b0 == b1) {
                busy[lane][b0] += to - from;
                continue;
            }
            busy[lane][b0] += b0 + 1 - from;
            busy[lane][b1] += to - b1;
            full[lane][b0 + 1] += 1.0;
            full[lane][b1] -= 1.0;
        }
    }
    for (int lane = 0; lane < 2; ++lane) {
        h.prefix[lane].assign(n + 1, 0.0);
        double running = 0;
        for (size_t b = 0; b < n; ++b) {
            running += full[lane][b];
            h.prefix[lane][b + 1] = h.prefix[lane][b] + busy[lane][b] + running;
        }
    }
    return h;
}

void groupRowFromHistogram(const GroupHistogram& h, const TimeMapper& mapper, RowGeometry& out) {
    out = RowGeometry{};
    const int width = std::max(1, static_cast<int>(std::ceil(mapper.width())));
    out.densityWidth = width;
    out.density.assign(2 * static_cast<size_t>(width), 0);
    const double psPerPixel = mapper.psPerPixel();
    const double origin = static_cast<double>(mapper.t0() - h.beginPs) / h.bucketPs;
    const double bucketsPerColumn = psPerPixel / h.bucketPs;
    // Busy NPU-buckets before fractional bucket position x.
    const auto at = [&h](int lane, double x) {
        x = std::clamp(x, 0.0, static_cast<double>(h.buckets));
        const int b = std::min(static_cast<int>(x), h.buckets - 1);
        const double inside = h.prefix[lane][b + 1] - h.prefix[lane][b];
        return h.prefix[lane][b] + (x - b) * inside;
    };
    for (int lane = 0; lane < 2; ++lane) {
        double previous = at(lane, origin);
        for (int c = 0; c < width; ++c) {
            const double next = at(lane, origin + (c + 1) * bucketsPerColumn);
            const double occupancy = (next - previous) / (bucketsPerColumn * h.npuCount);
            out.density[static_cast<size_t>(lane) * width + c] =
                static_cast<uint8_t>(std::lround(255.0 * std::clamp(occupancy, 0.0, 1.0)));
            previous = next;
        }
    }
    out.finishX =
        static_cast<float>(mapper.timeToX(std::clamp(h.lastFinishPs, mapper.t0(), mapper.t1())));
}

const GroupHistogram& TimelineGeometryCache::histogram(const TimelineSource& source, int firstNpu,
                                                       int npuCount) {
    if (m_histogramVersion != source.dataVersion() || m_histograms.size() >= kMaxHistograms) {
        m_histograms.clear();
        m_histogramVersion = source.dataVersion();
    }
    const int64_t key = (static_cast<int64_t>(firstNpu) << 32) | static_cast<uint32_t>(npuCount);
    auto it = m_histograms.find(key);
    if (it == m_histograms.end())
        it = m_histograms
                 .emplace(key, buildGroupHistogram(source, firstNpu, npuCount, kHistogramBuckets))
                 .first;
    return it->second;
}

int hitTestActivities(std::span<const ActivityInterval> items, Lane lane, int64_t t,
                      int64_t tolerancePs) {
    int containing = -1;
    int nearest = -1;
    int64_t nearestDistance = tolerancePs + 1;
    for (size_t i = 0; i < items.size(); ++i) {
        const ActivityInterval& a = items[i];
        if (laneOf(a) != lane)
            continue;
        const int64_t s = a.start.ps();
        const int64_t e = a.end.ps();
        if (s <= t && t < e) {
            containing = static_cast<int>(i);
            continue;
        }
        const int64_t distance = t < s ? s - t : t - e;
        if (distance < nearestDistance) {
            nearestDistance = distance;
            nearest = static_cast<int>(i);
        }
    }
    return containing >= 0 ? containing : nearest;
}

int hitTestPhases(std::span<const PhaseSpan> items, int64_t t, int64_t tolerancePs) {
    int containing = -1;
    int nearest = -1;
    int64_t nearestDistance = tolerancePs + 1;
    for (size_t i = 0; i < items.size(); ++i) {
        const int64_t s = items[i].start.ps();
        const int64_t e = items[i].end.ps();
        if (s <= t && t < e) {
            containing = static_cast<int>(i);
            continue;
        }
        const int64_t distance = t < s ? s - t : t - e;
        if (distance < nearestDistance) {
            nearestDistance = distance;
            nearest = static_cast<int>(i);
        }
    }
    return containing >= 0 ? containing : nearest;
}

RowGeometry& TimelineGeometryCache::row(const TimelineSource& source, const RowLayout& layout,
                                        int displayRow, const TimeMapper& mapper,
                                        const TimelineOverlay& overlay, uint64_t overlayVersion) {
    const Key key{mapper.t0(),          mapper.t1(),      mapper.left(), mapper.width(),
                  source.dataVersion(), layout.version(), overlayVersion};
    if (!(key == m_key)) {
        m_rows.clear();
        m_key = key;
    }
    auto it = m_rows.find(displayRow);
    if (it != m_rows.end())
        return it->second;
    RowGeometry& geometry = m_rows[displayRow];
    const DisplayRow& rowInfo = layout.rows().at(static_cast<size_t>(displayRow));
    if (rowInfo.kind == DisplayRow::Kind::Npu)
        buildNpuRow(source, rowInfo.firstNpu, mapper, overlay, geometry);
    else if (rowInfo.collapsed) {
        const double bucketPs =
            static_cast<double>(source.endPs() - source.beginPs()) / kHistogramBuckets;
        if (rowInfo.npuCount >= kHistogramMinNpus && mapper.psPerPixel() >= bucketPs)
            groupRowFromHistogram(histogram(source, rowInfo.firstNpu, rowInfo.npuCount), mapper,
                                  geometry);
        else
            buildGroupRow(source, rowInfo.firstNpu, rowInfo.npuCount, mapper, geometry);
    }
    ++m_builds;
    return geometry;
}

} // namespace astrolabe::widgets
