#include "cli/RunsCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "core/Error.h"
#include "core/OutputFile.h"
#include "core/Text.h"
#include "export/AstraReport.h"
#include "export/CsvExport.h"
#include "export/NumberFormat.h"
#include "export/PerfettoExport.h"
#include "export/ResultJson.h"
#include "store/ProjectDatabase.h"
#include "store/RunStorage.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace astrolabe::cli {
namespace {

namespace fs = std::filesystem;

std::string pad(std::string s, size_t width) {
    if (s.size() < width)
        s.resize(width, ' ');
    return s;
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : separator) + item;
    return out;
}

/// Names, tags and notes are shown in tables and terminals: a newline broke the runs list and
/// an escape sequence reached the terminal raw. Notes may have lines and tabs.
std::string plainText(const std::string& flag, const std::string& text, bool lines) {
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && !(lines && (c == '\n' || c == '\t'))) || u == 0x7f)
            throw UsageError("--" + flag + ": a control character (code " + std::to_string(u) +
                             ") in \"" + text.substr(0, 40) + "\"; " +
                             (lines ? "lines and tabs are allowed, " : "") +
                             "other control characters are not");
    }
    return text;
}

/// "a, b,a" -> {a, b}: each tag trimmed, the empty ones and repeats dropped. A list that names
/// no tag at all (",,,") is refused: --tags '' clears a run's tags.
std::vector<std::string> splitTags(const std::string& text) {
    std::vector<std::string> tags;
    std::istringstream in(plainText("tags", text, false));
    for (std::string tag; std::getline(in, tag, ',');)
        if (const std::string t(trimmed(tag));
            !t.empty() && std::find(tags.begin(), tags.end(), t) == tags.end())
            tags.push_back(t);
    if (tags.empty() && !trimmed(text).empty())
        throw UsageError("--tags: no tag in \"" + text + "\"; give --tags '' to clear the tags");
    return tags;
}

void listRuns(const ProjectDatabase& db, std::ostream& out) {
    const auto runs = db.listRuns();
    if (runs.empty()) {
        out << "no runs in " << db.path() << "\n";
        return;
    }
    out << pad("ID", 6) << pad("NAME", 24) << pad("CREATED", 22) << pad("STATUS", 11)
        << pad("NPUS", 7) << pad("SIM TIME (ns)", 18) << pad("WALL (s)", 10) << "TAGS\n";
    for (const RunRecord& r : runs) {
        std::ostringstream wall;
        wall << std::fixed << std::setprecision(2) << r.wallSeconds;
        out << pad(std::to_string(r.id), 6) << pad(r.name, 24) << pad(r.created, 22)
            << pad(runStatusName(r.status), 11) << pad(std::to_string(r.npuCount), 7)
            << pad(nsText(r.simulatedTime), 18) << pad(wall.str(), 10) << joined(r.tags, ",")
            << "\n";
    }
}

void showRun(const ProjectDatabase& db, int64_t id, std::ostream& out) {
    const RunRecord r = db.run(id);
    out << "run " << r.id << ": " << r.name << "\n"
        << "  created         " << r.created << "\n"
        << "  status          " << runStatusName(r.status) << "\n";
    if (!r.errorMessage.empty())
        out << "  error           " << r.errorMessage << "\n";
    out << "  engine          " << r.engineVersion << "\n"
        << "  wall time       " << r.wallSeconds << " s\n"
        << "  simulated time  " << nsText(r.simulatedTime) << " ns\n"
        << "  NPUs            " << r.npuCount << "\n"
        << "  events          " << r.events << "\n"
        << "  intervals       " << r.activityCount << "\n"
        << "  tags            " << joined(r.tags, ", ") << "\n"
        << "  notes           " << r.notes << "\n"
        << "  inputs (SHA-256):\n";
    for (const auto& [input, hash] : r.inputHashes)
        out << "    " << hash << "  " << input << "\n";
    const auto stats = db.loadCollectiveStats(id);
    if (!stats.empty()) {
        out << "  collectives:\n";
        for (const CollectiveStats& c : stats)
            out << "    node " << c.nodeId << " " << collectiveTypeName(c.type) << " "
                << c.sizeBytes << " B on " << c.npus << " NPUs: " << nsText(c.firstStart) << " .. "
                << nsText(c.lastEnd) << " ns\n";
    }
    // A serving run's metrics (astrolabe-cli serve stores them as its report lines).
    const auto result = db.loadResult(id, false, false);
    bool heading = false;
    for (const std::string& line : result->reportLines)
        if (line.rfind("[serving] ", 0) == 0) {
            if (!heading)
                out << "  serving:\n";
            heading = true;
            out << "    " << line.substr(10) << "\n";
        }
}

