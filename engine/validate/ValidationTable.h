#pragma once
// The validation pack's index (docs/validation.md): one row per published measurement, each
// naming the sweep file that sets up its platform and generated iteration, the figure measured
// on the real machine with its source, and the tolerance the prediction must meet.
//
// The index is projects/validation/rows.csv; the rows' setups are sweep files beside it
// (docs/sweeps.md, one point each), run by the same generator and engine as any sweep.

#include <string>
#include <vector>

namespace astrolabe::validate {

/// What a row's measured figure is.
enum class Metric {
    TflopsPerGpu,       ///< model TFLOP/s per GPU, Megatron's closed form (hardware FLOPs)
    TokensPerSecPerGpu, ///< global batch x sequence / (step time x GPUs)
    /// The last pipeline stage's memory per GPU at its peak (weights, gradients, optimizer
    /// states, activations in flight: generate/StageMemory.h), GiB; against PyTorch's max
    /// allocated on the last rank, the rank Megatron-LM logs memory from.
    PeakMemoryGib,
};
/// "tflops-per-gpu", "tokens-per-sec-per-gpu", "peak-memory-gib"
const char* metricName(Metric metric);

struct ValidationRow {
    std::string name;  ///< unique; --only NAME
    std::string table; ///< the published table the row belongs to ("megatron-table1")
    std::string setup; ///< the sweep file, relative to the index's folder
    Metric metric = Metric::TflopsPerGpu;
    double measured = 0;
    double tolerancePercent = 20; ///< |predicted - measured| / measured, at most
    std::string source;           ///< where the measured figure was published
    int line = 0;                 ///< the row's line in the index
};

/// Parses rows.csv text. Throws astrolabe::Error (Input) naming `file`, the line and the
/// column: a wrong header, a field count, a number that is not > 0, an unknown metric (the
/// valid names listed), a duplicate name.
std::vector<ValidationRow> parseValidationTable(const std::string& text, const std::string& file);

/// Reads and parses the index file (regular file, at most 1 MiB).
std::vector<ValidationRow> loadValidationTable(const std::string& path);

} // namespace astrolabe::validate
