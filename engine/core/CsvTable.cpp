#include "core/CsvTable.h"

#include "core/Error.h"
#include "core/Text.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace astrolabe {
namespace {

std::vector<std::string> splitFields(const std::string& line, size_t columns) {
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

std::string joined(const std::vector<std::string>& columns) {
    std::string text;
    for (const std::string& c : columns)
        text += (text.empty() ? "" : ",") + c;
    return text;
}

} // namespace

void readCsvTable(const std::string& text, const std::string& file,
                  const std::vector<std::string>& columns,
                  const std::function<void(const std::vector<std::string>&, int)>& record) {
    std::istringstream in{std::string(withoutByteOrderMark(text))};
    std::string line;
    int lineNo = 0;
    bool header = false;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line[0] == '#')
            continue;
        if (!header) {
            if (line != joined(columns))
                throw Error(ErrorKind::Input,
                            "expected the column header \"" + joined(columns) + "\", found " +
                                quotedExcerpt(line, 120),
                            SourceLocation{file, lineNo, 0, {}});
            header = true;
            continue;
        }
        const std::vector<std::string> fields = splitFields(line, columns.size());
        if (fields.size() != columns.size())
            throw Error(ErrorKind::Input,
                        "expected " + std::to_string(columns.size()) + " fields, found " +
                            std::to_string(fields.size()),
                        SourceLocation{file, lineNo, 0, {}});
        record(fields, lineNo);
    }
    if (!header)
        throw Error(ErrorKind::Input, "expected a column header, found none",
                    SourceLocation{file, 0, 0, {}});
}

double csvNumber(const std::string& field, const std::string& column, const std::string& file,
                 int line, bool positive) {
    // A decimal number and nothing else (std::stod would take "0x89" as 137, " 137" and "inf";
    // an infinite tolerance would turn a validation row's check off).
    double value = 0;
    const char* end = field.data() + field.size();
    const auto [stop, error] = std::from_chars(field.data(), end, value);
    if (error == std::errc() && stop == end && std::isfinite(value) &&
        (positive ? value > 0 : value >= 0))
        return value;
    throw Error(ErrorKind::Input,
                column + ": expected a number " + (positive ? "> 0" : ">= 0") + ", found " +
                    quotedExcerpt(field),
                SourceLocation{file, line, 0, {}});
}

} // namespace astrolabe
