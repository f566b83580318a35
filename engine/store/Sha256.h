#pragma once
// SHA-256 (FIPS 180-4) for run provenance: every input file and the normalized configuration are
// hashed so a stored run says exactly what it was computed from. Streaming; ~200 MB/s.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace astrolabe {

class Sha256 {
public:
    Sha256();
    void update(const void* data, size_t size);
    void update(std::string_view text) { update(text.data(), text.size()); }
    /// Lowercase hex digest; the object must not be updated afterwards.
    std::string hexDigest();

private:
    void block(const uint8_t* p);

    std::array<uint32_t, 8> m_state;
    std::array<uint8_t, 64> m_buffer{};
    size_t m_buffered = 0;
    uint64_t m_length = 0;
};

std::string sha256Hex(std::string_view text);
/// Throws astrolabe::Error (Input) when the file cannot be read.
std::string sha256File(const std::string& path);

} // namespace astrolabe
