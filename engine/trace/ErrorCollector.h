#pragma once
// Collects errors up to a cap, then throws them together. Loading a workload reports every problem
// it finds in one pass (up to the cap), not just the first.

#include "core/Error.h"

#include <cstddef>
#include <string>
#include <vector>

namespace astrolabe {

class ErrorCollector {
public:
    explicit ErrorCollector(size_t cap = 50)
        : m_cap(cap) {}

    void add(Error error) {
        if (m_errors.size() < m_cap)
            m_errors.push_back(std::move(error));
        else
            ++m_dropped;
    }
    void add(ErrorKind kind, const std::string& file, const std::string& where,
             const std::string& message, const std::string& hint = {}) {
        add(Error(kind, message, SourceLocation{file, 0, 0, where}, hint));
    }
    bool full() const { return m_errors.size() >= m_cap; }
    bool empty() const { return m_errors.empty(); }
    size_t size() const { return m_errors.size(); }

    /// Throws an ErrorList if anything was collected.
    void throwIfAny() {
        if (m_errors.empty())
            return;
        if (m_dropped > 0)
            m_errors.push_back(
                Error(m_errors.front().kind(), "... and " + std::to_string(m_dropped) +
                                                   " more errors not shown (the first " +
                                                   std::to_string(m_cap) + " are listed)"));
        throw ErrorList(std::move(m_errors));
    }

private:
    size_t m_cap;
    size_t m_dropped = 0;
    std::vector<Error> m_errors;
};

} // namespace astrolabe
