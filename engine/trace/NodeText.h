#pragma once
// A node's name or pg_name in 8 bytes instead of std::string's 32. A workload holds one
// WorkloadNode per node per NPU (155,000 on a 128-NPU training iteration, all in memory while
// the traces are checked) and the same texts repeat on every replica, so equal texts share one
// immutable copy: an interned, reference-counted entry, freed with its last holder.
//
// Reads as a const std::string& (implicit conversion, str()); compares by text. Copying adds a
// reference (one atomic increment); making one from text looks it up in a process-wide table
// under a mutex. The empty text holds no entry. Thread-safe.

#include <atomic>
#include <compare>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>

namespace astrolabe {

class NodeText {
public:
    NodeText() = default;
    NodeText(std::string_view text)
        : m_entry(acquire(text)) {}
    NodeText(const std::string& text)
        : m_entry(acquire(text)) {}
    NodeText(const char* text)
        : m_entry(acquire(text)) {}
    NodeText(const NodeText& other)
        : m_entry(other.m_entry) {
        if (m_entry)
            m_entry->refs.fetch_add(1, std::memory_order_relaxed);
    }
    NodeText(NodeText&& other) noexcept
        : m_entry(std::exchange(other.m_entry, nullptr)) {}
    NodeText& operator=(const NodeText& other) {
        NodeText copy(other);
        std::swap(m_entry, copy.m_entry);
        return *this;
    }
    NodeText& operator=(NodeText&& other) noexcept {
        std::swap(m_entry, other.m_entry);
        return *this;
    }
    ~NodeText() {
        if (m_entry)
            release(m_entry);
    }

    const std::string& str() const { return m_entry ? m_entry->text : emptyText(); }
    operator const std::string&() const { return str(); }
    operator std::string_view() const { return str(); }
    bool empty() const { return m_entry == nullptr; }
    void clear() { *this = NodeText(); }
    bool starts_with(std::string_view prefix) const { return str().starts_with(prefix); }
    bool ends_with(std::string_view suffix) const { return str().ends_with(suffix); }
    size_t find(std::string_view what, size_t from = 0) const { return str().find(what, from); }
    std::string substr(size_t from, size_t count = std::string::npos) const {
        return str().substr(from, count);
    }
    size_t size() const { return str().size(); }
    size_t length() const { return str().size(); }
    const char* c_str() const { return str().c_str(); }
    const char* data() const { return str().data(); }
    std::string::const_iterator begin() const { return str().begin(); }
    std::string::const_iterator end() const { return str().end(); }

    /// Equal texts share an entry, so equality is identity.
    friend bool operator==(const NodeText& a, const NodeText& b) { return a.m_entry == b.m_entry; }
    friend bool operator==(const NodeText& a, const std::string& b) { return a.str() == b; }
    friend bool operator==(const NodeText& a, std::string_view b) { return a.str() == b; }
    friend bool operator==(const NodeText& a, const char* b) { return a.str() == b; }
    friend std::strong_ordering operator<=>(const NodeText& a, const NodeText& b) {
        return a.str().compare(b.str()) <=> 0;
    }

private:
    struct Entry {
        std::atomic<uint32_t> refs{1};
        std::string text;
    };
    static Entry* acquire(std::string_view text);
    static void release(Entry* entry);
    static const std::string& emptyText();

    Entry* m_entry = nullptr;
};

inline std::string operator+(const std::string& a, const NodeText& b) {
    return a + b.str();
}
inline std::string operator+(std::string&& a, const NodeText& b) {
    return std::move(a) + b.str();
}
inline std::string operator+(const NodeText& a, const std::string& b) {
    return a.str() + b;
}
inline std::string operator+(const char* a, const NodeText& b) {
    return a + b.str();
}
inline std::string operator+(const NodeText& a, const char* b) {
    return a.str() + b;
}
std::ostream& operator<<(std::ostream& out, const NodeText& text);

} // namespace astrolabe

template <> struct std::hash<astrolabe::NodeText> {
    size_t operator()(const astrolabe::NodeText& t) const noexcept {
        return std::hash<std::string>()(t.str());
    }
};
