#include "project/ProjectComments.h"

#include "core/Text.h"

#include <map>
#include <string_view>
#include <vector>

namespace astrolabe {
namespace {

int indentOf(std::string_view line) {
    int n = 0;
    while (static_cast<size_t>(n) < line.size() && line[static_cast<size_t>(n)] == ' ')
        ++n;
    return n;
}

/// Whether a quote at `i` opens a quoted scalar: at the start of a value, not inside a word
/// ("Lesson's" is plain text).
bool opensQuote(std::string_view line, size_t i) {
    size_t j = i;
    while (j > 0 && (line[j - 1] == ' ' || line[j - 1] == '\t'))
        --j;
    if (j == 0)
        return true;
    const char before = line[j - 1];
    return before == ':' || before == '-' || before == '[' || before == '{' || before == ',' ||
           before == '?';
}

/// Where a line's comment starts: a '#' at the start of its content or after a blank, outside
/// quotes; npos when it has none.
size_t commentStart(std::string_view line) {
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote != 0) {
            if (quote == '"' && c == '\\')
                ++i;
            else if (c == quote && quote == '\'' && i + 1 < line.size() && line[i + 1] == '\'')
                ++i; // '' is a quote inside single quotes
            else if (c == quote)
                quote = 0;
            continue;
        }
        if ((c == '"' || c == '\'') && opensQuote(line, i))
            quote = c;
        else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t'))
            return i;
    }
    return std::string_view::npos;
}

/// The key of a "key: value" or "key:" content, unquoted; empty for a flow collection, a
/// scalar or a line without one.
std::string keyOf(std::string_view content) {
    if (content.empty() || content.front() == '{' || content.front() == '[')
        return {};
    char quote = 0;
    for (size_t i = 0; i < content.size(); ++i) {
        const char c = content[i];
        if (quote != 0) {
            if (c == quote)
                quote = 0;
            continue;
        }
        if ((c == '"' || c == '\'') && i == 0)
            quote = c;
        else if (c == '#' && i > 0 && content[i - 1] == ' ')
            return {};
        else if (c == ':' && (i + 1 == content.size() || content[i + 1] == ' ')) {
            std::string_view key = content.substr(0, i);
            while (!key.empty() && key.back() == ' ')
                key.remove_suffix(1);
            if (key.size() >= 2 && (key.front() == '"' || key.front() == '\'') &&
                key.back() == key.front())
                key = key.substr(1, key.size() - 2);
            return std::string(key);
        }
    }
    return {};
}

/// Whether the value after a key opens a block scalar ("notes: |", "text: >-").
bool opensBlockScalar(std::string_view content) {
    const size_t colon = content.find(": ");
    if (colon == std::string_view::npos)
        return false;
    std::string_view value = content.substr(colon + 2);
    while (!value.empty() && value.front() == ' ')
        value.remove_prefix(1);
    return !value.empty() && (value.front() == '|' || value.front() == '>');
}

/// The key path of each line of a block-style YAML text, read top to bottom.
class PathTracker {
public:
    /// Whether a line at `indent` is text of a block scalar opened above.
    bool inBlockScalar(int indent) {
        if (m_blockIndent >= 0 && indent > m_blockIndent)
            return true;
        m_blockIndent = -1;
        return false;
    }

