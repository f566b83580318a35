#pragma once
// Per-link accounting during a run: bytes, messages and busy time, a utilization series with
// adaptive buckets, the NPU x NPU traffic matrix and (on request) exact busy intervals.
//
// The series starts with 1 ns buckets and doubles the width (merging pairs) whenever a busy
// interval ends past the last bucket, so it always holds at most kBuckets buckets whatever the
// run length; finish() widens them once more if the run ends later, so that they span the run.
// Cost per add: O(buckets the interval spans), usually 1-2.

#include "core/SimTime.h"
#include "record/RunResult.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace astrolabe {

class LinkRecorder {
public:
    static constexpr int kBuckets = 512;

    LinkRecorder(int linkCount, int npuCount, bool enabled, bool keepIntervals);

    bool enabled() const { return m_enabled; }
    void add(int32_t link, SimTime start, SimTime end, uint64_t bytes);
    void addTraffic(int src, int dst, uint64_t bytes);

    /// A symmetric run recorded one NPU's traffic: spread it over every link of each class
    /// (load(L) = N / |class| * sum of the recorded load on L's class) and every row of the
    /// traffic matrix (row r = row 0 translated by r).
    void expandSymmetric(const std::vector<int>& classOfLink, int classCount,
                         const std::function<int(int, int)>& translate);

    /// A folded run (simulation/RankFolding.h) recorded its representatives' traffic: every
    /// element k of the symmetry group (k in [0, orbitSize), 0 the identity) maps it onto the
    /// traffic of the NPUs k stands for; mapLink(k, l) and mapNpu(k, n) are k's action.
    void expandOrbits(int orbitSize, const std::function<int(int, int)>& mapLink,
                      const std::function<int(int, int)>& mapNpu);

    /// Moves everything into the result: linkStats, linkSeries, seriesBucket, linkIntervals,
    /// trafficBytes and per-dimension statistics (links must already be in result.links).
    void finish(RunResult& result, int dimensionCount);

private:
    /// Whether `end` lies past the last bucket (kBuckets * m_bucketPs, which need not fit in
    /// int64 near the end of the simulated clock, so it is not computed).
    bool pastLastBucket(SimTime end) const {
        return end.ps() > 0 && (end.ps() - 1) / kBuckets >= m_bucketPs;
    }
    void growTo(SimTime end);

    bool m_enabled;
    bool m_keepIntervals;
    int m_npus;
    std::vector<LinkStats> m_stats;
    /// Per series, per bucket (ps busy); empty until used. One series per link, or after
    /// expandSymmetric one per link class, shared by its links (m_seriesOfLink).
    std::vector<std::vector<float>> m_busyPs;
    /// Link -> its series in m_busyPs; empty: link l's is m_busyPs[l]. A symmetric run's links
    /// of one class carry the same series, copied once into the result, not once per link here
    /// as well (24,576 links x 512 buckets on a 16 x 16 x 16 torus: 50 MB).
    std::vector<int> m_seriesOfLink;
    int64_t m_bucketPs = 1000;
    std::vector<LinkBusyInterval> m_intervals;
    std::vector<uint64_t> m_traffic;
};

} // namespace astrolabe
