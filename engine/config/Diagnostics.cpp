#include "config/Diagnostics.h"

#include <algorithm>
#include <climits>
#include <tuple>

namespace astrolabe::config {

Diagnostics::Diagnostics(std::string file)
    : m_file(std::move(file)) {}

SourceLocation Diagnostics::at(int line, int column, std::string keyPath) const {
    return SourceLocation{m_file, line, column, std::move(keyPath)};
}

void Diagnostics::error(SourceLocation where, std::string message, std::string hint,
                        ErrorKind kind) {
    m_errors.emplace_back(kind, std::move(message), std::move(where), std::move(hint));
}

void Diagnostics::relocate(const Error& error, SourceLocation where) {
    m_errors.emplace_back(error.kind(), error.message(), std::move(where), error.hint());
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
    std::vector<Error> sorted = m_errors;
    std::stable_sort(sorted.begin(), sorted.end(), [this](const Error& a, const Error& b) {
        const auto key = [this](const Error& e) {
            return std::tuple(e.where().file != m_file,
                              e.where().line > 0 ? e.where().line : INT_MAX, e.where().column);
        };
        return key(a) < key(b);
    });
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
