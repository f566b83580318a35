#include "lesson/Lesson.h"

#include "core/Error.h"
#include "core/Text.h"
#include "lesson/LessonRun.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>

namespace astrolabe {

namespace {

/// A quoted number, [[metric=value]]: metric [a-z][a-z0-9-]*, value one or more characters
/// that are neither ']' nor white space. Scanned by hand in one pass, without recursion, so a
/// value of any length costs only its length.
struct Quote {
    size_t begin = 0, end = 0;
    std::string metric, value;
};

std::optional<Quote> quoteAt(const std::string& s, size_t at) {
    if (s.compare(at, 2, "[[") != 0)
        return std::nullopt;
    size_t i = at + 2;
    if (i >= s.size() || s[i] < 'a' || s[i] > 'z')
        return std::nullopt;
    const size_t m = i;
    while (i < s.size() &&
           ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
        ++i;
    if (i >= s.size() || s[i] != '=')
        return std::nullopt;
    const std::string metric = s.substr(m, i - m);
    const size_t v = ++i;
    while (i < s.size() && s[i] != ']' && !std::isspace(static_cast<unsigned char>(s[i])))
        ++i;
    if (i == v || s.compare(i, 2, "]]") != 0)
        return std::nullopt;
    return Quote{at, i + 2, metric, s.substr(v, i - v)};
}

/// Every quote of `s`, left to right, not overlapping.
std::vector<Quote> quotesOf(const std::string& s) {
    std::vector<Quote> out;
    for (size_t at = s.find("[["); at != std::string::npos;) {
        if (auto q = quoteAt(s, at)) {
            at = s.find("[[", q->end);
            out.push_back(std::move(*q));
        } else {
            at = s.find("[[", at + 1);
        }
    }
    return out;
}

/// Where a "[[" starts that the author meant as a quote but quoteAt does not take: "[[metric="
/// not closed by "]]" or with a space in its value, "[[=value]]" without its metric, or
/// "[[time-us]]", a metric without its value. It would pass unchecked as text. npos when none.
size_t unclosedQuote(const std::string& s, const std::vector<Quote>& quotes) {
    for (size_t at = s.find("[["); at != std::string::npos; at = s.find("[[", at + 2)) {
        if (std::any_of(quotes.begin(), quotes.end(),
                        [&](const Quote& q) { return q.begin <= at && at < q.end; }))
            continue;
        size_t i = at + 2;
        if (i < s.size() && s[i] == '=')
            return at; // no metric
        if (i >= s.size() || s[i] < 'a' || s[i] > 'z')
            continue;
        while (i < s.size() &&
               ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
            ++i;
        if (i < s.size() && s[i] == '=')
            return at;
        // "[[time-us]]": a metric without its value ("[[link]]", a word no metric has, is text).
        if (s.compare(i, 2, "]]") == 0) {
            const std::string word = s.substr(at + 2, i - at - 2);
            const auto& known = lessonMetrics();
            if (std::any_of(known.begin(), known.end(),
                            [&](const auto& metric) { return metric.first == word; }))
                return at;
        }
    }
    return std::string::npos;
}

/// `s` with each quote replaced by its value (`placeholder` null) or by `*placeholder`.
std::string replaceQuotes(const std::string& s, const std::string* placeholder) {
    std::string out;
    size_t from = 0;
    for (const Quote& q : quotesOf(s)) {
        out.append(s, from, q.begin - from);
        out += placeholder ? *placeholder : q.value;
        from = q.end;
    }
    out.append(s, from, std::string::npos);
    return out;
}

struct Parser {
    std::string file;
    Lesson lesson;
    std::vector<Error> errors;

    void fail(int line, const std::string& message, const std::string& hint = {}) {
        errors.emplace_back(ErrorKind::Validation, message, SourceLocation{file, line, 0, {}},
                            hint);
    }

    /// "set PATH = VALUE" (try and setup blocks).
    bool parseSet(const std::string& line, int lineNumber, std::vector<LessonSetting>& out) {
        if (line.rfind("set ", 0) != 0)
            return false;
        const size_t eq = line.find('=');
        if (eq == std::string::npos) {
            fail(lineNumber, "expected \"set <path> = <value>\", found \"" + line + "\"");
            return true;
        }
        LessonSetting setting{std::string(trimmed(std::string_view(line).substr(4, eq - 4))),
                              std::string(trimmed(std::string_view(line).substr(eq + 1))),
                              lineNumber};
        if (setting.path.empty() || setting.value.empty())
            fail(lineNumber, "expected \"set <path> = <value>\", found \"" + line + "\"");
        else
            out.push_back(std::move(setting));
        return true;
    }

    void blockLine(const std::string& kind, const std::string& line, int lineNumber,
                   LessonBlock& block, bool& seenSeparator) {
        const std::string text(trimmed(line));
        if (kind == "question") {
            if (text == "---")
                seenSeparator = true;
            else
                (seenSeparator ? block.answer : block.markdown) += line + "\n";
            return;
        }
        if (text.empty() || text[0] == '#' || (kind == "try" && text == "run"))
            return;
        if (kind == "setup" && text.rfind("project:", 0) == 0) {
            lesson.projectPath = trimmed(std::string_view(text).substr(8));
            lesson.projectLine = lineNumber;
            return;
        }
        if (!parseSet(text, lineNumber, kind == "setup" ? lesson.setup : block.settings))
            fail(lineNumber,
                 "in a " + kind + " block: expected \"set <path> = <value>\"" +
                     (kind == "try" ? std::string(" or \"run\"") : std::string()) +
                     (kind == "setup" ? std::string(" or \"project: <file>\"") : std::string()) +
                     ", found \"" + text + "\"");
    }

    void quotesIn(const std::string& markdown, int firstLine, int step) {
        std::istringstream in(markdown);
        std::string line;
        for (int n = firstLine; std::getline(in, line); ++n) {
            const std::vector<Quote> quotes = quotesOf(line);
            if (const size_t at = unclosedQuote(line, quotes); at != std::string::npos) {
                std::string shown(1, '"');
                shown.append(line, at, 32);
                if (line.size() - at > 32)
                    shown.append("...");
                shown.append("\": a quoted number that is not [[metric=value]]");
                fail(n, shown, "write [[metric=value]], the value without spaces");
            }
            for (const Quote& quote : quotes) {
                const std::string& metric = quote.metric;
                const std::string& value = quote.value;
                const auto& known = lessonMetrics();
                std::vector<std::string> names;
                for (const auto& m : known)
                    names.push_back(m.first);
                if (std::find(names.begin(), names.end(), metric) == names.end())
                    fail(n, "unknown metric \"" + metric + "\" in [[" + metric + "=" + value + "]]",
                         "the metrics are " + joinAlternatives(names));
                else if (value.find_first_not_of("0123456789.-") != std::string::npos)
                    fail(n, "[[" + metric + "=" + value + "]]: the value is not a plain number");
                else if (step < 0)
                    fail(n, "[[" + metric + "=" + value + "]] comes before any \"try\" block",
                         "a quoted number is checked against the step above it");
                else
                    lesson.quotes.push_back({metric, value, step, n});
            }
        }
    }
};

} // namespace

int Lesson::stepCount() const {
    return static_cast<int>(std::count_if(blocks.begin(), blocks.end(), [](const LessonBlock& b) {
        return b.kind == LessonBlock::Kind::Try;
    }));
}

std::vector<LessonSetting> Lesson::settingsUpTo(int step) const {
    std::vector<LessonSetting> out = setup;
    for (const LessonBlock& block : blocks)
        if (block.kind == LessonBlock::Kind::Try && block.step <= step)
            out.insert(out.end(), block.settings.begin(), block.settings.end());
    return out;
}

Lesson parseLesson(const std::string& text, const std::string& fileName) {
    Parser p;
    p.file = fileName;
    p.lesson.file = fileName;
    std::istringstream in{std::string(withoutByteOrderMark(text))};
    std::string line;
    int lineNumber = 0;
    int setupLine = 0, firstTryLine = 0;
    LessonBlock current;
    current.line = 1;
    std::string fence; // the open block's kind; empty outside blocks
    bool separator = false;
    int steps = 0;
    auto flushText = [&] {
        if (current.kind == LessonBlock::Kind::Text && !trimmed(current.markdown).empty()) {
            p.quotesIn(current.markdown, current.line, steps - 1);
            p.lesson.blocks.push_back(current);
        }
    };
    while (std::getline(in, line)) {
        ++lineNumber;
        // A lesson is UTF-8 text: a NUL byte or a byte of another encoding would reach the
        // window's page as a cut line or a replacement mark.
        if (const size_t bad = firstNonTextByte(line); bad != std::string::npos) {
            p.fail(lineNumber,
                   (line[bad] == '\0' ? std::string("a NUL byte") : "a byte that is not UTF-8") +
                       " at column " + std::to_string(bad + 1) + ": " +
                       quotedExcerpt(std::string_view(line).substr(bad, 8)),
                   "save the lesson as UTF-8 text");
            continue;
        }
        const std::string text(trimmed(line));
        if (fence.empty()) {
            if (text == "```setup" || text == "```try" || text == "```question") {
                // One setup, before the steps: it runs before every step, so a second one or
                // one after a step would change what earlier steps showed.
                if (text == "```setup" && setupLine > 0)
                    p.fail(lineNumber,
                           "a second setup block (the first is on line " +
                               std::to_string(setupLine) + ")",
                           "a lesson has one setup block: merge them");
                else if (text == "```setup" && firstTryLine > 0)
                    p.fail(lineNumber,
                           "the setup block comes after the first step (line " +
                               std::to_string(firstTryLine) + "): it runs before every step",
                           "move it before the first ```try block");
                if (text == "```setup")
                    setupLine = lineNumber;
                if (text == "```try" && firstTryLine == 0)
                    firstTryLine = lineNumber;
                flushText();
                fence = text.substr(3);
                separator = false;
                current = LessonBlock{};
                current.line = lineNumber;
                current.kind =
                    fence == "try" ? LessonBlock::Kind::Try : LessonBlock::Kind::Question;
                if (fence == "try")
                    current.step = steps++;
                continue;
            }
            // A misspelt block ("```tryy") would be shown as code and its step silently lost;
            // other fences ("```yaml") are code on purpose.
            if (text.size() > 3 && text.rfind("```", 0) == 0) {
                const std::string tag = text.substr(3, text.find(' ') - 3);
                for (const std::string kind : {"setup", "try", "question"})
                    if (const size_t d = editDistance(tag, kind);
                        d > 0 && d <= (kind.size() <= 3 ? 1u : 2u))
                        p.fail(lineNumber,
                               "unknown block \"```" + tag + "\": did you mean ```" + kind + "?",
                               "a lesson's blocks are ```setup, ```try and ```question; other "
                               "fences are shown as code");
            }
            // A block fenced with tildes would be shown as code and its step lost.
            if (text.rfind("~~~", 0) == 0)
                for (const std::string kind : {"setup", "try", "question"})
                    if (trimmed(std::string_view(text).substr(3)) == kind)
                        p.fail(lineNumber, "\"~~~" + kind + "\" is fenced with tildes",
                               "a lesson's blocks are fenced with backticks: ```" + kind);
            if (p.lesson.title.empty() && text.rfind("# ", 0) == 0)
                p.lesson.title = trimmed(std::string_view(text).substr(2));
            if (current.kind != LessonBlock::Kind::Text) {
                current = LessonBlock{};
                current.line = lineNumber;
            }
            current.markdown += line + "\n";
            continue;
        }
        if (text.rfind("```", 0) == 0) {
            if (fence == "question") {
                if (!separator)
                    p.fail(current.line, "a question block without its answer",
                           "write the answer after a line \"---\"");
                const auto questionLines = static_cast<int>(
                    std::count(current.markdown.begin(), current.markdown.end(), '\n'));
                p.quotesIn(current.markdown, current.line + 1, steps - 1);
                p.quotesIn(current.answer, current.line + 2 + questionLines, steps - 1);
            }
            if (fence != "setup")
                p.lesson.blocks.push_back(current);
            fence.clear();
            current = LessonBlock{};
            current.line = lineNumber + 1;
            continue;
        }
        p.blockLine(fence, line, lineNumber, current, separator);
    }
    if (!fence.empty())
        p.fail(current.line, "the " + fence + " block is not closed", "end it with a line ```");
    else
        flushText();
    if (p.lesson.title.empty())
        p.fail(1, "the lesson has no title", "start it with a heading \"# <title>\"");
    if (!p.errors.empty())
        throw ErrorList(std::move(p.errors));
    return p.lesson;
}

std::string lessonDisplayText(const std::string& markdown) {
    return replaceQuotes(markdown, nullptr);
}

std::string lessonHiddenText(const std::string& markdown, const std::string& placeholder) {
    return replaceQuotes(markdown, &placeholder);
}

} // namespace astrolabe
