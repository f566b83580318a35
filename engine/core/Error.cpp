#include "core/Error.h"

#include "core/SimTime.h"
#include "core/Text.h"

#include <algorithm>
#include <cctype>

namespace astrolabe {

std::string formatError(ErrorKind, const std::string& message, const SourceLocation& where,
                        const std::string& hint) {
    std::string out;
    if (!where.file.empty()) {
        out += where.file;
        if (where.line > 0) {
            out += ':' + std::to_string(where.line);
            if (where.column > 0)
                out += ':' + std::to_string(where.column);
        }
        out += ": ";
    }
    if (!where.keyPath.empty())
        out += where.keyPath + ": ";
    out += message;
    if (!hint.empty())
        out += " (hint: " + hint + ")";
    return out;
}

Error::Error(ErrorKind kind, std::string message, SourceLocation where, std::string hint)
    : std::runtime_error(formatError(kind, message, where, hint))
    , m_kind(kind)
    , m_message(std::move(message))
    , m_where(std::move(where))
    , m_hint(std::move(hint)) {}

static std::string joinMessages(const std::vector<Error>& errors) {
    std::string out;
    for (const Error& e : errors) {
        if (!out.empty())
            out += '\n';
        out += e.what();
    }
    return out;
}

ErrorList::ErrorList(std::vector<Error> errors)
    : Error(errors.empty() ? ErrorKind::Internal : errors.front().kind(), joinMessages(errors))
    , m_errors(std::move(errors)) {}

size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            const bool same = std::tolower(a[i - 1]) == std::tolower(b[j - 1]);
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

std::string closestMatch(const std::string& word, const std::vector<std::string>& candidates) {
    std::string best;
    size_t bestDistance = std::max<size_t>(2, word.size() / 3) + 1;
    for (const std::string& c : candidates) {
        // The distance is at least the difference in length: a long word (a pasted paragraph, a
        // fuzzed key of 60 KiB) is never compared letter by letter with every name.
        const size_t lengthGap =
            word.size() > c.size() ? word.size() - c.size() : c.size() - word.size();
        if (lengthGap >= bestDistance)
            continue;
        const size_t d = editDistance(word, c);
        if (d < bestDistance) {
            bestDistance = d;
            best = c;
        }
    }
    return best;
}

std::string joinAlternatives(const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            out += i + 1 == names.size() ? " or " : ", ";
        out += names[i];
    }
    return out;
}

std::string quotedExcerpt(std::string_view text, size_t maxBytes) {
    static const char* const hex = "0123456789ABCDEF";
    std::string out = "\"";
    size_t at = 0;
    while (at < text.size() && at < maxBytes) {
        const auto byte = static_cast<unsigned char>(text[at]);
        const size_t sequence = byte >= 0x80 ? utf8SequenceLength(text, at) : 0;
        const bool bom = text.substr(at, 3) == "\xEF\xBB\xBF";
        if (sequence > 0 && !bom) {
            out.append(text.substr(at, sequence));
            at += sequence;
            continue;
        }
        if (byte == '"' || byte == '\\') {
            out += '\\';
            out += static_cast<char>(byte);
        } else if (byte >= 0x20 && byte < 0x7f) {
            out += static_cast<char>(byte);
        } else {
            out += "\\x";
            out += hex[byte >> 4];
            out += hex[byte & 0xf];
        }
        ++at;
    }
    out += '"';
    if (at < text.size())
        out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

TimeOverflow::TimeOverflow(const std::string& operation)
    : Error(ErrorKind::Internal, "simulated time overflow in " + operation, {},
            "simulated time is limited to about 106 days in picoseconds") {}

void throwTimeOverflow(const char* operation) {
    throw TimeOverflow(operation);
}

} // namespace astrolabe