void writeExport(std::ostream& sink, const std::string& format, const ParsedArgs& args,
                 const RunRecord& record, const RunResult& result) {
    if (format == "json") {
        nlohmann::json extra = {{"run",
                                 {{"id", record.id},
                                  {"created", record.created},
                                  {"engineVersion", record.engineVersion},
                                  {"status", runStatusName(record.status)}}}};
        if (!record.configJson.empty())
            extra["configuration"] = nlohmann::json::parse(record.configJson, nullptr, false);
        writeResultJson(sink, result, nullptr, &extra);
    } else if (format == "csv") {
        const std::string table = args.value("table", "npus");
        if (table == "npus")
            writeNpuCsv(sink, result);
        else if (table == "collectives")
            writeCollectiveCsv(sink, result);
        else if (table == "links")
            writeLinkCsv(sink, result);
        else
            throw UsageError("runs export: unknown --table \"" + table +
                             "\"; expected npus, collectives or links");
    } else {
        writeAstraReport(sink, result);
    }
}

void exportRun(const ProjectDatabase& db, int64_t id, const ParsedArgs& args, std::ostream& out,
               std::ostream& err) {
    const std::string format = args.value("format", "json");
    const std::string file = args.value("out");
    // Options of another format would be ignored without a word.
    if (args.has("table") && format != "csv")
        throw UsageError("--table applies to --format csv, not " + format);
    if (args.has("budget-mb") && format != "perfetto")
        throw UsageError("--budget-mb applies to --format perfetto, not " + format);
    if (!file.empty())
        checkOutputPath(
            file, "the export",
            {{db.path(), "the project database"}, {args.value("project"), "the project"}});
    const RunRecord record = db.run(id);
    const bool needsTimeline = format == "json" || format == "perfetto";
    const auto result = db.loadResult(id, needsTimeline);
    if (format == "perfetto") {
        PerfettoOptions options;
        if (args.has("budget-mb")) {
            const double mb = parseReal("budget-mb", args.value("budget-mb"));
            if (!(mb >= 1 && mb <= 1e9))
                throw UsageError("--budget-mb: expected a size in MB from 1 to 10^9, found \"" +
                                 args.value("budget-mb") + "\"");
            options.sizeBudgetBytes = static_cast<uint64_t>(mb * 1000 * 1000);
        }
        const PerfettoSummary s = file.empty() ? writePerfettoTrace(out, *result, options)
                                               : writePerfettoTraceFiles(file, *result, options);
        if (!s.message.empty())
            err << "astrolabe-cli: " << s.message << "\n";
        return;
    }
    if (format != "json" && format != "csv" && format != "astra")
        throw UsageError("runs export: unknown --format \"" + format +
                         "\"; expected json, csv, perfetto or astra");
    const auto write = [&](std::ostream& sink) {
        writeExport(sink, format, args, record, *result);
    };
    if (file.empty())
        write(out);
    else
        writeOutputFile(file, "the export", write);
}

} // namespace

int64_t parseRunId(const std::string& text) {
    int64_t id = 0;
    const bool digits =
        !text.empty() && text.size() < 18 &&
        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits)
        id = std::stoll(text);
    if (id <= 0)
        throw UsageError("not a run id: \"" + text + "\" ('astrolabe-cli runs list' shows them)");
    return id;
}

