// The CSV form of nccl-tests results (docs/calibration.md):
//
//   # collective: all_gather
//   # ranks: 8
//   # nodes: 1
//   size,count,type,time,algbw,busbw,time_ip,algbw_ip,busbw_ip
//   1048576,32768,float,18.21,57.58,50.38,17.90,58.58,51.26
//
// The header names the columns (any order, any case); size and time (out-of-place, us) are
// required. collective, ranks and nodes may be columns instead of comment lines.
#include "calibrate/NcclTests.h"
#include "calibrate/TableText.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace astrolabe {
namespace {

using namespace calibrate;

const std::vector<std::string>& columnNames() {
    static const std::vector<std::string> names{
        "size",  "count",   "type",     "redop",    "root",     "time",       "algbw", "busbw",
        "wrong", "time_ip", "algbw_ip", "busbw_ip", "wrong_ip", "collective", "ranks", "nodes"};
    return names;
}

std::string key(std::string_view text) {
    std::string out(trimmed(text));
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    size_t start = 0;
    while (true) {
        const size_t end = line.find(',', start);
        out.push_back(
            trimmed(line.substr(start, end == std::string_view::npos ? end : end - start)));
        if (end == std::string_view::npos)
            return out;
        start = end + 1;
    }
}

struct Meta {
    std::optional<NcclCollective> collective;
    int ranks = 0, nodes = 0;
    int collectiveLine = 0, ranksLine = 0, nodesLine = 0;
};

int positiveInt(std::string_view token, const char* what, const std::string& file, int line) {
    uint64_t value = 0;
    if (!parseCount(token, value) || value == 0 || value > (uint64_t{1} << 20))
        failAt(file, line,
               std::string(what) + ": expected a whole number from 1 to 1048576, found \"" +
                   std::string(token) + "\"");
    return static_cast<int>(value);
}

/// collective/ranks/nodes from a comment line or a column: each must agree with what came before.
void setMeta(Meta& meta, const std::string& name, std::string_view value, const std::string& file,
             int line) {
    if (name == "collective") {
        const auto c = ncclCollectiveFromName(value);
        if (!c)
            failAt(file, line,
                   "collective: expected " + joinAlternatives(ncclCollectiveNames()) +
                       ", found \"" + std::string(value) + "\"");
        if (meta.collective && *meta.collective != *c)
            failAt(file, line,
                   "collective: " + std::string(value) + " differs from line " +
                       std::to_string(meta.collectiveLine) + " (one collective per file)");
        meta.collective = c;
        meta.collectiveLine = line;
    } else if (name == "ranks" || name == "nodes") {
        const int v = positiveInt(value, name.c_str(), file, line);
        int& slot = name == "ranks" ? meta.ranks : meta.nodes;
        if (slot != 0 && slot != v)
            failAt(file, line,
                   name + ": " + std::to_string(v) + " differs from an earlier " +
                       std::to_string(slot) + " (one run per file)");
        slot = v;
        (name == "ranks" ? meta.ranksLine : meta.nodesLine) = line;
    }
}

double optionalNumber(const std::vector<std::string_view>& f,
                      const std::map<std::string, size_t>& at, const char* name,
                      const std::string& file, int line) {
    const auto it = at.find(name);
    if (it == at.end() || f[it->second].empty() || f[it->second] == "N/A")
        return std::nan("");
    double value = 0;
    if (!parseNonNegative(f[it->second], value))
        failAt(file, line,
               std::string(name) + ": expected a number >= 0, found \"" +
                   std::string(f[it->second]) + "\"");
    return value;
}

} // namespace

