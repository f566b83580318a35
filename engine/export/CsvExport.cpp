#include "export/CsvExport.h"

#include "export/NumberFormat.h"

#include <ostream>

namespace astrolabe {

void writeNpuCsv(std::ostream& out, const RunResult& r) {
    out << "npu,finished,finish_ns,gpu_time_ns,cpu_time_ns,exposed_comm_ns,wall_ns,compute_ns,"
           "comm_ns,cpu_ns,remote_mem_ns,invalid_ns,overlap_ns,idle_ns,peak_memory_bytes\n";
    for (const NpuSummary& s : r.npus)
        out << s.npu << ',' << (s.finished ? 1 : 0) << ',' << nsText(s.finish) << ','
            << nsText(s.gpuTime) << ',' << nsText(s.cpuTime) << ',' << nsText(s.exposedComm) << ','
            << nsText(s.wall) << ',' << nsText(s.computeUnion) << ',' << nsText(s.commUnion) << ','
            << nsText(s.cpuUnion) << ',' << nsText(s.remoteMemUnion) << ','
            << nsText(s.invalidUnion) << ',' << nsText(s.overlap) << ',' << nsText(s.idle) << ','
            << s.peakMemoryBytes << '\n';
}

void writeCollectiveCsv(std::ostream& out, const RunResult& r) {
    out << "npu,node_id,type,size_bytes,chunks,comm_group,start_ns,end_ns,duration_ns\n";
    for (const CollectiveSpan& c : r.collectives)
        out << c.npu << ',' << c.nodeId << ',' << collectiveTypeName(c.type) << ',' << c.sizeBytes
            << ',' << c.chunks << ',' << c.commGroup << ',' << nsText(c.start) << ','
            << nsText(c.end) << ',' << nsText(c.end - c.start) << '\n';
}

void writeLinkCsv(std::ostream& out, const RunResult& r) {
    out << "link,src,dst,dimension,bandwidth_bytes_per_s,bytes,messages,busy_ns,utilization\n";
    const auto oldPrecision = out.precision(17);
    for (size_t i = 0; i < r.links.size(); ++i) {
        const LinkInfo& l = r.links[i];
        const LinkStats stats = i < r.linkStats.size() ? r.linkStats[i] : LinkStats{};
        const double utilization =
            r.endTime.ps() > 0 ? static_cast<double>(stats.busy.ps()) / r.endTime.ps() : 0.0;
        out << i << ',' << l.src << ',' << l.dst << ',' << l.dimension << ','
            << l.bandwidthBytesPerSecond << ',' << stats.bytes << ',' << stats.messages << ','
            << nsText(stats.busy) << ',' << utilization << '\n';
    }
    out.precision(oldPrecision);
}

} // namespace astrolabe
