#include "store/ByteCodec.h"

#include "core/Error.h"

#include <algorithm>
#include <cstring>
#include <zlib.h>

namespace astrolabe {

void ByteWriter::grow(size_t n) {
    m_bytes.resize(std::max(m_bytes.size() * 2, m_size + n + 64));
}

void ByteWriter::raw(std::string_view s) {
    ensure(s.size());
    std::memcpy(m_bytes.data() + m_size, s.data(), s.size());
    m_size += s.size();
}

std::string ByteWriter::take() {
    m_bytes.resize(m_size);
    m_size = 0;
    return std::move(m_bytes);
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
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    std::string out(size, '\0');
    if (compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                  reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()),
                  level) != Z_OK)
        throw Error(ErrorKind::Internal, "zlib compression failed");
    out.resize(size);
    return out;
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
        return zlibCompress({}, level);
    z_stream z{};
    if (deflateInit(&z, level) != Z_OK)
        throw Error(ErrorKind::Internal, "zlib initialisation failed");
    size_t total = 0;
    for (std::string_view part : parts)
        total += part.size();
    std::string out(deflateBound(&z, static_cast<uLong>(total)) + 64, '\0');
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    size_t index = 0;
    for (std::string_view part : parts) {
        const bool last = ++index == parts.size();
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(part.data()));
        z.avail_in = static_cast<uInt>(part.size());
        const int rc = deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
        if (rc == Z_STREAM_ERROR || (last && rc != Z_STREAM_END) || z.avail_in != 0) {
            deflateEnd(&z);
            throw Error(ErrorKind::Internal, "zlib compression failed");
        }
    }
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::string zlibDecompress(std::string_view compressed, size_t rawSize) {
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
