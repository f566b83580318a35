#include "store/ByteCodec.h"

#include "core/Error.h"

#include <cstring>
#include <zlib.h>

namespace astrolabe {

void ByteWriter::f64(double v) {
    char b[8];
    std::memcpy(b, &v, 8);
    m_bytes.append(b, 8);
}

void ByteWriter::f32(float v) {
    char b[4];
    std::memcpy(b, &v, 4);
    m_bytes.append(b, 4);
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
