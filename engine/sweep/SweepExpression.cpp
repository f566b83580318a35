#include "sweep/SweepExpression.h"

#include "core/Error.h"
#include "core/Units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace astrolabe {

SweepValue sweepValueOf(const std::string& text) {
    const char* begin = text.c_str();
    char* end = nullptr;
    const double number = std::strtod(begin, &end);
    if (end != begin && std::isfinite(number))
        return number;
    return text;
}

std::string sweepValueText(const SweepValue& value) {
    if (const auto* number = std::get_if<double>(&value))
        return units::formatNumber(*number);
    return "\"" + std::get<std::string>(value) + "\"";
}

struct SweepExpression::Node {
    enum class Kind { Number, Text, Name, Unary, Binary } kind = Kind::Number;
    std::string op; ///< operator, name or text
    double number = 0;
    std::unique_ptr<Node> left, right;
};

namespace {

using Node = SweepExpression::Node;

class Parser {
public:
    Parser(const std::string& text, std::vector<std::string>& names)
        : m_text(text)
        , m_names(names) {}

    std::unique_ptr<Node> parseAll() {
        auto root = parseOr();
        skipSpace();
        if (m_pos != m_text.size())
            fail("expected an operator or the end, found \"" + m_text.substr(m_pos) + "\"");
        return root;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(ErrorKind::Validation,
                    "in \"" + m_text + "\" at column " + std::to_string(m_pos + 1) + ": " + what,
                    {}, "e.g. tp * pp * dp == npus");
    }
    void skipSpace() {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }
    // Nesting (brackets, not, unary minus) is bounded: each level is a call here and in the
    // evaluation, and a fuzzed constraint of thousands of "(-" overflowed the stack.
    static constexpr int kMaxNesting = 200;
    struct Nest {
        explicit Nest(Parser& p)
            : parser(p) {
            if (++parser.m_depth > kMaxNesting)
                parser.fail("nested more than " + std::to_string(kMaxNesting) +
                            " levels deep (brackets, not, unary minus)");
        }
        ~Nest() { --parser.m_depth; }
        Parser& parser;
    };
    bool accept(std::string_view token, bool word = false) {
        skipSpace();
        if (std::string_view(m_text).substr(m_pos, token.size()) != token)
            return false;
        const size_t after = m_pos + token.size();
        if (word && after < m_text.size() &&
            (std::isalnum(static_cast<unsigned char>(m_text[after])) || m_text[after] == '_'))
            return false;
        m_pos = after;
        return true;
    }
    static std::unique_ptr<Node> binary(std::string op, std::unique_ptr<Node> l,
                                        std::unique_ptr<Node> r) {
        auto n = std::make_unique<Node>();
        n->kind = Node::Kind::Binary;
        n->op = std::move(op);
        n->left = std::move(l);
        n->right = std::move(r);
        return n;
    }
    static std::unique_ptr<Node> unary(std::string op, std::unique_ptr<Node> operand) {
        auto n = std::make_unique<Node>();
        n->kind = Node::Kind::Unary;
        n->op = std::move(op);
        n->left = std::move(operand);
        return n;
    }
    std::unique_ptr<Node> parseOr() {
        auto left = parseAnd();
        while (accept("||") || accept("or", true))
            left = binary("or", std::move(left), parseAnd());
        return left;
    }
    std::unique_ptr<Node> parseAnd() {
        auto left = parseNot();
        while (accept("&&") || accept("and", true))
            left = binary("and", std::move(left), parseNot());
        return left;
    }
    std::unique_ptr<Node> parseNot() {
        if (accept("not", true) || (peek('!') && !peekAt(1, '=') && accept("!"))) {
            const Nest nest(*this);
            return unary("not", parseNot());
        }
        return parseComparison();
    }
    std::unique_ptr<Node> parseComparison() {
        auto left = parseSum();
        for (const char* op : {"==", "!=", "<=", ">=", "<", ">"})
            if (accept(op))
                return binary(op, std::move(left), parseSum());
        return left;
    }
    std::unique_ptr<Node> parseSum() {
        auto left = parseProduct();
        for (;;) {
            if (accept("+"))
                left = binary("+", std::move(left), parseProduct());
            else if (accept("-"))
                left = binary("-", std::move(left), parseProduct());
            else
                return left;
        }
    }
    std::unique_ptr<Node> parseProduct() {
        auto left = parseUnary();
        for (;;) {
            if (accept("*"))
                left = binary("*", std::move(left), parseUnary());
            else if (accept("/"))
                left = binary("/", std::move(left), parseUnary());
            else if (accept("%"))
                left = binary("%", std::move(left), parseUnary());
            else
                return left;
        }
    }
    std::unique_ptr<Node> parseUnary() {
        if (accept("-")) {
            const Nest nest(*this);
            return unary("-", parseUnary());
        }
        return parsePrimary();
    }
    bool peek(char c) {
        skipSpace();
        return m_pos < m_text.size() && m_text[m_pos] == c;
    }
    bool peekAt(size_t offset, char c) const {
        return m_pos + offset < m_text.size() && m_text[m_pos + offset] == c;
    }
    std::unique_ptr<Node> parsePrimary() {
        skipSpace();
        auto n = std::make_unique<Node>();
        if (accept("(")) {
            const Nest nest(*this);
            n = parseOr();
            if (!accept(")"))
                fail("expected \")\"");
            return n;
        }
        if (m_pos >= m_text.size())
            fail("expected a value, found the end");
        const char c = m_text[m_pos];
        if (c == '"' || c == '\'') {
            const size_t close = m_text.find(c, m_pos + 1);
            if (close == std::string::npos)
                fail("a text value is not closed");
            n->kind = Node::Kind::Text;
            n->op = m_text.substr(m_pos + 1, close - m_pos - 1);
            m_pos = close + 1;
            return n;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            const char* begin = m_text.c_str() + m_pos;
            char* end = nullptr;
            n->number = std::strtod(begin, &end);
            if (end == begin)
                fail("expected a number");
            m_pos += static_cast<size_t>(end - begin);
            return n;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const size_t start = m_pos;
            while (m_pos < m_text.size() &&
                   (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) ||
                    m_text[m_pos] == '_' || m_text[m_pos] == '-'))
                ++m_pos;
            n->kind = Node::Kind::Name;
            n->op = m_text.substr(start, m_pos - start);
            if (std::find(m_names.begin(), m_names.end(), n->op) == m_names.end())
                m_names.push_back(n->op);
            return n;
        }
        std::string found = "expected a value, found \"";
        found += c;
        found += '"';
        fail(found);
    }

