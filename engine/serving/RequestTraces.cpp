// Public request traces: the Azure LLM inference trace (2023 and 2024 releases) and BurstGPT.
#include "core/CsvLine.h"
#include "core/Error.h"
#include "core/InputFile.h"
#include "core/Text.h"
#include "core/Units.h"
#include "serving/Requests.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>

namespace astrolabe::serving {
namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool parseNumber(const std::string& text, double& out) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end && std::isfinite(out);
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t daysFromCivil(int64_t y, int64_t m, int64_t d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/// Seconds of "2023-11-16 18:15:46.6805900" (or "...T...", an optional "+00:00"/"Z"), or of a
/// plain number of seconds.
bool parseTimestamp(const std::string& text, double& seconds) {
    if (parseNumber(text, seconds))
        return true;
    int y = 0, mo = 0, d = 0, h = 0, mi = 0;
    double s = 0;
    char sep = 0;
    std::istringstream in(text);
    char dash1 = 0, dash2 = 0, colon1 = 0, colon2 = 0;
    if (!(in >> y >> dash1 >> mo >> dash2 >> d) || dash1 != '-' || dash2 != '-')
        return false;
    in.get(sep);
    if (sep != ' ' && sep != 'T')
        return false;
    if (!(in >> h >> colon1 >> mi >> colon2 >> s) || colon1 != ':' || colon2 != ':')
        return false;
    if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s < 0 || s >= 61)
        return false;
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    const int days[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (d > days[mo - 1]) // 2023-02-31 is no day
        return false;
    seconds = double(daysFromCivil(y, mo, d)) * 86400.0 + h * 3600.0 + mi * 60.0 + s;
    return true;
}

struct Columns {
    int time = -1, prompt = -1, output = -1;
};

/// The columns the trace is read from; a column named twice is refused (which one holds the
/// lengths could only be guessed), with both positions.
Columns findColumns(const std::vector<std::string>& header, const std::string& format,
                    const SourceLocation& where) {
    Columns c;
    auto take = [&](int& column, size_t i) {
        if (column >= 0)
            throw Error(ErrorKind::Input,
                        "the header names " + quotedExcerpt(header[i]) + " twice (columns " +
                            std::to_string(column + 1) + " and " + std::to_string(i + 1) + ")",
                        where, "keep one of them");
        column = int(i);
    };
    for (size_t i = 0; i < header.size(); ++i) {
        const std::string name = lower(header[i]);
        if (name == "timestamp")
            take(c.time, i);
        if (format == "azure" ? name == "contexttokens" : name == "request tokens")
            take(c.prompt, i);
        if (format == "azure" ? name == "generatedtokens" : name == "response tokens")
            take(c.output, i);
    }
    return c;
}

} // namespace

std::vector<Request> parseRequestTrace(const std::string& text, const std::string& file,
                                       const std::string& format, double durationSeconds,
                                       double prefixReuse, std::vector<std::string>* warnings) {
    if (format != "azure" && format != "burstgpt")
        throw Error(ErrorKind::Validation, "unknown trace format \"" + format + "\"",
                    SourceLocation{{}, 0, 0, "serving.trace-format"}, "valid: azure, burstgpt");
    const std::string expected = format == "azure"
                                     ? "TIMESTAMP,ContextTokens,GeneratedTokens"
                                     : "Timestamp,Model,Request tokens,Response tokens,...";
    std::istringstream in(text);
    std::string line;
    int row = 0;
    Columns columns;
    size_t width = 0;
    std::vector<Request> out;
    double first = 0, previous = 0;
    bool started = false;
    int64_t skipped = 0;
    bool datesFirst = false; // the first row's timestamp is a date, not seconds
    while (std::getline(in, line)) {
        ++row;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (row == 1)
            line = std::string(withoutByteOrderMark(line));
        if (trimmed(line).empty())
            continue;
        CsvLine csv = splitCsvLine(line);
        if (!csv.problem.empty())
            throw Error(ErrorKind::Input, "row " + std::to_string(row) + ": " + csv.problem,
                        SourceLocation{file, row, csv.problemColumn, {}});
        std::vector<std::string> fields;
        for (CsvField& field : csv.fields)
            fields.push_back(std::move(field.text));
        if (width == 0) {
            columns = findColumns(fields, format, SourceLocation{file, row, 0, {}});
            if (columns.time < 0 || columns.prompt < 0 || columns.output < 0)
                throw Error(ErrorKind::Input,
                            "expected the " + format + " trace's header " + expected + ", found " +
                                quotedExcerpt(line),
                            SourceLocation{file, row, 0, {}});
            width = fields.size();
            continue;
        }
        auto fail = [&](const std::string& what) {
            return Error(ErrorKind::Input, "row " + std::to_string(row) + ": " + what,
                         SourceLocation{file, row, 0, {}});
        };
        if (fields.size() < width)
            throw fail("expected " + std::to_string(width) + " columns, found " +
                       std::to_string(fields.size()));
        double t = 0, prompt = 0, output = 0;
        if (!parseTimestamp(fields[size_t(columns.time)], t))
            throw fail("expected a timestamp (seconds or YYYY-MM-DD HH:MM:SS.fff), found " +
                       quotedExcerpt(fields[size_t(columns.time)]));
        // Seconds on one row and a date on another are 1.7e9 s apart: no trace means that.
        double plain = 0;
        const bool date = !parseNumber(fields[size_t(columns.time)], plain);
        if (started && date != datesFirst)
            throw fail(std::string("the timestamps mix seconds and dates: this row has ") +
                       (date ? "a date" : "seconds") + ", the first request " +
                       (datesFirst ? "a date" : "seconds"));
        const std::string& promptText = fields[size_t(columns.prompt)];
        const std::string& outputText = fields[size_t(columns.output)];
        if (!parseNumber(promptText, prompt) || prompt != std::floor(prompt) || prompt < 0 ||
            prompt > double(kMaxRequestTokens))
            throw fail("expected a prompt length of 1 to " + std::to_string(kMaxRequestTokens) +
                       " tokens, found " + quotedExcerpt(promptText));
        if (!parseNumber(outputText, output) || output != std::floor(output) || output < 0 ||
            output > double(kMaxRequestTokens))
            throw fail("expected an output length of 0 to " + std::to_string(kMaxRequestTokens) +
                       " tokens, found " + quotedExcerpt(outputText));
        if (!started) {
            first = previous = t;
            started = true;
            datesFirst = date;
        }
        if (t < previous)
            throw fail("the timestamp goes backwards (" + std::to_string(t - first) +
                       " s after the first request, before the previous row's " +
                       std::to_string(previous - first) + " s)");
        previous = t;
        if (prompt < 1)
            throw fail("a zero-length prompt cannot be served");
        if (output < 1) {
            if (format == "burstgpt") { // BurstGPT logs failed requests with no response
                ++skipped;
                continue;
            }
            throw fail("a request that generates no token cannot be served");
        }
        if (durationSeconds > 0 && t - first >= durationSeconds) {
            if (warnings)
                warnings->push_back(file + ": read up to row " + std::to_string(row - 1) +
                                    ": the rows from " + std::to_string(row) + " on arrive " +
                                    units::formatNumber(std::round((t - first) * 1000) / 1000) +
                                    " s or more after the first, past serving.duration (" +
                                    units::formatNumber(durationSeconds) + " s)");
            break;
        }
        if (int64_t(out.size()) >= kMaxServingRequests)
            throw fail("more requests than the limit of " + std::to_string(kMaxServingRequests) +
                       " (" + kLimitsHint + ")");
        Request r;
        r.id = int64_t(out.size());
        r.arrivalSeconds = t - first;
        r.promptTokens = static_cast<int32_t>(prompt);
        r.outputTokens = static_cast<int32_t>(output);
        r.cachedTokens = std::clamp<int32_t>(
            static_cast<int32_t>(std::floor(r.promptTokens * prefixReuse)), 0, r.promptTokens - 1);
        out.push_back(r);
    }
    if (width == 0)
        throw Error(ErrorKind::Input, "the trace is empty; expected the header " + expected,
                    SourceLocation{file, 0, 0, {}});
    if (out.empty())
        throw Error(ErrorKind::Input, "the trace holds no request", SourceLocation{file, 0, 0, {}});
    if (skipped > 0 && warnings)
        warnings->push_back(file + ": skipped " + std::to_string(skipped) +
                            " failed requests (0 response tokens)");
    return out;
}

std::vector<Request> readRequestTrace(const std::string& path, const std::string& format,
                                      double durationSeconds, double prefixReuse,
                                      std::vector<std::string>* warnings) {
    return parseRequestTrace(readInputFile(path, "the request trace", uint64_t{4} << 30), path,
                             format, durationSeconds, prefixReuse, warnings);
}

} // namespace astrolabe::serving
