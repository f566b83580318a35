#include "store/ByteCodec.h"

#include "core/Error.h"

#include <algorithm>
#include <cstring>
#include <zlib.h>

namespace astrolabe {

void ByteWriter::grow(size_t n) {
    const size_t capacity = std::max(m_capacity * 2, m_size + n + 4096);
    std::unique_ptr<char[]> bytes(new char[capacity]);
    if (m_size)
        std::memcpy(bytes.get(), m_bytes.get(), m_size);
    m_bytes = std::move(bytes);
    m_capacity = capacity;
}

void ByteWriter::raw(std::string_view s) {
    ensure(s.size());
    if (!s.empty())
        std::memcpy(m_bytes.get() + m_size, s.data(), s.size());
    m_size += s.size();
}

std::string ByteWriter::take() {
    std::string out(view());
    m_size = 0;
    return out;
}

void ByteWriter::f64(double v) {
    char b[8];
    std::memcpy(b, &v, 8);
    raw({b, 8});
}

void ByteWriter::f32(float v) {
    char b[4];
    std::memcpy(b, &v, 4);
    raw({b, 4});
}

double ByteReader::f64() {
    if (m_end - m_p < 8)
        fail();
    double v;
    std::memcpy(&v, m_p, 8);
    m_p += 8;
    return v;
}

float ByteReader::f32() {
    if (m_end - m_p < 4)
        fail();
    float v;
    std::memcpy(&v, m_p, 4);
    m_p += 4;
    return v;
}

std::string ByteReader::text() {
    const uint64_t n = varint();
    if (static_cast<uint64_t>(m_end - m_p) < n)
        fail();
    std::string s(m_p, n);
    m_p += n;
    return s;
}

void ByteReader::fail() {
    throw Error(ErrorKind::Input, "corrupt blob in the project database (truncated data)");
}

std::string zlibCompress(std::string_view raw, int level) {
    return zlibCompressParts({raw}, level);
}

PackedBlob packColumns(size_t count, std::initializer_list<const ByteWriter*> columns) {
    ByteWriter header;
    header.varint(count);
    std::vector<std::string_view> parts{header.view()};
    size_t raw = header.size();
    for (const ByteWriter* c : columns) {
        parts.push_back(c->view());
        raw += c->size();
    }
    std::string data = zlibCompressParts(parts);
    return {std::move(data), raw};
}

std::string zlibCompressParts(const std::vector<std::string_view>& parts, int level) {
    if (parts.empty())
        return zlibCompressParts({std::string_view()}, level);
    z_stream z{};
    if (deflateInit(&z, level) != Z_OK)
        throw Error(ErrorKind::Internal, "zlib initialisation failed");
    // The output grows as needed: timelines compress 10-100x, so sizing it for the worst case
    // (deflateBound) would allocate and fault in as much memory as the input.
    std::string out;
    size_t used = 0;
    for (size_t index = 0; index < parts.size(); ++index) {
        const bool last = index + 1 == parts.size();
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(parts[index].data()));
        z.avail_in = static_cast<uInt>(parts[index].size());
        for (;;) {
            if (out.size() - used < 4096)
                out.resize(std::max<size_t>(out.size() * 2, 1 << 16));
            z.next_out = reinterpret_cast<Bytef*>(out.data() + used);
            z.avail_out = static_cast<uInt>(out.size() - used);
            const int rc = deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
            used = out.size() - z.avail_out;
            if (rc == Z_STREAM_ERROR) {
                deflateEnd(&z);
                throw Error(ErrorKind::Internal, "zlib compression failed");
            }
            if (last ? rc == Z_STREAM_END : (z.avail_in == 0 && z.avail_out > 0))
                break;
        }
    }
    deflateEnd(&z);
    out.resize(used);
    return out;
}

std::string zlibDecompress(std::string_view compressed, size_t rawSize) {
    constexpr size_t kMaxRatio = 1032; // zlib's deflate at its best, on long runs of one byte
    if (rawSize / kMaxRatio > compressed.size())
        throw Error(ErrorKind::Input, "corrupt compressed blob in the project database (it "
                                      "claims " +
                                          std::to_string(rawSize) + " bytes from " +
                                          std::to_string(compressed.size()) + ")");
    std::string out(rawSize, '\0');
    uLongf size = static_cast<uLongf>(rawSize);
    const int rc = uncompress(reinterpret_cast<Bytef*>(out.data()), &size,
                              reinterpret_cast<const Bytef*>(compressed.data()),
                              static_cast<uLong>(compressed.size()));
    if (rc != Z_OK || size != rawSize)
        throw Error(ErrorKind::Input, "corrupt compressed blob in the project database (zlib " +
                                          std::to_string(rc) + ")");
    return out;
}

} // namespace astrolabe