    const std::string& m_text;
    std::vector<std::string>& m_names;
    size_t m_pos = 0;
    int m_depth = 0;
};

/// The expression's text is passed down by reference and copied into a message only when one
/// is thrown: evaluating is linear in the expression's size.
double number(const SweepValue& v, const std::string& text) {
    if (const auto* d = std::get_if<double>(&v))
        return *d;
    throw Error(ErrorKind::Validation,
                "constraint \"" + text + "\": " + sweepValueText(v) + " is a text, not a number");
}

SweepValue evaluate(const Node& n, const SweepExpression::Lookup& lookup, const std::string& text) {
    switch (n.kind) {
    case Node::Kind::Number:
        return n.number;
    case Node::Kind::Text:
        return n.op;
    case Node::Kind::Name: {
        if (std::optional<SweepValue> v = lookup(n.op))
            return *v;
        throw Error(ErrorKind::Validation,
                    "constraint \"" + text + "\": no axis is named \"" + n.op + "\"", {},
                    "names are the axes' names and npus");
    }
    case Node::Kind::Unary: {
        const SweepValue v = evaluate(*n.left, lookup, text);
        const double x = number(v, text);
        return n.op == "-" ? -x : (x == 0 ? 1.0 : 0.0);
    }
    case Node::Kind::Binary:
        break;
    }
    const SweepValue a = evaluate(*n.left, lookup, text);
    if (n.op == "and" || n.op == "or") {
        const bool l = number(a, text) != 0;
        if (n.op == "and" ? !l : l)
            return l ? 1.0 : 0.0;
        return number(evaluate(*n.right, lookup, text), text) != 0 ? 1.0 : 0.0;
    }
    const SweepValue b = evaluate(*n.right, lookup, text);
    if (n.op == "==" || n.op == "!=") {
        bool equal = a.index() == b.index() && a == b;
        if (const auto* x = std::get_if<double>(&a); x && equal == false && b.index() == 0)
            equal = std::abs(*x - std::get<double>(b)) <= 1e-9 * std::max(1.0, std::abs(*x));
        return (n.op == "==") == equal ? 1.0 : 0.0;
    }
    const double x = number(a, text), y = number(b, text);
    if (n.op == "<")
        return x < y ? 1.0 : 0.0;
    if (n.op == "<=")
        return x <= y ? 1.0 : 0.0;
    if (n.op == ">")
        return x > y ? 1.0 : 0.0;
    if (n.op == ">=")
        return x >= y ? 1.0 : 0.0;
    if (n.op == "+")
        return x + y;
    if (n.op == "-")
        return x - y;
    if (n.op == "*")
        return x * y;
    if ((n.op == "/" || n.op == "%") && y == 0)
        throw Error(ErrorKind::Validation, "constraint \"" + text + "\": division by zero");
    return n.op == "/" ? x / y : std::fmod(x, y);
}

} // namespace

namespace {

/// A comparison, and / or / not of conditions, or a bare name (an axis of 0 and 1): what can be
/// true or false. Arithmetic, a number or a text is a value, and "chunks + 1" holding whenever
/// it is not 0 is no rule anyone means.
bool isCondition(const Node& n) {
    switch (n.kind) {
    case Node::Kind::Name:
        return true;
    case Node::Kind::Unary:
        return n.op == "not" && isCondition(*n.left);
    case Node::Kind::Binary:
        if (n.op == "and" || n.op == "or")
            return isCondition(*n.left) && isCondition(*n.right);
        return n.op == "==" || n.op == "!=" || n.op == "<" || n.op == "<=" || n.op == ">" ||
               n.op == ">=";
    default:
        return false;
    }
}

} // namespace

SweepExpression::SweepExpression(const std::string& text)
    : m_text(text) {
    if (m_text.size() > kMaxSweepExpressionLength)
        throw Error(
            ErrorKind::Validation,
            "a constraint of " + std::to_string(m_text.size()) +
                " characters, more than the limit of " + std::to_string(kMaxSweepExpressionLength),
            {}, "split it into several constraints (each must hold); " + std::string(kLimitsHint));
    m_root = Parser(m_text, m_names).parseAll();
    if (!isCondition(*m_root))
        throw Error(ErrorKind::Validation,
                    "\"" + m_text +
                        "\" is a value, not a condition: a constraint compares values (==, !=, <, "
                        "<=, >, >=) or joins conditions (and, or, not)",
                    {}, "e.g. tp * pp * dp == npus");
}

SweepExpression::~SweepExpression() = default;
SweepExpression::SweepExpression(SweepExpression&&) noexcept = default;
SweepExpression& SweepExpression::operator=(SweepExpression&&) noexcept = default;

bool SweepExpression::holds(const Lookup& lookup) const {
    return number(evaluate(*m_root, lookup, m_text), m_text) != 0;
}

} // namespace astrolabe
