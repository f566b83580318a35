#include "validate/ValidationReport.h"

#include <cmath>
#include <cstdio>

namespace astrolabe::validate {
namespace {

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string signedPercent(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%+.1f %%", value);
    return text;
}

int decimalsFor(Metric metric) {
    return metric == Metric::TokensPerSecPerGpu ? 0 : 1;
}

const char* metricHeading(Metric metric) {
    switch (metric) {
    case Metric::TflopsPerGpu:
        return "TFLOP/s per GPU";
    case Metric::TokensPerSecPerGpu:
        return "tokens/s per GPU";
    case Metric::PeakMemoryGib:
        return "GiB per GPU at the peak";
    }
    return "?";
}

} // namespace

std::string validationMarkdown(const std::vector<RowOutcome>& outcomes, const std::string& preamble,
                               double meanTolerancePercent) {
    std::string md = preamble;
    if (!md.empty() && md.back() != '\n')
        md += '\n';
    const std::vector<TableSummary> tables = summarizeTables(outcomes);
    for (const TableSummary& table : tables) {
        md += "\n## " + table.table + "\n\n";
        md += "| row | setup | GPUs | simulated iteration | measured | predicted | error | "
              "tolerance | source |\n";
        md += "|---|---|---:|---:|---:|---:|---:|---:|---|\n";
        for (const RowOutcome& o : outcomes) {
            if (o.row.table != table.table)
                continue;
            const int d = decimalsFor(o.row.metric);
            md += "| " + o.row.name + " | ";
            if (!o.ran) {
                md += "did not run: " + o.error + " | | | " + fixed(o.row.measured, d) + " " +
                      metricHeading(o.row.metric) + " | | | " + fixed(o.row.tolerancePercent, 0) +
                      " % | " + o.row.source + " |\n";
                continue;
            }
            md += o.setup + " (" + o.platform + ") | " + std::to_string(o.npus) + " | " +
                  fixed(o.iterationSeconds, 3) + " s | " + fixed(o.row.measured, d) + " " +
                  metricHeading(o.row.metric) + " | " + fixed(o.predicted, d) + " | " +
                  signedPercent(o.errorPercent) + (o.withinTolerance() ? "" : " **over**") + " | " +
                  fixed(o.row.tolerancePercent, 0) + " % | " + o.row.source + " |\n";
        }
        md += "\nMean |error| " + fixed(table.meanAbsErrorPercent, 1) +
              " % (target <= " + fixed(meanTolerancePercent, 0) + " %), largest " +
              fixed(table.maxAbsErrorPercent, 1) + " %; " + std::to_string(table.rows) + " rows, " +
              std::to_string(table.outOfTolerance) + " over their tolerance, " +
              std::to_string(table.failed) +
              " not run: " + (table.passes(meanTolerancePercent) ? "passes" : "**fails**") + ".\n";
    }
    md += "\nOverall: " +
          std::string(validationPasses(outcomes, meanTolerancePercent) ? "every table passes"
                                                                       : "**not every table "
                                                                         "passes**") +
          ".\n";
    return md;
}

std::string validationLine(const RowOutcome& o) {
    char text[512];
    if (!o.ran) {
        std::snprintf(text, sizeof text, "%-28s did not run: %s", o.row.name.c_str(),
                      o.error.c_str());
        return text;
    }
    const int d = decimalsFor(o.row.metric);
    std::snprintf(text, sizeof text,
                  "%-28s measured %10.*f  predicted %10.*f  error %+6.1f %%%s  (%.1f s)",
                  o.row.name.c_str(), d, o.row.measured, d, o.predicted, o.errorPercent,
                  o.withinTolerance() ? "" : "  OVER", o.wallSeconds);
    return text;
}

} // namespace astrolabe::validate
