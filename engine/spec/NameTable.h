#pragma once
// A name registry: names to values, aliases included (several names for one value). The first
// name listed for a value is the one written back. Used by every enum the formats spell by name.

#include "core/Error.h"
#include "spec/Diagnostics.h"

#include <string>
#include <utility>
#include <vector>

namespace astrolabe::config {

template <typename Value> using NameTable = std::vector<std::pair<std::string, Value>>;

/// Every name of the table, aliases included, in table order.
template <typename Value> std::vector<std::string> tableNames(const NameTable<Value>& table) {
    std::vector<std::string> names;
    for (const auto& [name, value] : table)
        names.push_back(name);
    return names;
}

/// The value of `name`; throws Error (Validation) "unknown <what> "<name>"; expected <shown>"
/// (every name when `shown` is empty) with a did-you-mean hint over every name.
template <typename Value>
Value parseName(const NameTable<Value>& table, const std::string& name, const char* what,
                const std::vector<std::string>& shown = {}) {
    for (const auto& [candidate, value] : table)
        if (candidate == name)
            return value;
    const std::vector<std::string> names = tableNames(table);
    throw Error(ErrorKind::Validation,
                std::string("unknown ") + what + " \"" + name + "\"; expected " +
                    joinAlternatives(shown.empty() ? names : shown),
                {}, didYouMean(name, names));
}

/// The first name of `value`; "?" when the table has none.
template <typename Value> const char* nameOf(const NameTable<Value>& table, Value value) {
    for (const auto& [name, candidate] : table)
        if (candidate == value)
            return name.c_str();
    return "?";
}

} // namespace astrolabe::config
