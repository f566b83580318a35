#pragma once
// Running the validation pack: each row's sweep file is planned and its one point generated and
// simulated by the same code as `astrolabe-cli sweep`; the simulated iteration time becomes the
// row's metric (ValidationTable.h) and its error against the measured figure.

#include "validate/ValidationTable.h"

#include <functional>
#include <string>
#include <vector>

namespace astrolabe::validate {

struct RowOutcome {
    ValidationRow row;
    bool ran = false;     ///< false: `error` says why the row could not be run
    std::string error;    ///< the planner's or the engine's message
    std::string setup;    ///< "24 layers, h 2304, 24 heads, s 2048; t1 p1 d32; B 512, b 1"
    std::string platform; ///< the accelerator and network of the row's project
    int npus = 0;
    double iterationSeconds = 0; ///< simulated: the last NPU's finish
    double predicted = 0;        ///< in the row's metric
    double errorPercent = 0;     ///< (predicted - measured) / measured x 100
    double wallSeconds = 0;      ///< planning, generating and simulating this row

    bool withinTolerance() const;
};

/// Runs one row; `folder` is the index's folder, against which the row's setup is resolved.
/// Never throws for a row that fails: the outcome carries the message.
RowOutcome runValidationRow(const ValidationRow& row, const std::string& folder);

/// Runs the rows on `jobs` threads; `done` is called on the calling thread as each finishes
/// (any order). Returns the outcomes in the rows' order.
std::vector<RowOutcome> runValidation(const std::vector<ValidationRow>& rows,
                                      const std::string& folder, int jobs,
                                      const std::function<void(const RowOutcome&)>& done = {});

/// One published table's rows together.
struct TableSummary {
    std::string table;
    int rows = 0, failed = 0, outOfTolerance = 0;
    double meanAbsErrorPercent = 0, maxAbsErrorPercent = 0;
    bool passes(double meanTolerancePercent) const;
};
std::vector<TableSummary> summarizeTables(const std::vector<RowOutcome>& outcomes);

/// Every row ran and met its tolerance, and each table's mean |error| is at most
/// `meanTolerancePercent`.
bool validationPasses(const std::vector<RowOutcome>& outcomes, double meanTolerancePercent);

} // namespace astrolabe::validate
