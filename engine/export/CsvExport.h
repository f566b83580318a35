#pragma once
// CSV exports of a RunResult: one row per NPU, per collective span, per link. RFC 4180 style
// (comma separated, a header row, text fields quoted when needed). Times are nanoseconds written
// as exact decimals (picosecond resolution); sizes are bytes.

#include "record/RunResult.h"

#include <iosfwd>

namespace astrolabe {

/// npu,finished,finish_ns,gpu_time_ns,cpu_time_ns,exposed_comm_ns,wall_ns,compute_ns,comm_ns,
/// cpu_ns,remote_mem_ns,invalid_ns,overlap_ns,idle_ns,peak_memory_bytes
void writeNpuCsv(std::ostream& out, const RunResult& result);
/// npu,node_id,type,size_bytes,chunks,comm_group,start_ns,end_ns,duration_ns
void writeCollectiveCsv(std::ostream& out, const RunResult& result);
/// link,src,dst,dimension,bandwidth_bytes_per_s,bytes,messages,busy_ns,utilization
/// (utilization = busy / end time)
void writeLinkCsv(std::ostream& out, const RunResult& result);

} // namespace astrolabe
