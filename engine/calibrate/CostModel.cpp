#include "calibrate/CostModel.h"

#include "core/Units.h"

#include <algorithm>
#include <cmath>

namespace astrolabe {

double ringSteps(NcclCollective collective, int ranks) {
    switch (collective) {
    case NcclCollective::AllReduce:
        return 2.0 * (ranks - 1);
    case NcclCollective::SendRecv:
        return 1;
    default:
        return ranks - 1.0;
    }
}

double reducedFraction(NcclCollective collective, int ranks) {
    const bool reduces =
        collective == NcclCollective::AllReduce || collective == NcclCollective::ReduceScatter;
    return reduces ? (ranks - 1.0) / ranks : 0.0;
}

std::string regimeText(const RegimeCost& r) {
    // A term that adds under 1 ps to a 1 MiB message (a link above 1,000 TB/s) is stated as
    // absent: NLopt or the least squares may leave a bandwidth or fill term a hair above 0 in a
    // regime that is a latency floor, and no link has such a bandwidth.
    constexpr double kMiB = 1048576.0;
    const bool bandwidth = r.usPerBusByte * kMiB >= 1e-6;
    const bool fill = r.usPerRootBusByte * std::sqrt(kMiB) >= 1e-6;
    std::string out = "alpha " + units::formatPlain(r.alphaUs, 4) + " us, per step " +
                      units::formatPlain(r.stepUs, 4) + " us, ";
    if (bandwidth)
        out += "ring link " + units::formatPlain(1e-3 / r.usPerBusByte, 4) + " GB/s";
    else
        out += fill ? "no bandwidth term" : "no bandwidth term (a latency floor)";
    if (fill)
        out += ", fill " + units::formatPlain(r.usPerRootBusByte * 1e3, 4) + " ns x sqrt(bytes)";
    return out;
}

std::string thresholdText(uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    return units::formatScaled(b, units::sizeScale(b), 3);
}

size_t CostModel::regimeOf(uint64_t sizeBytes) const {
    return static_cast<size_t>(
        std::upper_bound(thresholdBytes.begin(), thresholdBytes.end(), sizeBytes) -
        thresholdBytes.begin());
}

double CostModel::timeUs(NcclCollective collective, int ranks, uint64_t sizeBytes) const {
    const OwnRegimes& o = own[static_cast<size_t>(collective)];
    const RegimeCost* r = nullptr;
    double factor = factorOf(collective), latency = latencyOf(collective);
    if (!o.fitted) {
        const size_t k = regimeOf(sizeBytes);
        r = &regimes.at(k);
        latency = k + 1 == regimes.size() ? latency : 0;
    } else if (sizeBytes >= o.lastFrom) {
        r = &regimes.back();
    } else { // its own regime, fitted with f = 1 and l = 0
        r = &o.regimes.at(static_cast<size_t>(
            std::upper_bound(o.thresholdBytes.begin(), o.thresholdBytes.end(), sizeBytes) -
            o.thresholdBytes.begin()));
        factor = 1;
        latency = 0;
    }
    const double s = static_cast<double>(sizeBytes);
    const double bus = ncclBusFactor(collective, ranks) * s;
    return r->alphaUs + latency + ringSteps(collective, ranks) * r->stepUs +
           bus * r->usPerBusByte / factor + std::sqrt(bus) * r->usPerRootBusByte +
           reducedFraction(collective, ranks) * s * reduceUsPerByte;
}

double CostModel::lastRegimeTimeUs(NcclCollective collective, int ranks, uint64_t sizeBytes) const {
    const RegimeCost& r = regimes.back();
    const double s = static_cast<double>(sizeBytes);
    const double bus = ncclBusFactor(collective, ranks) * s;
    return r.alphaUs + latencyOf(collective) + ringSteps(collective, ranks) * r.stepUs +
           bus * r.usPerBusByte / factorOf(collective) +
           reducedFraction(collective, ranks) * s * reduceUsPerByte;
}

double CostModel::busBandwidthGBps(NcclCollective collective, int ranks, uint64_t sizeBytes) const {
    const double t = timeUs(collective, ranks, sizeBytes);
    return t > 0 ? ncclBusFactor(collective, ranks) * static_cast<double>(sizeBytes) / (t * 1e3)
                 : 0;
}

std::vector<CalibrationPoint> calibrationPoints(const std::vector<NcclRun>& runs) {
    std::vector<CalibrationPoint> out;
    for (size_t f = 0; f < runs.size(); ++f)
        for (const NcclRow& row : runs[f].rows) {
            if (row.sizeBytes == 0)
                continue;
            for (const double t : {row.outOfPlaceUs, row.inPlaceUs})
                if (std::isfinite(t) && t > 0)
                    out.push_back({runs[f].collective, runs[f].ranks, row.sizeBytes, t,
                                   static_cast<int>(f), row.line});
        }
    return out;
}

std::vector<CalibrationPoint> mergeRepeats(const std::vector<CalibrationPoint>& points) {
    std::vector<CalibrationPoint> out;
    std::vector<std::vector<double>> times;
    for (const CalibrationPoint& p : points) {
        const auto same = [&p](const CalibrationPoint& q) {
            return q.collective == p.collective && q.ranks == p.ranks && q.sizeBytes == p.sizeBytes;
        };
        const auto it = std::find_if(out.begin(), out.end(), same);
        if (it == out.end()) {
            out.push_back(p);
            times.push_back({p.timeUs});
        } else {
            times[static_cast<size_t>(it - out.begin())].push_back(p.timeUs);
        }
    }
    for (size_t i = 0; i < out.size(); ++i) {
        std::vector<double>& t = times[i];
        std::sort(t.begin(), t.end());
        const size_t n = t.size();
        out[i].timeUs = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    }
    return out;
}

} // namespace astrolabe