NcclRun parseNcclTestsCsv(std::string_view text, const std::string& fileName,
                          std::optional<NcclCollective> collective) {
    NcclRun run;
    run.file = fileName;
    Meta meta;
    std::map<std::string, size_t> at;
    size_t width = 0;
    int headerLine = 0;
    const std::vector<std::string_view> all = splitLines(text);
    for (size_t i = 0; i < all.size(); ++i) {
        const int lineNo = static_cast<int>(i) + 1;
        const std::string_view line = trimmed(all[i]);
        if (line.empty())
            continue;
        if (line.front() == '#') {
            const std::string_view body = trimmed(line.substr(1));
            const size_t colon = body.find(':');
            if (colon == std::string_view::npos)
                continue;
            const std::string name = key(body.substr(0, colon));
            if (name == "version")
                run.version = std::string(trimmed(body.substr(colon + 1)));
            else
                setMeta(meta, name, trimmed(body.substr(colon + 1)), fileName, lineNo);
            continue;
        }
        const std::vector<std::string_view> f = fields(line);
        if (headerLine == 0) {
            headerLine = lineNo;
            width = f.size();
            for (size_t c = 0; c < f.size(); ++c) {
                const std::string name = key(f[c]);
                const auto& known = columnNames();
                if (std::find(known.begin(), known.end(), name) == known.end()) {
                    const std::string guess = closestMatch(name, known);
                    failAt(fileName, lineNo, "unknown column \"" + std::string(f[c]) + "\"",
                           guess.empty() ? "columns: " + joinAlternatives(known)
                                         : "did you mean \"" + guess + "\"?");
                }
                if (!at.emplace(name, c).second)
                    failAt(fileName, lineNo, "column \"" + name + "\" appears twice");
            }
            for (const char* required : {"size", "time"})
                if (!at.count(required))
                    failAt(fileName, lineNo,
                           std::string("the header has no \"") + required + "\" column");
            continue;
        }
        if (f.size() != width)
            failAt(fileName, lineNo,
                   "expected " + std::to_string(width) + " fields, as in the header on line " +
                       std::to_string(headerLine) + ", found " + std::to_string(f.size()));
        for (const char* name : {"collective", "ranks", "nodes"})
            if (const auto it = at.find(name); it != at.end())
                setMeta(meta, name, f[it->second], fileName, lineNo);
        NcclRow row;
        row.line = lineNo;
        if (!parseCount(f[at["size"]], row.sizeBytes))
            failAt(fileName, lineNo,
                   "size: expected a whole number of bytes, found \"" + std::string(f[at["size"]]) +
                       "\"");
        if (const auto it = at.find("count");
            it != at.end() && !parseCount(f[it->second], row.count))
            failAt(fileName, lineNo,
                   "count: expected a whole number of elements, found \"" +
                       std::string(f[it->second]) + "\"");
        if (const auto it = at.find("type"); it != at.end())
            row.type = std::string(f[it->second]);
        row.outOfPlaceUs = optionalNumber(f, at, "time", fileName, lineNo);
        if (std::isnan(row.outOfPlaceUs))
            failAt(fileName, lineNo, "time: expected a number of microseconds, found nothing");
        row.outOfPlaceAlgGBps = optionalNumber(f, at, "algbw", fileName, lineNo);
        row.outOfPlaceBusGBps = optionalNumber(f, at, "busbw", fileName, lineNo);
        row.inPlaceUs = optionalNumber(f, at, "time_ip", fileName, lineNo);
        row.inPlaceAlgGBps = optionalNumber(f, at, "algbw_ip", fileName, lineNo);
        row.inPlaceBusGBps = optionalNumber(f, at, "busbw_ip", fileName, lineNo);
        for (const char* name : {"wrong", "wrong_ip"}) {
            const double wrong = optionalNumber(f, at, name, fileName, lineNo);
            if (wrong > 0) // NaN (absent, "N/A") is not
                row.wrong = std::max(row.wrong, static_cast<uint64_t>(wrong));
        }
        run.rows.push_back(row);
    }
    if (headerLine == 0)
        failAt(fileName, 0, "no header line (\"size,count,type,time,algbw,busbw,...\")");
    if (run.rows.empty())
        failAt(fileName, headerLine, "the header is followed by no rows");
    if (meta.ranks == 0)
        failAt(fileName, 0, "the GPU count is missing",
               "add a line \"# ranks: N\" or a ranks column");
    checkTwoRanksOrMore(meta.ranks, fileName, meta.ranksLine);
    if (meta.nodes > meta.ranks)
        failAt(fileName, meta.nodesLine,
               "nodes: " + std::to_string(meta.nodes) + " is more than the " +
                   std::to_string(meta.ranks) + " ranks (line " + std::to_string(meta.ranksLine) +
                   "): every node holds at least one rank");
    if (collective && meta.collective && *collective != *meta.collective)
        failAt(fileName, meta.collectiveLine,
               std::string("the file says ") + ncclCollectiveName(*meta.collective) + ", not " +
                   ncclCollectiveName(*collective));
    if (!collective && !meta.collective)
        failAt(fileName, 0, "the collective is missing",
               "add a line \"# collective: NAME\" (" + joinAlternatives(ncclCollectiveNames()) +
                   ") or pass --collective");
    run.collective = collective ? *collective : *meta.collective;
    run.ranks = meta.ranks;
    run.nodes = meta.nodes;
    return run;
}

} // namespace astrolabe
