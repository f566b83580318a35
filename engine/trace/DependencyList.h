#pragma once
// A node's parent ids (data or control dependencies). A whole workload keeps one WorkloadNode
// per node per NPU in memory (1.2 million on a 1,024-NPU training iteration) and most nodes have
// at most one parent per kind, so one id is held in place and only longer lists allocate: 16
// bytes per list instead of std::vector's 24 plus a heap block (32 bytes with glibc's header)
// for every non-empty list.
//
// The interface is the part of std::vector<uint64_t> the engine uses: iteration, size,
// push_back, assign, erase_if, comparison (also with a std::vector), conversion to a vector.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

namespace astrolabe {

class DependencyList {
public:
    using value_type = uint64_t;
    using size_type = size_t;
    using iterator = uint64_t*;
    using const_iterator = const uint64_t*;

    DependencyList() = default;
    DependencyList(std::initializer_list<uint64_t> ids) { assign(ids.begin(), ids.end()); }
    DependencyList(const std::vector<uint64_t>& ids) { assign(ids.begin(), ids.end()); }
    template <typename It> DependencyList(It first, It last) { assign(first, last); }
    DependencyList(const DependencyList& other) { assign(other.begin(), other.end()); }
    DependencyList(DependencyList&& other) noexcept { take(other); }
    DependencyList& operator=(const DependencyList& other) {
        if (this != &other)
            assign(other.begin(), other.end());
        return *this;
    }
    DependencyList& operator=(DependencyList&& other) noexcept {
        if (this != &other) {
            release();
            take(other);
        }
        return *this;
    }
    DependencyList& operator=(std::initializer_list<uint64_t> ids) {
        assign(ids.begin(), ids.end());
        return *this;
    }
    ~DependencyList() { release(); }

    template <typename It> void assign(It first, It last) {
        m_size = 0;
        reserve(static_cast<size_t>(std::distance(first, last)));
        for (; first != last; ++first)
            data()[m_size++] = static_cast<uint64_t>(*first);
    }
    void push_back(uint64_t id) {
        if (m_size == m_capacity)
            reserve(m_capacity * 2);
        data()[m_size++] = id;
    }
    void emplace_back(uint64_t id) { push_back(id); }
    void reserve(size_t n) {
        if (n <= m_capacity)
            return;
        auto* heap = new uint64_t[n];
        const uint32_t size = m_size;
        if (size > 0)
            std::memcpy(heap, data(), size * sizeof(uint64_t));
        release();
        m_heap = heap;
        m_capacity = static_cast<uint32_t>(n);
        m_size = size;
    }
    void clear() { m_size = 0; }

    size_t size() const { return m_size; }
    size_t capacity() const { return m_capacity; }
    bool empty() const { return m_size == 0; }
    uint64_t* data() { return m_capacity > 1 ? m_heap : &m_one; }
    const uint64_t* data() const { return m_capacity > 1 ? m_heap : &m_one; }
    iterator begin() { return data(); }
    iterator end() { return data() + m_size; }
    const_iterator begin() const { return data(); }
    const_iterator end() const { return data() + m_size; }
    uint64_t& operator[](size_t i) { return data()[i]; }
    uint64_t operator[](size_t i) const { return data()[i]; }
    uint64_t front() const { return data()[0]; }
    uint64_t back() const { return data()[m_size - 1]; }

    std::vector<uint64_t> toVector() const { return {begin(), end()}; }
    operator std::vector<uint64_t>() const { return toVector(); }

    /// Removes the ids for which pred is true, keeping the order of the others; returns how many.
    template <typename Pred> friend size_t erase_if(DependencyList& list, Pred pred) {
        uint64_t* out = std::remove_if(list.begin(), list.end(), pred);
        const auto removed = static_cast<size_t>(list.end() - out);
        list.m_size -= static_cast<uint32_t>(removed);
        return removed;
    }
    friend bool operator==(const DependencyList& a, const DependencyList& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
    friend bool operator==(const DependencyList& a, const std::vector<uint64_t>& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    void release() {
        if (m_capacity > 1)
            delete[] m_heap;
        m_capacity = 1;
        m_size = 0;
    }
    void take(DependencyList& other) {
        m_size = other.m_size;
        m_capacity = other.m_capacity;
        if (m_capacity > 1)
            m_heap = other.m_heap;
        else
            m_one = other.m_one;
        other.m_size = 0;
        other.m_capacity = 1;
    }

    uint32_t m_size = 0;
    uint32_t m_capacity = 1; ///< 1: the id lives in m_one; more: in m_heap
    union {
        uint64_t m_one = 0;
        uint64_t* m_heap;
    };
};

} // namespace astrolabe