    /// The path of a content line ("system.chunks", "platform.dimensions[0]"); empty for a
    /// line that holds no key (a flow collection's continuation, block scalar text).
    std::string pathOf(std::string_view line) {
        const int indent = indentOf(line);
        if (inBlockScalar(indent))
            return {};
        std::string_view content = line.substr(static_cast<size_t>(indent));
        if (content == "-" || content.starts_with("- ")) {
            while (!m_stack.empty() && m_stack.back().indent > indent)
                m_stack.pop_back();
            if (!m_stack.empty() && m_stack.back().indent == indent && m_stack.back().item)
                m_stack.pop_back();
            const std::string parent = m_stack.empty() ? std::string() : m_stack.back().path;
            const std::string item = parent + "[" + std::to_string(m_items[parent]++) + "]";
            m_stack.push_back({indent, item, true});
            std::string_view rest = content.substr(1);
            const int restIndent = indent + 1 + indentOf(rest);
            rest.remove_prefix(static_cast<size_t>(indentOf(rest)));
            if (const std::string key = keyOf(rest); !key.empty()) {
                m_stack.push_back({restIndent, item + "." + key, false});
                m_items.erase(item + "." + key);
                if (opensBlockScalar(rest))
                    m_blockIndent = restIndent;
            }
            return item;
        }
        while (!m_stack.empty() && m_stack.back().indent >= indent)
            m_stack.pop_back();
        const std::string key = keyOf(content);
        if (key.empty())
            return {};
        const std::string path = m_stack.empty() ? key : m_stack.back().path + "." + key;
        m_stack.push_back({indent, path, false});
        m_items.erase(path); // its list items count from 0 again
        if (opensBlockScalar(content))
            m_blockIndent = indent;
        return path;
    }

private:
    struct Entry {
        int indent;
        std::string path;
        bool item;
    };
    std::vector<Entry> m_stack;
    std::map<std::string, int> m_items; ///< list items seen so far under each path
    int m_blockIndent = -1;             ///< the key line of an open block scalar, or -1
};

std::string_view withoutIndent(std::string_view line) {
    return line.substr(static_cast<size_t>(indentOf(line)));
}

} // namespace

std::string withCommentsOf(const std::string& original, const std::string& written) {
    // The original's comments, by the key path they belong to.
    std::map<std::string, std::vector<std::string>> above;
    std::map<std::string, std::string> atEnd;
    std::vector<std::string> header, pending;
    bool keySeen = false;
    PathTracker reading;
    for (const std::string_view line : splitLines(original)) {
        const std::string_view content = withoutIndent(line);
        if (content.empty() || reading.inBlockScalar(indentOf(line)))
            continue;
        if (content.front() == '#') {
            pending.emplace_back(content);
            continue;
        }
        const std::string path = reading.pathOf(line);
        if (path.empty())
            continue;
        std::vector<std::string>& into = keySeen ? above[path] : header;
        into.insert(into.end(), pending.begin(), pending.end());
        pending.clear();
        keySeen = true;
        if (const size_t hash = commentStart(line); hash != std::string_view::npos)
            atEnd[path] = std::string(line.substr(hash));
    }
    const std::vector<std::string> footer = keySeen ? pending : std::vector<std::string>{};
    if (!keySeen)
        header = pending; // a file of comments alone: they lead

    std::string out;
    bool headerDone = header.empty(); // no comments of its own: the writer's header stays
    PathTracker writing;
    for (const std::string_view line : splitLines(written)) {
        const std::string_view content = withoutIndent(line);
        if (!content.empty() && content.front() == '#' && !headerDone)
            continue; // the writer's header, replaced by the original's
        if (content.empty() || content.front() == '#') {
            out.append(line).append("\n");
            continue;
        }
        if (!headerDone) {
            for (const std::string& h : header)
                out.append(h).append("\n");
            headerDone = true;
        }
        const std::string path = writing.pathOf(line);
        const std::string indent(static_cast<size_t>(indentOf(line)), ' ');
        if (const auto it = above.find(path); it != above.end() && !path.empty()) {
            for (const std::string& c : it->second)
                out.append(indent).append(c).append("\n");
            above.erase(it);
        }
        out.append(line);
        if (const auto it = atEnd.find(path);
            it != atEnd.end() && !path.empty() && commentStart(line) == std::string_view::npos) {
            out.append("  ").append(it->second);
            atEnd.erase(it);
        }
        out.append("\n");
    }
    for (const std::string& f : footer)
        out.append(f).append("\n");
    return out;
}

} // namespace astrolabe
