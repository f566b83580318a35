#pragma once
// One line of a CSV file as spreadsheets write it (RFC 4180 within a line): fields split at
// commas outside double quotes, "" inside quotes is one quote, blanks around a field dropped.
// Shared by the line-oriented readers (graph links, request traces).

#include <string>
#include <string_view>
#include <vector>

namespace astrolabe {

struct CsvField {
    std::string text;
    int column = 1; ///< 1-based byte column where the field starts (its quote, if quoted)
};

struct CsvLine {
    std::vector<CsvField> fields;
    /// Empty when the line reads; else what is wrong ("a quote opened here is not closed")
    /// and the 1-based column it is at.
    std::string problem;
    int problemColumn = 0;
};

CsvLine splitCsvLine(std::string_view line);

} // namespace astrolabe
