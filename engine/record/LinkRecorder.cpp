#include "record/LinkRecorder.h"

#include "record/LinkGroups.h"

#include <algorithm>

namespace astrolabe {

namespace {
// A dense N x N matrix above this many NPUs would cost more memory than it is worth.
constexpr int kMaxTrafficMatrixNpus = 2048;
} // namespace

LinkRecorder::LinkRecorder(int linkCount, int npuCount, bool enabled, bool keepIntervals)
    : m_enabled(enabled)
    , m_keepIntervals(keepIntervals)
    , m_npus(npuCount)
    , m_stats(static_cast<size_t>(linkCount))
    , m_busyPs(static_cast<size_t>(linkCount)) {
    if (enabled && npuCount <= kMaxTrafficMatrixNpus)
        m_traffic.assign(static_cast<size_t>(npuCount) * static_cast<size_t>(npuCount), 0);
}

void LinkRecorder::growTo(SimTime end) {
    while (pastLastBucket(end)) {
        for (std::vector<float>& series : m_busyPs) {
            if (series.empty())
                continue;
            for (int i = 0; i < kBuckets / 2; ++i)
                series[i] = series[2 * i] + series[2 * i + 1];
            std::fill(series.begin() + kBuckets / 2, series.end(), 0.0f);
        }
        m_bucketPs *= 2;
    }
}

void LinkRecorder::add(int32_t link, SimTime start, SimTime end, uint64_t bytes) {
    LinkStats& s = m_stats[static_cast<size_t>(link)];
    s.bytes += bytes;
    s.messages += 1;
    s.busy += end - start;
    if (m_keepIntervals)
        m_intervals.push_back({start, end, link});
    if (end <= start)
        return;
    if (pastLastBucket(end))
        growTo(end);
    std::vector<float>& series = m_busyPs[static_cast<size_t>(link)];
    if (series.empty())
        series.assign(kBuckets, 0.0f);
    int64_t t = start.ps();
    while (t < end.ps()) {
        const int64_t bucket = t / m_bucketPs;
        // The bucket's end, without computing (bucket + 1) * m_bucketPs: past the interval's end
        // it could pass int64 near the end of the simulated clock.
        const int64_t toBucketEnd = m_bucketPs - t % m_bucketPs;
        const int64_t until = end.ps() - t <= toBucketEnd ? end.ps() : t + toBucketEnd;
        series[static_cast<size_t>(bucket)] += static_cast<float>(until - t);
        t = until;
    }
}

void LinkRecorder::addTraffic(int src, int dst, uint64_t bytes) {
    if (!m_traffic.empty())
        m_traffic[static_cast<size_t>(src) * static_cast<size_t>(m_npus) +
                  static_cast<size_t>(dst)] += bytes;
}

void LinkRecorder::expandSymmetric(const std::vector<int>& classOfLink, int classCount,
                                   const std::function<int(int, int)>& translate) {
    const auto classes = static_cast<size_t>(classCount);
    std::vector<LinkStats> sum(classes);
    std::vector<std::vector<float>> series(classes);
    std::vector<int> members(classes, 0);
    for (size_t l = 0; l < m_stats.size(); ++l) {
        const auto c = static_cast<size_t>(classOfLink[l]);
        ++members[c];
        sum[c].bytes += m_stats[l].bytes;
        sum[c].messages += m_stats[l].messages;
        sum[c].busy += m_stats[l].busy;
        if (m_busyPs[l].empty())
            continue;
        series[c].resize(kBuckets, 0.0f);
        for (int b = 0; b < kBuckets; ++b)
            series[c][static_cast<size_t>(b)] += m_busyPs[l][static_cast<size_t>(b)];
    }
    for (size_t l = 0; l < m_stats.size(); ++l) {
        const auto c = static_cast<size_t>(classOfLink[l]);
        const double factor = static_cast<double>(m_npus) / members[c];
        m_stats[l].bytes = static_cast<uint64_t>(static_cast<double>(sum[c].bytes) * factor);
        m_stats[l].messages = static_cast<uint64_t>(static_cast<double>(sum[c].messages) * factor);
        m_stats[l].busy = SimTime::fromPsRounded(static_cast<double>(sum[c].busy.ps()) * factor);
    }
    // Every link of a class carries the class's series: kept once, scaled as its links.
    for (size_t c = 0; c < classes; ++c) {
        const double factor = members[c] > 0 ? static_cast<double>(m_npus) / members[c] : 0.0;
        for (float& v : series[c])
            v = static_cast<float>(v * factor);
    }
    m_busyPs = std::move(series);
    m_seriesOfLink = classOfLink;
    if (m_traffic.empty())
        return;
    const std::vector<uint64_t> row0(m_traffic.begin(), m_traffic.begin() + m_npus);
    for (int r = 1; r < m_npus; ++r)
        for (int j = 0; j < m_npus; ++j)
            if (row0[static_cast<size_t>(j)] != 0)
                m_traffic[static_cast<size_t>(r) * static_cast<size_t>(m_npus) +
                          static_cast<size_t>(translate(r, j))] = row0[static_cast<size_t>(j)];
}

void LinkRecorder::expandOrbits(int orbitSize, const std::function<int(int, int)>& mapLink,
                                const std::function<int(int, int)>& mapNpu) {
    std::vector<LinkStats> stats(m_stats.size());
    std::vector<std::vector<float>> busy(m_busyPs.size());
    for (size_t l = 0; l < m_stats.size(); ++l) {
        if (m_stats[l].messages == 0 && m_busyPs[l].empty())
            continue;
        for (int k = 0; k < orbitSize; ++k) {
            const auto image = static_cast<size_t>(mapLink(k, static_cast<int>(l)));
            stats[image].bytes += m_stats[l].bytes;
            stats[image].messages += m_stats[l].messages;
            stats[image].busy += m_stats[l].busy;
            if (m_busyPs[l].empty())
                continue;
            busy[image].resize(kBuckets, 0.0f);
            for (size_t b = 0; b < static_cast<size_t>(kBuckets); ++b)
                busy[image][b] += m_busyPs[l][b];
        }
    }
    m_stats = std::move(stats);
    m_busyPs = std::move(busy);
    if (m_keepIntervals) {
        const size_t count = m_intervals.size();
        m_intervals.reserve(count * static_cast<size_t>(orbitSize));
        for (int k = 1; k < orbitSize; ++k)
            for (size_t i = 0; i < count; ++i) {
                LinkBusyInterval copy = m_intervals[i];
                copy.link = mapLink(k, copy.link);
                m_intervals.push_back(copy);
            }
    }
    if (m_traffic.empty())
        return;
    const auto n = static_cast<size_t>(m_npus);
    std::vector<uint64_t> traffic(m_traffic.size(), 0);
    for (size_t src = 0; src < n; ++src)
        for (size_t dst = 0; dst < n; ++dst) {
            const uint64_t bytes = m_traffic[src * n + dst];
            if (bytes == 0)
                continue;
            for (int k = 0; k < orbitSize; ++k)
                traffic[static_cast<size_t>(mapNpu(k, static_cast<int>(src))) * n +
                        static_cast<size_t>(mapNpu(k, static_cast<int>(dst)))] += bytes;
        }
    m_traffic = std::move(traffic);
}

void LinkRecorder::finish(RunResult& result, int dimensionCount) {
    // The buckets must span the run, not only the last busy interval: a run whose links fall
    // idle early (a compute tail) would otherwise get a series, and a utilization chart, that
    // stops at 512 small buckets.
    if (pastLastBucket(result.endTime))
        growTo(result.endTime);
    result.linkStats = m_stats;
    result.seriesBucket = SimTime::fromPs(m_bucketPs);
    const int64_t endPs = result.endTime.ps();
    const int64_t used = std::max<int64_t>(1, endPs / m_bucketPs + (endPs % m_bucketPs != 0));
    const size_t buckets = static_cast<size_t>(std::min<int64_t>(used, kBuckets));
    const auto busyOf = [&](size_t l) -> const std::vector<float>& {
        return m_busyPs[m_seriesOfLink.empty() ? l : static_cast<size_t>(m_seriesOfLink[l])];
    };
    if (m_stats.size() > kLinkDetailLimit && result.links.size() == m_stats.size()) {
        // Past the detail limit only the groups are made (record/LinkGroups.h): never the
        // per-link series of hundreds of thousands of links.
        result.linkSeries.clear();
        result.linkGroupSeries = groupLinkSeries(
            result.links, buckets, kLinkGroupsPerDimension,
            [&](size_t l) -> const std::vector<float>* {
                const std::vector<float>& busy = busyOf(l);
                return busy.empty() ? nullptr : &busy;
            },
            1.0 / static_cast<double>(m_bucketPs));
    } else {
        result.linkSeries.assign(m_stats.size(), {});
        for (size_t l = 0; l < m_stats.size(); ++l) {
            const std::vector<float>& busy = busyOf(l);
            std::vector<float>& out = result.linkSeries[l];
            out.assign(buckets, 0.0f);
            if (busy.empty())
                continue;
            for (size_t b = 0; b < buckets; ++b)
                out[b] =
                    static_cast<float>(std::min(1.0, busy[b] / static_cast<double>(m_bucketPs)));
        }
    }
    std::sort(m_intervals.begin(), m_intervals.end(),
              [](const LinkBusyInterval& a, const LinkBusyInterval& b) {
                  return a.link != b.link ? a.link < b.link : a.start < b.start;
              });
    result.linkIntervals = std::move(m_intervals);
    result.trafficBytes = std::move(m_traffic);

    // A dimension's busy time is its links' mean: their sum, link-time, passes the simulated
    // clock in a long run of many links (2^20 links busy 9 s), so it is summed in 128 bits.
    const auto dims = static_cast<size_t>(dimensionCount);
    result.dimensions.assign(dims, {});
    std::vector<int64_t> linksPerDim(dims, 0);
    std::vector<__int128> busyPs(dims, 0);
    for (size_t l = 0; l < result.links.size(); ++l) {
        const auto d = static_cast<size_t>(result.links[l].dimension);
        DimensionStats& ds = result.dimensions[d];
        ds.bytes += m_stats[l].bytes;
        busyPs[d] += m_stats[l].busy.ps();
        ds.peakBandwidthBytesPerSecond += result.links[l].bandwidthBytesPerSecond;
        ++linksPerDim[d];
    }
    for (size_t d = 0; d < dims; ++d) {
        DimensionStats& ds = result.dimensions[d];
        ds.dimension = static_cast<int>(d);
        if (linksPerDim[d] == 0)
            continue;
        const __int128 links = linksPerDim[d];
        ds.busy = SimTime::fromPs(static_cast<int64_t>((busyPs[d] + links / 2) / links));
        const double capacity = static_cast<double>(links) * static_cast<double>(endPs);
        ds.utilization = capacity > 0 ? static_cast<double>(busyPs[d]) / capacity : 0.0;
    }
}

} // namespace astrolabe
