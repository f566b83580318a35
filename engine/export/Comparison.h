#pragma once
// The maths of comparing runs, shared by `astrolabe-cli compare` and the GUI's Compare tab so
// that both print the same numbers: settings flattened to key -> text rows, metric rows computed
// from RunResults, ratios against a baseline, and the detection of a one-setting sweep.

#include "record/RunResult.h"
#include "spec/SimulationSpec.h"

#include <optional>
#include <string>
#include <vector>

namespace astrolabe {

/// One flattened setting: "dim0.bandwidth" -> "50 GiB/s" (numeric 53687091200).
struct SettingValue {
    std::string key;               ///< stable, dotted ("platform.dim0.bandwidth")
    std::string label;             ///< for people ("dimension 0 bandwidth")
    std::string text;              ///< the value as shown
    std::optional<double> numeric; ///< set for numbers (in the base unit: B/s, ns, B, count)
    bool derived = false;          ///< follows from other settings (NPU count): never a sweep axis
};

/// The spec as ordered rows (platform, system, workload, options). The run name is not a
/// setting and is left out.
std::vector<SettingValue> flattenSpec(const SimulationSpec& spec);

/// One setting across runs: the texts per run (empty when a run lacks the key).
struct SettingRow {
    std::string key;
    std::string label;
    std::vector<std::string> texts;
    std::vector<std::optional<double>> numeric;
    bool derived = false;
    bool differs = false;
};
std::vector<SettingRow> compareSettings(const std::vector<SimulationSpec>& specs);

/// When the runs differ in exactly one non-derived setting and it is numeric in every run: that
/// row (the sweep axis). Otherwise nullopt.
std::optional<SettingRow> findSweepAxis(const std::vector<SettingRow>& rows);

/// One collective instance (all its NPUs), in start order.
struct CollectiveTiming {
    CollectiveType type = CollectiveType::AllReduce;
    uint64_t sizeBytes = 0;
    double meanDurationNs = 0; ///< over the NPUs that took part
    double maxDurationNs = 0;
};
/// Groups RunResult::collectives by (node id, comm group), ordered by first start.
std::vector<CollectiveTiming> collectiveTimings(const RunResult& result);

struct ComparisonInput {
    const RunResult* result = nullptr;
    std::vector<CollectiveTiming> collectives; ///< collectiveTimings(*result) or from a store
};

enum class MetricUnit { Nanoseconds, Bytes, BytesPerSecond };
const char* metricUnitName(MetricUnit unit); ///< "ns", "B", "B/s"

struct MetricRow {
    std::string key;   ///< stable ("end_time", "dim0.bytes", ...)
    std::string label; ///< for people ("end time", "compute (max)", ...)
    MetricUnit unit = MetricUnit::Nanoseconds;
    std::vector<std::optional<double>> values; ///< one per run, absent when a run has none
    /// A value the row is read against (a dimension's peak bandwidth for its achieved row), so
    /// the row is shown in that value's unit family (GiB/s beside a 50 GiB/s link); 0 = none.
    double like = 0;
};

struct ComparisonOptions {
    /// Per-NPU summaries (compute, exposed comm, overlap): the maximum over NPUs (the critical
    /// NPU, what bounds the end time) or the mean.
    enum class NpuStatistic { Max, Mean } npuStatistic = NpuStatistic::Max;
    /// Collectives: max duration per (type, size), or one row per collective in time order
    /// (mean duration; past maxPositionalRows, summed per type and size).
    enum class Collectives {
        MaxPerTypeAndSize,
        ByPosition
    } collectives = Collectives::MaxPerTypeAndSize;
    size_t maxPositionalRows = 16;
    bool maxNpuFinish = false;     ///< a "max NPU finish" row
    bool achievedBandwidth = true; ///< per dimension: bytes / end time
};

/// The metric rows: end time, compute, exposed comm, overlap, collectives, per dimension bytes
/// (and achieved bandwidth).
std::vector<MetricRow> comparisonRows(const std::vector<ComparisonInput>& runs,
                                      const ComparisonOptions& options = {});

/// value / baseline; nullopt when either is absent or the baseline is zero.
std::optional<double> metricRatio(const std::optional<double>& value,
                                  const std::optional<double>& baseline);

} // namespace astrolabe
