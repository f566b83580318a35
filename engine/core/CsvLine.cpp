#include "core/CsvLine.h"

namespace astrolabe {

namespace {

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

} // namespace

CsvLine splitCsvLine(std::string_view line) {
    CsvLine out;
    size_t at = 0;
    while (true) {
        while (at < line.size() && isBlank(line[at]))
            ++at;
        CsvField field;
        field.column = static_cast<int>(at) + 1;
        if (at < line.size() && line[at] == '"') {
            size_t i = at + 1;
            bool closed = false;
            while (i < line.size()) {
                if (line[i] != '"') {
                    field.text.push_back(line[i++]);
                } else if (i + 1 < line.size() && line[i + 1] == '"') {
                    field.text.push_back('"');
                    i += 2;
                } else {
                    closed = true;
                    ++i;
                    break;
                }
            }
            if (!closed) {
                out.problem = "a quote opened here is not closed on this line";
                out.problemColumn = field.column;
                return out;
            }
            while (i < line.size() && isBlank(line[i]))
                ++i;
            if (i < line.size() && line[i] != ',') {
                out.problem = "expected a comma after the closing quote";
                out.problemColumn = static_cast<int>(i) + 1;
                return out;
            }
            at = i;
        } else {
            const size_t start = at;
            const size_t comma = line.find(',', at);
            size_t end = comma == std::string_view::npos ? line.size() : comma;
            at = end;
            while (end > start && isBlank(line[end - 1]))
                --end;
            field.text.assign(line.substr(start, end - start));
        }
        out.fields.push_back(std::move(field));
        if (at >= line.size())
            break;
        ++at; // the comma
    }
    return out;
}

} // namespace astrolabe
