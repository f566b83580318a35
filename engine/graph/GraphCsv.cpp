#include "graph/GraphCsv.h"

#include "core/CsvLine.h"
#include "core/InputFile.h"
#include "core/Text.h"
#include "core/Units.h"
#include "graph/GraphDeviceName.h"
#include "spec/Diagnostics.h"
#include "yaml/ProjectValues.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace astrolabe {

GraphSpec parseGraphEdgeCsv(const std::string& text, const std::string& fileName, int npus,
                            int switches) {
    config::Diagnostics d(fileName);
    struct Row {
        std::pair<bool, int> from, to;
        GraphLinkSpec link;
    };
    std::vector<Row> rows;
    std::istringstream in{std::string(withoutByteOrderMark(text))};
    std::string line;
    int lineNo = 0;
    int highestNpu = -1, highestSwitch = -1;
    bool header = false;
    while (std::getline(in, line)) {
        ++lineNo;
        const std::string t(trimmed(line));
        if (t.empty() || t[0] == '#')
            continue;
        const CsvLine csv = splitCsvLine(line);
        if (!csv.problem.empty()) {
            d.error(d.at(lineNo, csv.problemColumn, header ? "link" : "header"), csv.problem,
                    "a field with a comma or a quote is written in quotes, a quote in it "
                    "doubled: \"say \"\"hi\"\"\"");
            header = true;
            continue;
        }
        const std::vector<CsvField>& f = csv.fields;
        if (!header) {
            header = true;
            if (f.size() < 4 || f[0].text != "from" || f[1].text != "to" ||
                f[2].text != "bandwidth" || f[3].text != "latency" ||
                (f.size() == 5 && f[4].text != "bidirectional") || f.size() > 5)
                d.error(d.at(lineNo, 1, "header"),
                        "expected the header from,to,bandwidth,latency[,bidirectional], found " +
                            quotedExcerpt(t));
            continue;
        }
        if (f.size() < 4 || f.size() > 5) {
            d.error(d.at(lineNo, 1, "link"),
                    "expected 4 or 5 fields (from,to,bandwidth,latency[,bidirectional]), found " +
                        std::to_string(f.size()));
            continue;
        }
        if (rows.size() >= kMaxGraphLinks) {
            d.error(d.at(lineNo, 1, "link"),
                    "expected at most " + std::to_string(kMaxGraphLinks) + " links");
            break;
        }
        Row r;
        r.link.line = lineNo;
        bool ok = true;
        r.from = parseGraphDeviceName(f[0].text);
        r.to = parseGraphDeviceName(f[1].text);
        for (int i : {0, 1}) {
            const auto& dev = i == 0 ? r.from : r.to;
            if (dev.second < 0) {
                d.error(d.at(lineNo, f[static_cast<size_t>(i)].column, i == 0 ? "from" : "to"),
                        "expected a device npuK or swK, found " +
                            quotedExcerpt(f[static_cast<size_t>(i)].text));
                ok = false;
            } else if (dev.first) {
                highestSwitch = std::max(highestSwitch, dev.second);
            } else {
                highestNpu = std::max(highestNpu, dev.second);
            }
        }
        try {
            r.link.bandwidthBytesPerSecond = units::parseBandwidthBytesPerSecond(f[2].text);
            if (!(r.link.bandwidthBytesPerSecond > 0)) {
                d.error(d.at(lineNo, f[2].column, "bandwidth"),
                        "expected a bandwidth greater than zero, found " +
                            quotedExcerpt(f[2].text));
                ok = false;
            }
        } catch (const Error& e) {
            d.relocate(e, d.at(lineNo, f[2].column, "bandwidth"));
            ok = false;
        }
        try {
            r.link.latencyNs = static_cast<double>(units::parseTime(f[3].text).ps()) / 1e3;
        } catch (const Error& e) {
            d.relocate(e, d.at(lineNo, f[3].column, "latency"));
            ok = false;
        }
        if (f.size() == 5) {
            std::string b = f[4].text;
            std::transform(b.begin(), b.end(), b.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            if (b == "true" || b == "1" || b == "yes")
                r.link.bidirectional = true;
            else if (b == "false" || b == "0" || b == "no")
                r.link.bidirectional = false;
            else {
                d.error(d.at(lineNo, f[4].column, "bidirectional"),
                        "expected true or false, found " + quotedExcerpt(f[4].text));
                ok = false;
            }
        }
        if (ok)
            rows.push_back(r);
    }
    if (!header)
        d.error(
            d.at(1, 1, "header"), "the file is empty",
            "expected the header from,to,bandwidth,latency[,bidirectional] and one link a line");
    GraphSpec g;
    g.npus = npus >= 0 ? npus : highestNpu + 1;
    g.switches = switches >= 0 ? switches : highestSwitch + 1;
    for (const Row& r : rows) {
        GraphLinkSpec link = r.link;
        bool ok = true;
        for (const auto& dev : {r.from, r.to}) {
            const int count = dev.first ? g.switches : g.npus;
            if (dev.second >= count) {
                std::string what = "expected ";
                what += dev.first ? "a switch below sw" : "an NPU below npu";
                what += std::to_string(count);
                what += ", found ";
                what += dev.first ? "sw" : "npu";
                what += std::to_string(dev.second);
                d.error(d.at(r.link.line, 1, dev == r.from ? "from" : "to"), what,
                        "raise --npus or --switches");
                ok = false;
            }
        }
        if (!ok)
            continue;
        link.from = r.from.first ? g.npus + r.from.second : r.from.second;
        link.to = r.to.first ? g.npus + r.to.second : r.to.second;
        g.links.push_back(link);
    }
    d.throwIfErrors();
    std::vector<GraphProblem> problems = repeatedLinks(g);
    if (problems.empty())
        problems = graphProblems(g);
    for (const GraphProblem& p : problems) {
        const int line = p.link >= 0 ? g.links[static_cast<size_t>(p.link)].line : 0;
        d.error(d.at(line, 0, p.link >= 0 ? "link" : "graph"), p.what);
    }
    d.throwIfErrors();
    g.generator = "edge list";
    return g;
}

std::vector<GraphProblem> repeatedLinks(const GraphSpec& g) {
    std::vector<GraphProblem> out;
    std::map<std::pair<int, int>, size_t> direction; // (from, to) -> the link that has it
    for (size_t i = 0; i < g.links.size() && out.size() < 8; ++i) {
        const GraphLinkSpec& l = g.links[i];
        if (l.from == l.to) // a link to itself: graphProblems names it
            continue;
        for (const auto& [a, b] : {std::pair{l.from, l.to}, std::pair{l.to, l.from}}) {
            if (a == l.to && !l.bidirectional)
                break;
            const auto [it, added] = direction.try_emplace({a, b}, i);
            if (added)
                continue;
            const GraphLinkSpec& first = g.links[it->second];
            out.push_back({static_cast<int>(i),
                           g.deviceName(a) + " -> " + g.deviceName(b) + " is linked twice (also " +
                               (first.line > 0 ? "on line " + std::to_string(first.line)
                                               : "by link " + std::to_string(it->second)) +
                               "): give one link with the bandwidths added (two 25 GB/s NVLinks: "
                               "one link of 50 GB/s)"});
            break;
        }
    }
    return out;
}

GraphSpec loadGraphEdgeCsv(const std::string& path, int npus, int switches) {
    return parseGraphEdgeCsv(readInputFile(path, "edge list"), path, npus, switches);
}

std::string graphEdgeCsvText(const GraphSpec& graph) {
    std::string text = "from,to,bandwidth,latency,bidirectional\n";
    for (const GraphLinkSpec& l : graph.links)
        text += graph.deviceName(l.from) + "," + graph.deviceName(l.to) + "," +
                config::bandwidthText(l.bandwidthBytesPerSecond) + "," +
                config::nanosecondsText(l.latencyNs) + "," + (l.bidirectional ? "true" : "false") +
                "\n";
    return text;
}

} // namespace astrolabe