std::string databasePathFromArgs(const ParsedArgs& args) {
    if (args.has("db"))
        return args.value("db");
    return defaultDatabasePath(args.value("project"));
}

std::string existingDatabaseFromArgs(const std::string& command, const ParsedArgs& args) {
    const std::string path = databasePathFromArgs(args);
    if (!fs::is_regular_file(path))
        throw UsageError(command + ": no project database at " + path +
                         " (runs are stored by 'astrolabe-cli run'; choose one with --db)");
    // SQLite would take an empty file for an empty database and write its tables into it.
    char magic[16] = {};
    std::ifstream in(path, std::ios::binary);
    in.read(magic, sizeof magic);
    if (in.gcount() != sizeof magic ||
        std::string(magic, sizeof magic) != std::string("SQLite format 3\0", 16))
        throw UsageError(command + ": " + path +
                         " is not a project database (an SQLite file, as 'astrolabe-cli run' "
                         "writes): left as it is");
    return path;
}

ArgParser runsParser() {
    return ArgParser(
        "runs",
        "Manage the runs stored in a project database.\n"
        "ACTION is one of: list, show ID, export ID, rename ID --name N, tag ID --tags a,b,\n"
        "notes ID --notes TEXT, delete ID.",
        {{"db", "FILE", "project database", "PROJECT's folder/astrolabe.db, else ./astrolabe.db"},
         {"project", "FILE", "project YAML whose database to use", ""},
         {"format", "FMT", "export: json, csv, perfetto or astra", "json"},
         {"table", "NAME", "export --format csv: npus, collectives or links", "npus"},
         {"out", "FILE", "export: write to FILE (perfetto: may split into FILE.partK.json)",
          "stdout"},
         {"budget-mb", "MB", "export --format perfetto: size budget per file", "200"},
         {"name", "NAME", "rename: the new name", ""},
         {"tags", "LIST", "tag: comma-separated tags (replaces the run's tags)", ""},
         {"notes", "TEXT", "notes: the run's notes", ""}},
        {"ACTION", "[ID]"});
}

int runsCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const std::string action = args.positional().at(0);
    const std::vector<std::string> actions{"list", "show",  "export", "rename",
                                           "tag",  "notes", "delete"};
    if (std::find(actions.begin(), actions.end(), action) == actions.end()) {
        const std::string guess = closestMatch(action, actions);
        throw UsageError("runs: unknown action \"" + action + "\"" +
                         (guess.empty() ? "" : " (did you mean \"" + guess + "\"?)"));
    }
    const bool reads = action == "list" || action == "show" || action == "export";
    ProjectDatabase db(existingDatabaseFromArgs("runs", args),
                       reads ? ProjectDatabase::Access::ReadOnly
                             : ProjectDatabase::Access::ReadWrite);
    if (action == "list") {
        listRuns(db, out);
        return kExitOk;
    }
    if (args.positional().size() < 2)
        throw UsageError("runs " + action + ": missing argument <ID>");
    const int64_t id = parseRunId(args.positional()[1]);
    if (action == "show")
        showRun(db, id, out);
    else if (action == "export")
        exportRun(db, id, args, out, err);
    else if (action == "rename") {
        if (!args.has("name"))
            throw UsageError("runs rename: missing --name");
        const std::string name(trimmed(plainText("name", args.value("name"), false)));
        if (name.empty())
            throw UsageError("runs rename: --name is empty");
        db.renameRun(id, name);
    } else if (action == "tag")
        db.setTags(id, splitTags(args.value("tags")));
    else if (action == "notes")
        db.setNotes(id, plainText("notes", args.value("notes"), true));
    else if (action == "delete") {
        db.deleteRun(id);
        out << "deleted run " << id << "\n";
    }
    return kExitOk;
}

} // namespace astrolabe::cli
