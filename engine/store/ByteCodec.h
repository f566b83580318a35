#pragma once
// Compact binary encoding for stored blobs: LEB128 varints, zigzag for signed deltas, and zlib
// around the whole. Blobs are written and read by this module only, so the format is private
// to the store; a format change is a schema migration.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe {

class ByteWriter {
public:
    void varint(uint64_t v) {
        while (v >= 0x80) {
            m_bytes.push_back(static_cast<char>((v & 0x7f) | 0x80));
            v >>= 7;
        }
        m_bytes.push_back(static_cast<char>(v));
    }
    void zigzag(int64_t v) {
        varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
    }
    void byte(uint8_t b) { m_bytes.push_back(static_cast<char>(b)); }
    void f64(double v);
    void f32(float v);
    void text(std::string_view s) {
        varint(s.size());
        m_bytes.append(s.data(), s.size());
    }
    void append(const ByteWriter& other) { m_bytes += other.m_bytes; }
    void reserve(size_t n) { m_bytes.reserve(n); }
    const std::string& bytes() const { return m_bytes; }
    std::string& bytes() { return m_bytes; }

private:
    std::string m_bytes;
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

private:
    [[noreturn]] static void fail();
    const char* m_p;
    const char* m_end;
};

/// zlib level 1 (fast; stored blobs favour save speed). Returns the compressed bytes.
std::string zlibCompress(std::string_view raw, int level = 1);
/// rawSize is the uncompressed size recorded beside the blob.
std::string zlibDecompress(std::string_view compressed, size_t rawSize);

} // namespace astrolabe
