#include "cli/ValidateCommand.h"

#include "cli/Commands.h"
#include "core/Error.h"
#include "core/InputFile.h"
#include "core/OutputFile.h"
#include "validate/ValidationReport.h"
#include "validate/ValidationRun.h"
#include "validate/ValidationTable.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <ostream>

namespace astrolabe::cli {
namespace {

constexpr double kMeanTolerancePercent = 10;

int positiveInt(const ParsedArgs& args, const std::string& name, int fallback) {
    if (!args.has(name))
        return fallback;
    const std::string text = args.value(name);
    try {
        size_t used = 0;
        const int value = std::stoi(text, &used);
        if (used == text.size() && value > 0)
            return value;
    } catch (const std::exception&) {
    }
    throw UsageError("--" + name + ": expected a positive whole number, found \"" + text + "\"");
}

} // namespace

ArgParser validateParser() {
    return ArgParser(
        "validate",
        "Run the validation pack: every published measurement under projects/validation/\n"
        "(rows.csv), each through the generator and the engine, and write docs/validation.md\n"
        "with each row's error. Exits 1 when a row misses its tolerance or a table's mean\n"
        "|error| exceeds 10 %.",
        {{"only", "NAME", "run only these rows (repeatable); the document is then not written", "",
          true},
         {"dir", "DIR", "the validation pack", "projects/validation"},
         {"out", "FILE", "the document to write", "docs/validation.md"},
         {"jobs", "N", "rows run at once", "2"},
         {"dry-run", "", "run and print, write no document", ""}});
}

int validateCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const auto started = std::chrono::steady_clock::now();
    const std::string dir = args.value("dir", "projects/validation");
    const std::filesystem::path index = std::filesystem::path(dir) / "rows.csv";
    std::vector<validate::ValidationRow> rows = validate::loadValidationTable(index.string());
    const bool only = args.has("only");
    if (only) {
        std::vector<validate::ValidationRow> chosen;
        for (const std::string& name : args.values("only")) {
            bool found = false;
            for (const validate::ValidationRow& row : rows)
                if (row.name == name) {
                    chosen.push_back(row);
                    found = true;
                }
            if (!found) {
                std::vector<std::string> names;
                for (const validate::ValidationRow& row : rows)
                    names.push_back(row.name);
                const std::string close = closestMatch(name, names);
                throw UsageError("--only: no row \"" + name + "\" in " + index.string() +
                                 (close.empty() ? "" : "; did you mean \"" + close + "\"?"));
            }
        }
        rows = std::move(chosen);
    }
    if (rows.empty())
        throw Error(ErrorKind::Validation, "the table has no rows: nothing to validate",
                    SourceLocation{index.string(), 0, 0, {}},
                    "one row per published measurement (docs/validation.md)");
    // What the document needs is checked before the rows run (the pack takes minutes): its
    // preamble, and a place to write that is no file of the pack.
    const bool writing = !only && !args.has("dry-run");
    const std::string path = args.value("out", "docs/validation.md");
    std::string preamble;
    if (writing) {
        const std::string preambleFile = (std::filesystem::path(dir) / "preamble.md").string();
        preamble = readInputFile(preambleFile, "validation preamble", 1 << 20);
        checkOutputPath(
            path, "the validation document",
            {{index.string(), "the validation table"}, {preambleFile, "the validation preamble"}});
        std::error_code ec;
        if (std::filesystem::exists(path, ec) && isInsideFolder(dir, path))
            throw Error(ErrorKind::Input,
                        "cannot write the validation document there: " + path +
                            " is a file of the validation pack (" + dir +
                            "), which this command reads",
                        SourceLocation{path, 0, 0, {}},
                        "write it outside the pack (the default is docs/validation.md)");
    }
    const int jobs = positiveInt(args, "jobs", 2);
    const std::vector<validate::RowOutcome> outcomes =
        validate::runValidation(rows, dir, jobs, [&](const validate::RowOutcome& o) {
            out << validate::validationLine(o) << "\n" << std::flush;
        });
    for (const validate::TableSummary& t : validate::summarizeTables(outcomes)) {
        if (t.failed == t.rows) { // no mean of nothing
            out << t.table << ": no row ran (" << t.failed << " not run)\n";
            continue;
        }
        char text[256];
        std::snprintf(text, sizeof text,
                      "%s: mean |error| %.1f %%, largest %.1f %%, %d of %d rows over their "
                      "tolerance, %d not run\n",
                      t.table.c_str(), t.meanAbsErrorPercent, t.maxAbsErrorPercent,
                      t.outOfTolerance, t.rows, t.failed);
        out << text;
    }
    const bool passes = validate::validationPasses(outcomes, kMeanTolerancePercent);
    const auto notRun = std::count_if(outcomes.begin(), outcomes.end(),
                                      [](const validate::RowOutcome& o) { return !o.ran; });
    if (writing && notRun > 0) {
        // A document with rows missing would read as the pack's result.
        err << "validate: " << path << " is not written: " << notRun
            << (notRun == 1 ? " row" : " rows") << " did not run\n";
    } else if (writing) {
        const std::string md =
            validate::validationMarkdown(outcomes, preamble, kMeanTolerancePercent);
        writeOutputFile(path, "the validation document", [&](std::ostream& o) { o << md; });
        out << "wrote " << path << "\n";
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    out << outcomes.size() << " rows in " << seconds
        << " s: " << (passes ? "all within tolerance" : "NOT all within tolerance") << "\n";
    if (!passes)
        err << "validate: at least one row or table misses its tolerance\n";
    return passes ? kExitOk : kExitFailure;
}

} // namespace astrolabe::cli
