#include "validate/ValidationTable.h"

#include "core/Error.h"
#include "core/InputFile.h"

#include <sstream>

namespace astrolabe::validate {
namespace {

const std::vector<std::string> kColumns{"name",     "table",     "setup", "metric",
                                        "measured", "tolerance", "source"};

std::vector<std::string> splitRow(const std::string& line, size_t columns) {
    // The last column (the source) may hold commas: it takes the rest of the line.
    std::vector<std::string> fields;
    size_t start = 0;
    while (fields.size() + 1 < columns) {
        const size_t comma = line.find(',', start);
        if (comma == std::string::npos)
            break;
        fields.push_back(line.substr(start, comma - start));
        start = comma + 1;
    }
    fields.push_back(line.substr(start));
    return fields;
}

} // namespace

const char* metricName(Metric metric) {
    switch (metric) {
    case Metric::TflopsPerGpu:
        return "tflops-per-gpu";
    case Metric::TokensPerSecPerGpu:
        return "tokens-per-sec-per-gpu";
    }
    return "?";
}

std::vector<ValidationRow> parseValidationTable(const std::string& text, const std::string& file) {
    std::vector<ValidationRow> rows;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    bool header = false;
    auto fail = [&](const std::string& message, int column = 0) {
        throw Error(ErrorKind::Input, message, SourceLocation{file, lineNo, column, {}});
    };
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line[0] == '#')
            continue;
        const std::vector<std::string> fields = splitRow(line, kColumns.size());
        if (!header) {
            if (fields.size() != kColumns.size() ||
                !std::equal(kColumns.begin(), kColumns.end(), fields.begin()))
                fail("expected the column header \"name,table,setup,metric,measured,tolerance,"
                     "source\", found \"" +
                     line + "\"");
            header = true;
            continue;
        }
        if (fields.size() != kColumns.size())
            fail("expected " + std::to_string(kColumns.size()) + " fields, found " +
                 std::to_string(fields.size()));
        auto positive = [&](size_t column) {
            try {
                size_t used = 0;
                const double value = std::stod(fields[column], &used);
                if (used == fields[column].size() && value > 0)
                    return value;
            } catch (const std::exception&) {
            }
            fail(kColumns[column] + ": expected a number > 0, found \"" + fields[column] + "\"");
            return 0.0;
        };
        ValidationRow row;
        row.line = lineNo;
        row.name = fields[0];
        row.table = fields[1];
        row.setup = fields[2];
        if (fields[3] == metricName(Metric::TflopsPerGpu))
            row.metric = Metric::TflopsPerGpu;
        else if (fields[3] == metricName(Metric::TokensPerSecPerGpu))
            row.metric = Metric::TokensPerSecPerGpu;
        else
            fail(std::string("metric: expected ") + metricName(Metric::TflopsPerGpu) + " or " +
                 metricName(Metric::TokensPerSecPerGpu) + ", found \"" + fields[3] + "\"");
        row.measured = positive(4);
        row.tolerancePercent = positive(5);
        row.source = fields[6];
        if (row.name.empty() || row.table.empty() || row.setup.empty() || row.source.empty())
            fail("name, table, setup and source: expected text, found an empty field");
        for (const ValidationRow& other : rows)
            if (other.name == row.name)
                fail("name: \"" + row.name + "\" is also the name of line " +
                     std::to_string(other.line));
        rows.push_back(std::move(row));
    }
    if (!header)
        throw Error(ErrorKind::Input, "expected a column header, found none",
                    SourceLocation{file, 0, 0, {}});
    return rows;
}

std::vector<ValidationRow> loadValidationTable(const std::string& path) {
    return parseValidationTable(readInputFile(path, "validation index", 1 << 20), path);
}

} // namespace astrolabe::validate
