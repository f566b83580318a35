#include "cli/CompareCommand.h"

#include "cli/Commands.h"
#include "cli/RunsCommand.h"
#include "core/Error.h"
#include "export/Comparison.h"
#include "export/NumberFormat.h"
#include "store/ProjectDatabase.h"
#include "sweep/ServingSweep.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>

namespace astrolabe::cli {
namespace {

/// One row of the table: a label and a value per run (absent when the run has none).
struct Row {
    std::string label;
    std::string unit; ///< "ns" or "B"
    std::vector<std::optional<double>> values;
};

std::string number(double v, const std::string& unit) {
    char buf[64];
    if (unit == "ns")
        std::snprintf(buf, sizeof buf, "%.3f", v);
    else
        std::snprintf(buf, sizeof buf, "%.0f", v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) { // trim "117780.000" to "117780"
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.')
            s.pop_back();
    }
    return s;
}

std::string cell(const std::optional<double>& v, const std::optional<double>& first,
                 const std::string& unit, bool isFirst) {
    if (!v)
        return "-";
    std::string s = number(*v, unit);
    if (isFirst || !first)
        return s;
    const double diff = *v - *first;
    s += " (" + std::string(diff >= 0 ? "+" : "") + number(diff, unit);
    if (*first != 0) {
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, ", x%.3f", *v / *first);
        s += ratio;
    }
    return s + ")";
}

} // namespace

ArgParser compareParser() {
    return ArgParser("compare",
                     "Compare stored runs side by side: end time, per-NPU finish, compute,\n"
                     "exposed communication, overlap, each collective and the bytes per network\n"
                     "dimension, with the difference and ratio against the first run.\n"
                     "Times are nanoseconds; per-NPU rows are means over the NPUs.",
                     {{"db", "FILE", "project database", "PROJECT's folder/astrolabe.db"},
                      {"project", "FILE", "project YAML whose database to use", ""}},
                     {"ID1", "ID2..."});
}

int compareCommand(const ParsedArgs& args, std::ostream& out, std::ostream&) {
    ProjectDatabase db(existingDatabaseFromArgs("compare", args),
                       ProjectDatabase::Access::ReadOnly);
    std::vector<int64_t> ids;
    for (const std::string& p : args.positional())
        ids.push_back(parseRunId(p));
    const size_t n = ids.size();
    std::vector<RunRecord> records;
    std::vector<std::shared_ptr<const RunResult>> results;
    std::vector<std::vector<CollectiveStats>> collectives;
    for (int64_t id : ids) {
        records.push_back(db.run(id));
        results.push_back(db.loadResult(id, false, false));
        collectives.push_back(db.loadCollectiveStats(id));
    }
    // The numbers come from export/Comparison.h, which the GUI's Compare tab uses too.
    std::vector<ComparisonInput> inputs;
    for (size_t k = 0; k < n; ++k) {
        ComparisonInput in{results[k].get(), {}};
        for (const CollectiveStats& s : collectives[k])
            in.collectives.push_back(
                {s.type, s.sizeBytes, s.meanDurationPs / 1000.0, s.maxDuration.ns()});
        inputs.push_back(std::move(in));
    }
    ComparisonOptions options;
    options.npuStatistic = ComparisonOptions::NpuStatistic::Mean;
    options.collectives = ComparisonOptions::Collectives::ByPosition;
    options.maxNpuFinish = true;
    options.achievedBandwidth = false;
    std::vector<Row> rows;
    for (MetricRow& m : comparisonRows(inputs, options))
        rows.push_back({std::move(m.label), metricUnitName(m.unit), std::move(m.values)});

    // Layout: label column, then one column per run, each as wide as its widest cell.
    std::vector<std::vector<std::string>> cells(rows.size() + 1);
    cells[0].push_back("");
    for (size_t k = 0; k < n; ++k)
        cells[0].push_back("run " + std::to_string(records[k].id) + " " + records[k].name);
    for (size_t r = 0; r < rows.size(); ++r) {
        cells[r + 1].push_back(rows[r].label + " [" + rows[r].unit + "]");
        for (size_t k = 0; k < n; ++k)
            cells[r + 1].push_back(
                cell(rows[r].values[k], rows[r].values[0], rows[r].unit, k == 0));
    }
    std::vector<size_t> width(n + 1, 0);
    for (const auto& line : cells)
        for (size_t c = 0; c < line.size(); ++c)
            width[c] = std::max(width[c], line[c].size());
    for (const auto& line : cells) {
        std::string text;
        for (size_t c = 0; c < line.size(); ++c) {
            std::string v = line[c];
            if (c + 1 < line.size())
                v.resize(width[c] + 2, ' ');
            text += v;
        }
        out << text << "\n";
    }
    for (const RunRecord& r : records)
        if (r.status != RunStatus::Ok)
            out << "note: run " << r.id << " is " << runStatusName(r.status) << ": "
                << r.errorMessage << "\n";
    // A serving run's end time is when its last request finished, not an iteration's: beside a
    // training run the ratio means nothing, and says so.
    std::string serving, training;
    for (const RunRecord& r : records) {
        std::string& list = storedServingSummary(db, r.id) ? serving : training;
        list += (list.empty() ? "" : ", ") + std::to_string(r.id);
    }
    if (!serving.empty() && !training.empty())
        out << "note: runs " << serving << " serve requests and runs " << training
            << " train: a serving run ends when its last request finishes, so its end time "
               "and ratios are not comparable with an iteration's ('runs show ID' gives its "
               "latencies)\n";
    return kExitOk;
}

} // namespace astrolabe::cli
