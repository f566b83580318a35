#pragma once
// docs/validation.md, written from the outcomes of the validation pack: the preamble (the
// model and what was set from which measurement, kept as prose in projects/validation/), then
// one table per published table with every row's setup, measured figure and source, our
// prediction and the error, then the summary against the tolerances.

#include "validate/ValidationRun.h"

#include <string>
#include <vector>

namespace astrolabe::validate {

/// Markdown. Numbers are printed with fixed precision, so the same outcomes give the same text;
/// wall times are left out for the same reason.
std::string validationMarkdown(const std::vector<RowOutcome>& outcomes, const std::string& preamble,
                               double meanTolerancePercent);

/// One line per row for a terminal: name, measured, predicted, error, wall time.
std::string validationLine(const RowOutcome& outcome);

} // namespace astrolabe::validate
