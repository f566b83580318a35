#include "core/JsonKeys.h"

#include "core/Error.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace astrolabe {
namespace {

/// The keys of one open object. Objects hold a few keys, searched in place; one that grows large
/// (a map of thousands of groups) moves them to a hash map. Reused level by level, so that a
/// trace of a million small objects allocates once per nesting level.
class ObjectKeys {
public:
    void clear() {
        m_few.clear();
        m_many.clear();
    }
    /// The line `key` was first given on, or 0 when it is new (it is then noted at `line`).
    int firstLine(std::string_view key, int line) {
        if (m_many.empty()) {
            for (const auto& [k, l] : m_few)
                if (k == key)
                    return l;
            m_few.emplace_back(key, line);
            if (m_few.size() > kFew) {
                m_many.insert(m_few.begin(), m_few.end());
                m_few.clear();
            }
            return 0;
        }
        const auto [at, fresh] = m_many.emplace(key, line);
        return fresh ? 0 : at->second;
    }

private:
    static constexpr size_t kFew = 32;
    std::vector<std::pair<std::string_view, int>> m_few;
    std::unordered_map<std::string_view, int> m_many;
};

struct Level {
    bool object = false;
    bool expectingKey = false;
    ObjectKeys keys;
};

} // namespace

std::vector<RepeatedJsonKey> repeatedJsonKeys(std::string_view text, size_t limit) {
    std::vector<RepeatedJsonKey> out;
    std::vector<Level> levels;
    size_t depth = 0;
    int line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < text.size() && out.size() < limit; ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            lineStart = i + 1;
        } else if (c == '{' || c == '[') {
            if (depth == levels.size())
                levels.emplace_back();
            Level& level = levels[depth++];
            level.object = level.expectingKey = c == '{';
            level.keys.clear();
        } else if (c == '}' || c == ']') {
            depth -= depth > 0;
        } else if (c == ',') {
            if (depth > 0 && levels[depth - 1].object)
                levels[depth - 1].expectingKey = true;
        } else if (c == '"') {
            const size_t start = i;
            const int startLine = line;
            const int startColumn = static_cast<int>(i - lineStart) + 1;
            for (++i; i < text.size() && text[i] != '"'; ++i) {
                if (text[i] == '\\') {
                    ++i;
                } else if (text[i] == '\n') { // not JSON; the line count stays right anyway
                    ++line;
                    lineStart = i + 1;
                }
            }
            if (depth == 0 || !levels[depth - 1].expectingKey)
                continue;
            Level& level = levels[depth - 1];
            level.expectingKey = false;
            const std::string_view key =
                text.substr(start + 1, std::min(i, text.size()) - start - 1);
            if (const int first = level.keys.firstLine(key, startLine); first > 0)
                out.push_back({std::string(key), first, startLine, startColumn});
        }
    }
    return out;
}

std::string repeatedJsonKeyMessage(const RepeatedJsonKey& repeat) {
    std::string message = "the key " + quotedExcerpt(repeat.key) + " is given twice in one object";
    if (repeat.firstLine > 0 && repeat.line > 0)
        message += repeat.firstLine == repeat.line
                       ? ", both on line " + std::to_string(repeat.line)
                       : ", on lines " + std::to_string(repeat.firstLine) + " and " +
                             std::to_string(repeat.line);
    return message;
}

void refuseRepeatedJsonKeys(std::string_view text, const std::string& file) {
    const std::vector<RepeatedJsonKey> repeats = repeatedJsonKeys(text, 1);
    if (repeats.empty())
        return;
    const RepeatedJsonKey& r = repeats.front();
    // A hostile key is quoted short in the message and stands as its excerpt in the path.
    throw Error(
        ErrorKind::Input, repeatedJsonKeyMessage(r),
        SourceLocation{file, r.line, r.column, r.key.size() <= 60 ? r.key : quotedExcerpt(r.key)},
        "keep one of them: only the last would be read");
}

} // namespace astrolabe
