#include "validate/ValidationTable.h"

#include "core/CsvTable.h"
#include "core/Error.h"
#include "core/InputFile.h"

#include <algorithm>
#include <iterator>

namespace astrolabe::validate {
namespace {

constexpr Metric kMetrics[] = {Metric::TflopsPerGpu, Metric::TokensPerSecPerGpu,
                               Metric::PeakMemoryGib};

const std::vector<std::string> kColumns{"name",     "table",     "setup", "metric",
                                        "measured", "tolerance", "source"};

} // namespace

const char* metricName(Metric metric) {
    switch (metric) {
    case Metric::TflopsPerGpu:
        return "tflops-per-gpu";
    case Metric::TokensPerSecPerGpu:
        return "tokens-per-sec-per-gpu";
    case Metric::PeakMemoryGib:
        return "peak-memory-gib";
    }
    return "?";
}

std::vector<ValidationRow> parseValidationTable(const std::string& text, const std::string& file) {
    std::vector<ValidationRow> rows;
    readCsvTable(text, file, kColumns, [&](const std::vector<std::string>& fields, int line) {
        auto fail = [&](const std::string& message) {
            throw Error(ErrorKind::Input, message, SourceLocation{file, line, 0, {}});
        };
        ValidationRow row;
        row.line = line;
        row.name = fields[0];
        row.table = fields[1];
        row.setup = fields[2];
        const auto known = std::find_if(std::begin(kMetrics), std::end(kMetrics),
                                        [&](Metric m) { return fields[3] == metricName(m); });
        if (known == std::end(kMetrics)) {
            std::vector<std::string> names;
            for (Metric m : kMetrics)
                names.emplace_back(metricName(m));
            fail("metric: expected " + joinAlternatives(names) + ", found \"" + fields[3] + "\"");
        }
        row.metric = *known;
        row.measured = csvNumber(fields[4], kColumns[4], file, line, true);
        row.tolerancePercent = csvNumber(fields[5], kColumns[5], file, line, true);
        row.source = fields[6];
        if (row.name.empty() || row.table.empty() || row.setup.empty() || row.source.empty())
            fail("name, table, setup and source: expected text, found an empty field");
        for (const ValidationRow& other : rows)
            if (other.name == row.name)
                fail("name: \"" + row.name + "\" is also the name of line " +
                     std::to_string(other.line));
        rows.push_back(std::move(row));
    });
    return rows;
}

std::vector<ValidationRow> loadValidationTable(const std::string& path) {
    return parseValidationTable(readInputFile(path, "validation index", 1 << 20), path);
}

} // namespace astrolabe::validate
