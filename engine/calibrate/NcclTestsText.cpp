// Writing a run in nccl-tests' text layout: what the self-check feeds back to the reader, and a
// way to hand a simulated platform's numbers to tools made for nccl-tests output.
#include "calibrate/NcclTests.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace astrolabe {
namespace {

std::string printed(const char* format, auto... values) {
    char buffer[256];
    const int n = std::snprintf(buffer, sizeof buffer, format, values...);
    return std::string(buffer, n > 0 ? static_cast<size_t>(n) : 0);
}

/// The type as one word (a CSV may have given "float 32" or nothing).
std::string typeWord(const std::string& type) {
    std::string out = type.empty() ? "float" : type.substr(0, 32);
    for (char& c : out)
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '%')
            c = '_';
    return out;
}

} // namespace

std::string ncclTestsText(const NcclRun& run, const std::string& host) {
    bool inPlace = !run.rows.empty();
    uint64_t minBytes = UINT64_MAX, maxBytes = 0;
    for (const NcclRow& r : run.rows) {
        inPlace = inPlace && !std::isnan(r.inPlaceUs);
        minBytes = std::min(minBytes, r.sizeBytes);
        maxBytes = std::max(maxBytes, r.sizeBytes);
    }
    const std::string program = std::string(ncclCollectiveName(run.collective)) + "_perf";
    std::string out = "# Collective test starting: " + program + "\n";
    out += printed("# nThread 1 nGpus 1 minBytes %llu maxBytes %llu step: 2(factor) warmup "
                   "iters: 0 iters: 1 agg iters: 1 validation: 0 graph: 0\n#\n# Using devices\n",
                   static_cast<unsigned long long>(run.rows.empty() ? 0 : minBytes),
                   static_cast<unsigned long long>(maxBytes));
    for (int r = 0; r < run.ranks; ++r)
        out += printed("#  Rank %2d Group  0 Pid %6d on %10s device %2d [0x00] simulated NPU\n", r,
                       r, host.c_str(), r);
    if (!run.version.empty())
        out += run.version + "\n";
    out += "#\n#                                                              out-of-place";
    out += inPlace ? "                       in-place\n" : "\n";
    out += "#       size         count      type   redop    root     time   algbw   busbw #wrong";
    out += inPlace ? "     time   algbw   busbw #wrong\n" : "\n";
    out += "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)";
    out += inPlace ? "            (us)  (GB/s)  (GB/s)\n" : "\n";
    const bool reduces = run.collective == NcclCollective::AllReduce ||
                         run.collective == NcclCollective::ReduceScatter;
    for (const NcclRow& r : run.rows) {
        out += printed("%12llu  %12llu  %8s  %6s  %6d  %9.3f  %6.2f  %6.2f  %5d",
                       static_cast<unsigned long long>(r.sizeBytes),
                       static_cast<unsigned long long>(r.count), typeWord(r.type).c_str(),
                       reduces ? "sum" : "none", -1, r.outOfPlaceUs, r.outOfPlaceAlgGBps,
                       r.outOfPlaceBusGBps, 0);
        if (inPlace)
            out += printed("  %9.3f  %6.2f  %6.2f  %5d", r.inPlaceUs, r.inPlaceAlgGBps,
                           r.inPlaceBusGBps, 0);
        out += "\n";
    }
    out += "# Out of bounds values : 0 OK\n#\n# Collective test concluded: " + program + "\n";
    return out;
}

} // namespace astrolabe
