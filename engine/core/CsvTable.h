#pragma once
// Small comma-separated tables that ship with Astrolabe or sit beside a project (the accelerator
// library, the validation pack's index): '#' lines and blank lines are comments, the first other
// line must be exactly the expected header, every later line one record. No quoting: the last
// column may hold commas (it takes the rest of the line), the others may not.

#include <functional>
#include <string>
#include <vector>

namespace astrolabe {

/// Calls `record(fields, line)` for every record of `text`, `fields` having columns.size()
/// entries. Throws astrolabe::Error (Input) naming `file` and the line: a header that differs
/// from `columns`, a record with fewer fields, no header at all.
void readCsvTable(
    const std::string& text, const std::string& file, const std::vector<std::string>& columns,
    const std::function<void(const std::vector<std::string>& fields, int line)>& record);

/// `field` as a number of column `column` ("bf16_tflops: expected a number > 0, found \"x\"").
/// Throws Error (Input) at file:line when it does not parse, is negative, or is 0 while
/// `positive`.
double csvNumber(const std::string& field, const std::string& column, const std::string& file,
                 int line, bool positive);

} // namespace astrolabe
