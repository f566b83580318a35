#pragma once
// The constraints of a sweep (docs/sweeps.md): small expressions over the axes' values and the
// point's NPU count, e.g. "tp * pp * dp == npus" or "bw0 >= bw1 and chunks <= 64".
//
// Grammar: or / and / not (also ||, &&, !), comparisons == != < <= > >=, + - * / %, unary minus,
// parentheses, numbers, "strings" and names. A name's value is the number its axis value starts
// with ("100 GiB/s" -> 100), or its text when it does not start with a number ("ring").

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace astrolabe {

using SweepValue = std::variant<double, std::string>;

/// The value of an axis text for expressions: its leading number, else the text itself.
SweepValue sweepValueOf(const std::string& text);
std::string sweepValueText(const SweepValue& value);

/// The longest constraint read, in characters: real ones are a line. It bounds the tree (at most
/// about half as many operators) and so the depth of evaluating it.
inline constexpr size_t kMaxSweepExpressionLength = 4096;

class SweepExpression {
public:
    /// Throws astrolabe::Error (Validation) naming the column where the text stops making sense,
    /// or the limit when the text is longer than kMaxSweepExpressionLength. Reading is linear in
    /// the text's length, and so is each evaluation.
    explicit SweepExpression(const std::string& text);
    ~SweepExpression();
    SweepExpression(SweepExpression&&) noexcept;
    SweepExpression& operator=(SweepExpression&&) noexcept;

    const std::string& text() const { return m_text; }
    /// Every name the expression reads, in order of first use.
    const std::vector<std::string>& names() const { return m_names; }

    using Lookup = std::function<std::optional<SweepValue>(const std::string& name)>;
    /// True when the point satisfies the expression. Throws astrolabe::Error on an unknown name
    /// or an operation on the wrong kinds (a text in arithmetic).
    bool holds(const Lookup& lookup) const;

    struct Node;

private:
    std::string m_text;
    std::vector<std::string> m_names;
    std::unique_ptr<Node> m_root;
};

} // namespace astrolabe
