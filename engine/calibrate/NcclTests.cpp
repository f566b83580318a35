// The nccl-tests text reader. The output it reads looks like
//
//   # nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) ...
//   #  Rank  0 Group  0 Pid   6899 on host-a device  0 [0x0f] NVIDIA H100 80GB HBM3
//   NCCL version 2.27.5+cuda12.8
//   #       size         count      type   redop    root     time   algbw   busbw #wrong ...
//              8             2     float     sum      -1    135.8    0.00    0.00      0 ...
//   # Avg bus bandwidth    : 70.742
//
// with the variations found in real files: rccl-tests' "#   Rank  0 Pid ..." without a group,
// "RCCL version : ..." lines, older tables without the root (or redop) column, mpirun's
// "[1,0]<stdout>:" prefixes, "#" lost when the output went through markdown, and log lines of
// any other kind in between. The column header line decides how many fields a row has.
#include "calibrate/NcclTests.h"

#include "calibrate/TableText.h"
#include "core/Collectives.h"
#include "core/InputFile.h"
#include "core/Units.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

namespace astrolabe {
namespace {

using namespace calibrate;

// The programs' names in NcclCollective order: the collectives' from core/Collectives.h, then the
// point-to-point test.
const std::array<const char*, 5> kNames{namesOf(CollectiveType::AllReduce).ncclTests,
                                        namesOf(CollectiveType::AllGather).ncclTests,
                                        namesOf(CollectiveType::ReduceScatter).ncclTests,
                                        namesOf(CollectiveType::AllToAll).ncclTests, "sendrecv"};

std::string lowered(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// mpirun's "[1,0]<stdout>:" tag, when the line has one.
std::string_view withoutTag(std::string_view line) {
    if (line.empty() || line.front() != '[')
        return line;
    const size_t close = line.find("]<std");
    if (close == std::string_view::npos)
        return line;
    const size_t colon = line.find(">:", close);
    return colon == std::string_view::npos ? line : line.substr(colon + 2);
}

std::string_view withoutHash(std::string_view line) {
    while (!line.empty() && (line.front() == '#' || line.front() == ' ' || line.front() == '\t'))
        line.remove_prefix(1);
    return line;
}

/// A comma-separated line with a field that is exactly "size": the CSV form's header.
bool isCsvHeader(std::string_view line) {
    size_t start = 0;
    while (start <= line.size()) {
        size_t end = line.find(',', start);
        if (end == std::string_view::npos)
            end = line.size();
        if (lowered(trimmed(line.substr(start, end - start))) == "size")
            return end != line.size() || start != 0;
        start = end + 1;
    }
    return false;
}

/// A program named on the line ("./build/all_reduce_perf -b 8", "Running .../alltoall_perf").
std::optional<NcclCollective> programOnLine(std::string_view line) {
    for (std::string_view word : words(line)) {
        const size_t slash = word.rfind('/');
        if (slash != std::string_view::npos)
            word.remove_prefix(slash + 1);
        if (word.find("_perf") == std::string_view::npos)
            continue;
        if (auto c = ncclCollectiveFromName(word))
            return c;
    }
    return std::nullopt;
}

struct Columns {
    int line = 0;
    size_t fields = 0;
    size_t count = 1, type = 2, outOfPlace = 0, inPlace = 0; ///< indexes; inPlace 0 = none
    std::vector<size_t> wrong;                               ///< the "#wrong" columns
};

Columns readColumns(const std::vector<std::string_view>& header, int line) {
    Columns c;
    c.line = line;
    c.fields = header.size();
    for (size_t i = 0; i < header.size(); ++i) {
        if (header[i] == "count")
            c.count = i;
        else if (header[i] == "type")
            c.type = i;
        else if (header[i] == "time" && c.outOfPlace == 0)
            c.outOfPlace = i;
        else if (header[i] == "time")
            c.inPlace = i;
        else if (header[i] == "#wrong" || header[i] == "wrong")
            c.wrong.push_back(i);
    }
    return c;
}

double number(std::string_view token, const char* what, const std::string& file, int line) {
    double value = 0;
    if (!parseNonNegative(token, value))
        failAt(file, line,
               std::string(what) + ": expected a number >= 0, found \"" + std::string(token) +
                   "\"");
    return value;
}

NcclRow readRow(const std::vector<std::string_view>& f, const Columns& c, const std::string& file,
                int line) {
    if (f.size() != c.fields)
        failAt(file, line,
               "expected " + std::to_string(c.fields) +
                   " fields, as in the column header on line " + std::to_string(c.line) +
                   ", found " + std::to_string(f.size()),
               "a row cut short or a damaged file; rerun the test or remove the row");
    NcclRow row;
    row.line = line;
    if (!parseCount(f[0], row.sizeBytes))
        failAt(file, line,
               "size: expected a whole number of bytes, found \"" + std::string(f[0]) + "\"");
    if (c.count < f.size() && !parseCount(f[c.count], row.count))
        failAt(file, line,
               "count: expected a whole number of elements, found \"" + std::string(f[c.count]) +
                   "\"");
    if (c.type < f.size())
        row.type = std::string(f[c.type]);
    if (c.outOfPlace + 2 >= f.size())
        failAt(file, line, "the column header has no time, algbw and busbw columns");
    row.outOfPlaceUs = number(f[c.outOfPlace], "time (out-of-place, us)", file, line);
    row.outOfPlaceAlgGBps = number(f[c.outOfPlace + 1], "algbw (out-of-place)", file, line);
    row.outOfPlaceBusGBps = number(f[c.outOfPlace + 2], "busbw (out-of-place)", file, line);
    row.inPlaceUs = row.inPlaceAlgGBps = row.inPlaceBusGBps = std::nan("");
    if (c.inPlace != 0 && c.inPlace + 2 < f.size()) {
        row.inPlaceUs = number(f[c.inPlace], "time (in-place, us)", file, line);
        row.inPlaceAlgGBps = number(f[c.inPlace + 1], "algbw (in-place)", file, line);
        row.inPlaceBusGBps = number(f[c.inPlace + 2], "busbw (in-place)", file, line);
    }
    for (const size_t w : c.wrong) { // "N/A" when the test ran without checking (-c 0)
        uint64_t wrong = 0;
        if (w < f.size() && parseCount(f[w], wrong))
            row.wrong = std::max(row.wrong, wrong);
    }
    return row;
}

/// A line of the table: a number first ("8", and "-8" so that it is refused, not skipped).
bool isTableRow(std::string_view line) {
    const size_t digit = !line.empty() && line.front() == '-' ? 1 : 0;
    return line.size() > digit && std::isdigit(static_cast<unsigned char>(line[digit]));
}

/// A day, in microseconds: a collective's time past it is a damaged column, not a measurement.
constexpr double kLongestCollectiveUs = 86'400e6;

/// What the rows say of themselves: the test's own check found no wrong results, and algbw is
/// size / time (nccl-tests prints both; a time column scaled or pasted from another run shows
/// here), within the rounding of the two decimals it prints.
void checkRows(const NcclRun& run) {
    for (const NcclRow& r : run.rows) {
        if (r.wrong > 0)
            failAt(run.file, r.line,
                   "the test found " + std::to_string(r.wrong) + " wrong result" +
                       (r.wrong == 1 ? "" : "s") +
                       " at this size (#wrong): its times are of a "
                       "broken run",
                   "fix the run (NCCL_DEBUG=WARN says more) and measure again, or remove the row");
        const std::pair<double, double> columns[] = {{r.outOfPlaceUs, r.outOfPlaceAlgGBps},
                                                     {r.inPlaceUs, r.inPlaceAlgGBps}};
        for (const auto& [us, algbw] : columns) {
            if (us > kLongestCollectiveUs) {
                char text[32];
                std::snprintf(text, sizeof text, "%.4g", us);
                failAt(run.file, r.line,
                       std::string("a time of ") + text +
                           " us is longer than a day: no measurement of one collective",
                       "the time column (us) is damaged; give the output as the test printed it");
            }
            if (!(us > 0) || std::isnan(algbw))
                continue;
            const double expected = static_cast<double>(r.sizeBytes) / us / 1e3; // GB/s
            if (std::abs(algbw - expected) <= 0.0051 + 0.02 * expected)
                continue;
            failAt(run.file, r.line,
                   "algbw is " + units::formatPlain(algbw, 4) + " GB/s, but size / time is " +
                       units::formatPlain(expected, 4) + " GB/s (" + std::to_string(r.sizeBytes) +
                       " B in " + units::formatPlain(us, 4) +
                       " us): the time and bandwidth columns disagree",
                   "a time column scaled or taken from another run; give the output as the "
                   "test printed it");
        }
    }
}

/// Every rank from 0 to the highest has its line: "Rank 0 .. 6 and 9" is a cut or merged
/// listing, not a 10-GPU run.
void checkRanks(const std::set<uint64_t>& ranks, const std::string& file, int line) {
    const uint64_t highest = ranks.empty() ? 0 : *ranks.rbegin();
    const uint64_t absent = ranks.empty() ? 0 : highest + 1 - ranks.size();
    if (absent == 0)
        return;
    constexpr uint64_t kNamed = 8; // the first ones; "..." for more
    std::string missing;
    for (uint64_t r = 0, named = 0; r <= highest && named < kNamed; ++r)
        if (!ranks.count(r))
            missing += (named++ ? ", " : "") + std::to_string(r);
    failAt(file, line,
           "the rank lines go up to rank " + std::to_string(highest) + " but rank" +
               (absent > 1 ? "s " : " ") + missing + (absent > kNamed ? ", ..." : "") +
               (absent > 1 ? " have" : " has") + " no line: the GPU count is unclear",
           "keep the whole \"# Using devices\" block of the output");
}

/// busbw / algbw of the row that shows it best must be the collective's bus factor.
void checkBusFactor(const NcclRun& run) {
    const NcclRow* best = nullptr;
    for (const NcclRow& r : run.rows)
        if (r.outOfPlaceAlgGBps >= 1 && r.outOfPlaceBusGBps >= 1 &&
            (!best || r.outOfPlaceAlgGBps > best->outOfPlaceAlgGBps))
            best = &r;
    if (!best)
        return;
    const double ratio = best->outOfPlaceBusGBps / best->outOfPlaceAlgGBps;
    const double expected = ncclBusFactor(run.collective, run.ranks);
    if (std::abs(ratio / expected - 1) <= 0.03)
        return;
    failAt(run.file, best->line,
           "busbw / algbw is " + std::to_string(ratio) + ", but " +
               ncclCollectiveName(run.collective) + " over " + std::to_string(run.ranks) +
               " ranks has a bus factor of " + std::to_string(expected),
           "the file is from another test program or another GPU count; name the program with "
           "--collective or check the rank lines");
}

} // namespace

const std::vector<std::string>& ncclCollectiveNames() {
    static const std::vector<std::string> names(std::begin(kNames), std::end(kNames));
    return names;
}

const char* ncclCollectiveName(NcclCollective collective) {
    return kNames[static_cast<size_t>(collective)];
}

std::optional<NcclCollective> ncclCollectiveFromName(std::string_view name) {
    std::string key = lowered(name);
    for (const char* suffix : {"_mpi", "_perf"})
        if (key.size() > std::string(suffix).size() && key.ends_with(suffix))
            key.resize(key.size() - std::string(suffix).size());
    key.erase(std::remove_if(key.begin(), key.end(), [](char c) { return c == '_' || c == '-'; }),
              key.end());
    for (size_t i = 0; i < std::size(kNames); ++i) {
        std::string bare = kNames[i];
        bare.erase(std::remove(bare.begin(), bare.end(), '_'), bare.end());
        if (key == bare)
            return static_cast<NcclCollective>(i);
    }
    return std::nullopt;
}

double ncclBusFactor(NcclCollective collective, int ranks) {
    const double n = ranks;
    switch (collective) {
    case NcclCollective::AllReduce:
        return 2 * (n - 1) / n;
    case NcclCollective::SendRecv:
        return 1;
    default:
        return (n - 1) / n;
    }
}

NcclRun parseNcclTests(std::string_view text, const std::string& fileName,
                       std::optional<NcclCollective> collective) {
    text = withoutByteOrderMark(text);
    const std::vector<std::string_view> all = splitLines(text);
    for (std::string_view line : all) {
        line = trimmed(line);
        if (line.empty() || line.front() == '#')
            continue;
        if (fileName.ends_with(".csv") || isCsvHeader(line)) {
            NcclRun run = parseNcclTestsCsv(text, fileName, collective);
            checkRows(run);
            return run;
        }
        break;
    }
    NcclRun run;
    run.file = fileName;
    std::optional<NcclCollective> named, mentioned;
    std::set<std::string> hosts;
    std::set<uint64_t> ranks;
    int tableEnd = 0, firstRankLine = 0;
    Columns columns;
    for (size_t i = 0; i < all.size(); ++i) {
        const int lineNo = static_cast<int>(i) + 1;
        const std::string_view line = trimmed(withoutTag(all[i]));
        const std::string_view body = withoutHash(line);
        const std::vector<std::string_view> f = words(body);
        if (f.empty())
            continue;
        if (body.starts_with("Collective test starting:")) {
            named = ncclCollectiveFromName(trimmed(body.substr(25)));
        } else if (f[0] == "Rank" && f.size() > 3) {
            uint64_t rank = 0;
            if (!parseCount(f[1], rank) || rank >= (uint64_t{1} << 20))
                failAt(fileName, lineNo, "a rank line with a rank number that is not one");
            ranks.insert(rank);
            firstRankLine = firstRankLine ? firstRankLine : lineNo;
            const auto on = std::find(f.begin(), f.end(), "on");
            if (on != f.end() && on + 1 != f.end())
                hosts.insert(std::string(*(on + 1)));
            // "... device  0 [0x07] NVIDIA A100-SXM4-80GB": the name after the bus address.
            if (const size_t bus = body.find(']', body.find(" device "));
                run.device.empty() && bus != body.npos)
                run.device = std::string(trimmed(body.substr(bus + 1)));
        } else if (body.starts_with("NCCL version") || body.starts_with("RCCL version")) {
            run.version = std::string(body);
        } else if (f[0] == "size" && std::find(f.begin(), f.end(), "time") != f.end()) {
            if (!run.rows.empty())
                failAt(fileName, lineNo,
                       "a second results table (the first ends on line " +
                           std::to_string(tableEnd ? tableEnd : lineNo - 1) + ")",
                       "give the output of one test program per file");
            columns = readColumns(f, lineNo);
        } else if (line.front() != '#' && columns.line != 0 && isTableRow(line)) {
            if (tableEnd != 0)
                failAt(fileName, lineNo,
                       "a table row after the table ended on line " + std::to_string(tableEnd));
            run.rows.push_back(readRow(words(line), columns, fileName, lineNo));
        } else if (line.front() == '#' && !run.rows.empty() && tableEnd == 0) {
            tableEnd = lineNo - 1;
        } else if (auto program = programOnLine(body)) {
            mentioned = program;
        }
    }
    if (columns.line == 0)
        failAt(fileName, 0,
               "no column header line (\"#  size  count  type ... time  algbw  busbw ...\"): "
               "not nccl-tests output");
    if (run.rows.empty())
        failAt(fileName, columns.line, "the column header is followed by no table rows");
    if (ranks.empty())
        failAt(fileName, 0,
               "no \"#  Rank N ... on HOST device ...\" lines: the GPU count is unknown",
               "keep the \"# Using devices\" block of the output");
    checkRanks(ranks, fileName, firstRankLine);
    checkTwoRanksOrMore(static_cast<int>(ranks.size()), fileName, firstRankLine);
    run.ranks = static_cast<int>(ranks.size()); // 0 .. highest, each with its line (checkRanks)
    run.nodes = static_cast<int>(hosts.size());
    if (collective && named && *named != *collective)
        failAt(fileName, 0,
               std::string("the file says it is ") + ncclCollectiveName(*named) +
                   "_perf output, not " + ncclCollectiveName(*collective));
    const size_t slash = fileName.find_last_of('/');
    std::optional<NcclCollective> fromName;
    for (size_t i = 0; i < std::size(kNames) && !fromName; ++i)
        if (lowered(fileName.substr(slash == std::string::npos ? 0 : slash + 1)).find(kNames[i]) !=
            std::string::npos)
            fromName = static_cast<NcclCollective>(i);
    const auto chosen = collective ? collective : named ? named : mentioned ? mentioned : fromName;
    if (!chosen)
        failAt(fileName, 0, "cannot tell which test program wrote this file",
               "name the file after it (all_gather_perf.txt, ...) or pass --collective with one "
               "of " +
                   joinAlternatives(ncclCollectiveNames()));
    run.collective = *chosen;
    checkBusFactor(run);
    checkRows(run);
    return run;
}

NcclRun readNcclTests(const std::string& path, std::optional<NcclCollective> collective) {
    return parseNcclTests(readInputFile(path, "the nccl-tests output", kMaxNcclTestsFileBytes),
                          path, collective);
}

} // namespace astrolabe
