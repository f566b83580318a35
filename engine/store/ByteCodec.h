#pragma once
// Compact binary encoding for stored blobs: LEB128 varints, zigzag for signed deltas, and zlib
// around the whole. Blobs are written and read by this module only, so the format is private
// to the store; a format change is a schema migration.

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe {

/// Appends to a growing buffer; writes go through a raw pointer (no per-byte capacity check
/// beyond one comparison), since encoding tens of millions of values is the hot path of a save.
class ByteWriter {
public:
    void varint(uint64_t v) {
        ensure(10);
        char* p = m_bytes.get() + m_size;
        while (v >= 0x80) {
            *p++ = static_cast<char>((v & 0x7f) | 0x80);
            v >>= 7;
        }
        *p++ = static_cast<char>(v);
        m_size = static_cast<size_t>(p - m_bytes.get());
    }
    void zigzag(int64_t v) {
        varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
    }
    void byte(uint8_t b) {
        ensure(1);
        m_bytes[m_size++] = static_cast<char>(b);
    }
    void f64(double v);
    void f32(float v);
    void text(std::string_view s) {
        varint(s.size());
        raw(s);
    }
    void raw(std::string_view s);
    void append(const ByteWriter& other) { raw(other.view()); }
    std::string_view view() const { return {m_bytes.get(), m_size}; }
    size_t size() const { return m_size; }
    /// The bytes written; the writer is empty afterwards.
    std::string take();
    /// Forgets the bytes but keeps the buffer, for reuse without reallocation.
    void clear() { m_size = 0; }

private:
    void ensure(size_t n) {
        if (m_capacity - m_size < n)
            grow(n);
    }
    void grow(size_t n);

    // Uninitialised storage: std::string::resize would zero-fill hundreds of megabytes that are
    // about to be overwritten.
    std::unique_ptr<char[]> m_bytes;
    size_t m_capacity = 0;
    size_t m_size = 0;
};

/// Reads what ByteWriter wrote; throws astrolabe::Error (Input) past the end (a corrupt blob).
class ByteReader {
public:
    explicit ByteReader(std::string_view bytes)
        : m_p(bytes.data())
        , m_end(m_p + bytes.size()) {}
    uint64_t varint() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_p == m_end)
                fail();
            const auto b = static_cast<uint8_t>(*m_p++);
            v |= static_cast<uint64_t>(b & 0x7f) << shift;
            if (b < 0x80)
                return v;
        }
        fail();
    }
    int64_t zigzag() {
        const uint64_t u = varint();
        return static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
    }
    uint8_t byte() {
        if (m_p == m_end)
            fail();
        return static_cast<uint8_t>(*m_p++);
    }
    double f64();
    float f32();
    std::string text();
    bool atEnd() const { return m_p == m_end; }
    /// Bytes not read yet: an upper bound on the items of a count read from a corrupt blob.
    size_t remaining() const { return static_cast<size_t>(m_end - m_p); }
    /// A count of items that take at least `bytesEach` bytes each in what follows; a count more
    /// bytes could not hold is a corrupt blob (and never sizes an allocation).
    size_t count(size_t bytesEach) {
        const uint64_t n = varint();
        if (n > remaining() / bytesEach)
            fail();
        return static_cast<size_t>(n);
    }
    /// A byte that must be below `limit` (an enum's value count): a corrupt blob otherwise.
    uint8_t below(uint8_t limit) {
        const uint8_t b = byte();
        if (b >= limit)
            fail();
        return b;
    }

private:
    [[noreturn]] static void fail();
    const char* m_p;
    const char* m_end;
};

/// A compressed blob and the size it inflates to (stored beside it).
struct PackedBlob {
    std::string data;
    size_t rawSize = 0;
};

/// varint(count) followed by the columns, compressed, with no intermediate concatenation.
PackedBlob packColumns(size_t count, std::initializer_list<const ByteWriter*> columns);
inline PackedBlob packBytes(std::string_view raw);

/// a + b with wrap-around: a corrupt blob's deltas may overflow, which must not be undefined.
inline int64_t wrappingAdd(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

/// zlib level 1 (fast; stored blobs favour save speed). Returns the compressed bytes.
std::string zlibCompress(std::string_view raw, int level = 1);
/// zlibCompress of the concatenation of parts, without building the concatenation.
std::string zlibCompressParts(const std::vector<std::string_view>& parts, int level = 1);
/// rawSize is the uncompressed size recorded beside the blob; one that zlib could not reach from
/// this many compressed bytes (more than 1032 to 1) is a corrupt blob, refused before allocating.
std::string zlibDecompress(std::string_view compressed, size_t rawSize);

inline PackedBlob packBytes(std::string_view raw) {
    return {zlibCompress(raw), raw.size()};
}

} // namespace astrolabe
