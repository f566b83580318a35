#include "spec/Diagnostics.h"

#include "core/Units.h"

#include <algorithm>
#include <climits>
#include <numeric>
#include <tuple>

namespace astrolabe::config {

Diagnostics::Diagnostics(std::string file)
    : m_file(std::move(file)) {}

SourceLocation Diagnostics::at(int line, int column, std::string keyPath) const {
    return SourceLocation{m_file, line, column, std::move(keyPath)};
}

void Diagnostics::error(SourceLocation where, std::string message, std::string hint,
                        ErrorKind kind) {
    if (m_errors.size() >= kErrorsKept) {
        ++m_errorsDropped;
        return;
    }
    m_errors.emplace_back(kind, std::move(message), std::move(where), std::move(hint));
}

void Diagnostics::relocate(const Error& error, SourceLocation where) {
    Diagnostics::error(std::move(where), error.message(), error.hint(), error.kind());
}

void Diagnostics::warning(const SourceLocation& where, const std::string& message,
                          const std::string& hint) {
    m_warnings.push_back(formatError(ErrorKind::Validation, message, where, hint));
}

void Diagnostics::throwIfErrors() const {
    if (m_errors.empty())
        return;
    // In file order, so the list reads top to bottom; errors without a line go last, and errors
    // of referenced files (absorbed from their own loaders) after this file's.
    // The order is found on indices: sorting the errors themselves moved four strings per step.
    const auto key = [this](const Error& e) {
        return std::tuple(e.where().file != m_file, e.where().line > 0 ? e.where().line : INT_MAX,
                          e.where().column);
    };
    std::vector<size_t> order(m_errors.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return key(m_errors[a]) < key(m_errors[b]); });
    const size_t listed = std::min(order.size(), kErrorsListed);
    std::vector<Error> sorted;
    sorted.reserve(listed + 1);
    for (size_t i = 0; i < listed; ++i)
        sorted.push_back(m_errors[order[i]]);
    if (const size_t more = m_errors.size() - listed + m_errorsDropped; more > 0)
        sorted.emplace_back(ErrorKind::Validation,
                            units::countOf(more, "more error") + " not listed (only the first " +
                                std::to_string(kErrorsListed) + " are)",
                            SourceLocation{m_file, 0, 0, {}}, "fix the ones above first");
    throw ErrorList(std::move(sorted));
}

void Diagnostics::moveWarningsTo(std::vector<std::string>* out) {
    if (out)
        out->insert(out->end(), m_warnings.begin(), m_warnings.end());
    m_warnings.clear();
}

std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates) {
    const std::string guess = closestMatch(word, candidates);
    return guess.empty() ? std::string() : "did you mean \"" + guess + "\"?";
}

} // namespace astrolabe::config
