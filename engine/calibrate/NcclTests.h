#pragma once
// nccl-tests (and rccl-tests, which prints the same) results: what one run of all_reduce_perf,
// all_gather_perf, reduce_scatter_perf, alltoall_perf or sendrecv_perf measured, read from its
// text output or from a CSV table (docs/calibration.md gives both formats).
//
// Sizes are the "size" column, in bytes, as nccl-tests prints it: the whole buffer (for
// all-gather the gathered output, for reduce-scatter the input), so that
// algbw = size / time and busbw = algbw x the collective's bus factor (collectiveShape()).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe {

enum class NcclCollective : uint8_t { AllReduce, AllGather, ReduceScatter, AllToAll, SendRecv };
inline constexpr size_t kNcclCollectiveCount = 5;

/// The programs' names without "_perf": all_reduce, all_gather, reduce_scatter, alltoall,
/// sendrecv (the registry of collectives the reader accepts).
const std::vector<std::string>& ncclCollectiveNames();
const char* ncclCollectiveName(NcclCollective collective);
/// Accepts a name of ncclCollectiveNames(), with or without "_perf" (and "_mpi"), in any case,
/// with '-' for '_' or without separators ("allreduce"); nullopt otherwise.
std::optional<NcclCollective> ncclCollectiveFromName(std::string_view name);

/// nccl-tests' bus factor (its doc/PERFORMANCE.md): busbw = algbw x this. all_reduce 2(n-1)/n;
/// all_gather, reduce_scatter and alltoall (n-1)/n; sendrecv 1. `ranks` > 0.
double ncclBusFactor(NcclCollective collective, int ranks);

/// One table row: a message size and what both columns measured. A time or bandwidth the file
/// does not give (a CSV without in-place columns) is NaN.
struct NcclRow {
    uint64_t sizeBytes = 0;
    uint64_t count = 0;
    std::string type;
    double outOfPlaceUs = 0, outOfPlaceAlgGBps = 0, outOfPlaceBusGBps = 0;
    double inPlaceUs = 0, inPlaceAlgGBps = 0, inPlaceBusGBps = 0;
    uint64_t wrong = 0; ///< the #wrong columns' larger value: results the test found wrong
    int line = 0;       ///< 1-based line in the file
};

struct NcclRun {
    std::string file;
    NcclCollective collective = NcclCollective::AllReduce;
    int ranks = 0;       ///< GPUs in the communicator (the "Rank" lines)
    int nodes = 0;       ///< distinct host names among those lines; 0 when the file names none
    std::string version; ///< "NCCL version 2.27.5+cuda12.8", "RCCL version : 2.22.3", or empty
    std::string device;  ///< the first rank line's GPU ("NVIDIA H100 80GB HBM3"), or empty
    std::vector<NcclRow> rows;
};

/// Reads one run from text. `collective`, when given, names the program (a file whose header
/// says otherwise is an error); else the file's own lines ("Collective test starting: ...",
/// a command line) or its name must tell. CSV when `fileName` ends in ".csv" or the first line
/// that is not a comment is a header with a "size" column. Throws astrolabe::Error (Input)
/// naming the file and line: a row whose fields do not match the column header, a number that
/// is not one, no rows, no rank lines or a gap in them, a busbw/algbw ratio that contradicts the
/// collective, an algbw that is not size / time, a row whose results the test found wrong.
NcclRun parseNcclTests(std::string_view text, const std::string& fileName,
                       std::optional<NcclCollective> collective = std::nullopt);
/// The same from a file (a regular file of at most 64 MiB).
NcclRun readNcclTests(const std::string& path,
                      std::optional<NcclCollective> collective = std::nullopt);

/// The CSV form (called by parseNcclTests).
NcclRun parseNcclTestsCsv(std::string_view text, const std::string& fileName,
                          std::optional<NcclCollective> collective);

/// A run as nccl-tests prints it (header, device lines, table), times with three decimals so
/// that a simulated run keeps its nanoseconds; `host` names the node of every rank.
std::string ncclTestsText(const NcclRun& run, const std::string& host = "sim");

/// The largest file readNcclTests accepts (a full sweep is about 10 KiB; logs with NCCL_DEBUG
/// output run to megabytes).
inline constexpr uint64_t kMaxNcclTestsFileBytes = uint64_t{64} << 20;

} // namespace astrolabe
