#include "yaml/JsonSupport.h"

#include "core/InputFile.h"
#include "core/JsonKeys.h"
#include "core/Units.h"

#include <vector>

namespace astrolabe::config {

namespace {

/// Every key given twice in one object, listed with its lines (core/JsonKeys.h).
void refuseRepeatedKeys(const std::string& text, const std::string& fileName) {
    const std::vector<RepeatedJsonKey> repeats = repeatedJsonKeys(text, Diagnostics::kErrorsListed);
    if (repeats.empty())
        return;
    Diagnostics d(fileName);
    for (const RepeatedJsonKey& r : repeats) {
        // A hostile key is quoted short in the message and stands as its excerpt in the path.
        const std::string path = r.key.size() <= 60 ? r.key : quotedExcerpt(r.key);
        d.error(d.at(r.line, r.column, path), repeatedJsonKeyMessage(r),
                "keep one of them: only the last would be read");
    }
    d.throwIfErrors();
}

} // namespace

std::pair<int, int> lineColumnAt(const std::string& text, size_t offset) {
    offset = std::min(offset, text.size());
    int line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < offset; ++i)
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    return {line, static_cast<int>(offset - lineStart) + 1};
}

JsonDocument parseJsonText(std::string text, const std::string& fileName) {
    JsonDocument doc;
    doc.file = fileName;
    try {
        doc.value = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte counts the bytes read, so the offending byte sits at offset byte - 1.
        const auto [line, column] = lineColumnAt(text, e.byte > 0 ? e.byte - 1 : 0);
        std::string what = e.what();
        // Drop nlohmann's own "[json.exception...] parse error at line L, column C: " prefix:
        // the location is ours.
        const size_t colon = what.find(": ");
        if (colon != std::string::npos)
            what = what.substr(colon + 2);
        // nlohmann points at the last byte it read, i.e. the end of the offending token; a
        // value where '}' or ']' was expected is nearly always a missing comma before it.
        const bool missingComma = what.find("expected '}'") != std::string::npos ||
                                  what.find("expected ']'") != std::string::npos;
        throw Error(ErrorKind::Input, "JSON syntax error: " + what,
                    SourceLocation{fileName, line, column, {}},
                    missingComma ? "is a comma missing before this value?"
                                 : "check commas, quotes and brackets around this point");
    } catch (const nlohmann::json::out_of_range& e) {
        // "number overflow parsing '1e400'": no offset is given, so the number is looked up.
        const std::string what = e.what();
        const size_t open = what.find('\''), close = what.rfind('\'');
        const std::string number = open != std::string::npos && close > open
                                       ? what.substr(open + 1, close - open - 1)
                                       : std::string();
        const size_t at = number.empty() ? std::string::npos : text.find(number);
        const auto [line, column] =
            at == std::string::npos ? std::pair{0, 0} : lineColumnAt(text, at);
        throw Error(ErrorKind::Input,
                    "the number " + (number.empty() ? std::string("here") : number) +
                        " is too large for a double (about 1.8e308 at most)",
                    SourceLocation{fileName, line, column, {}});
    }
    refuseRepeatedKeys(text, fileName);
    doc.text = std::move(text);
    return doc;
}

SourceLocation locateJsonKey(const Diagnostics& diagnostics, const std::string& text,
                             const std::string& key, const std::string& keyPath) {
    const std::string quoted = "\"" + key + "\"";
    size_t from = 0;
    while (true) {
        const size_t at = text.find(quoted, from);
        if (at == std::string::npos)
            return diagnostics.at(0, 0, keyPath);
        size_t next = at + quoted.size();
        while (next < text.size() && (text[next] == ' ' || text[next] == '\t' ||
                                      text[next] == '\n' || text[next] == '\r'))
            ++next;
        if (next < text.size() && text[next] == ':') {
            const auto [line, column] = lineColumnAt(text, at);
            return diagnostics.at(line, column, keyPath);
        }
        from = at + 1;
    }
}

std::string describeJson(const nlohmann::json& value) {
    switch (value.type()) {
    case nlohmann::json::value_t::null:
        return "null";
    case nlohmann::json::value_t::boolean:
        return value.get<bool>() ? "true" : "false";
    case nlohmann::json::value_t::string: {
        // Built by appends: GCC 12 warns falsely (-Wrestrict) on "\"" + std::string.
        std::string quoted(1, '"');
        quoted.append(value.get<std::string>()).push_back('"');
        return quoted;
    }
    case nlohmann::json::value_t::array:
        return "a list";
    case nlohmann::json::value_t::object:
        return "an object";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
        return "the number " + units::formatNumber(value.get<double>());
    default:
        return "an unreadable value";
    }
}

} // namespace astrolabe::config
