#include "trace/chakra/ChakraRecords.h"

#include "core/Error.h"
#include "core/InputFile.h"
#include "core/Units.h"
#include "trace/chakra/ChakraJson.h"
#include "trace/chakra/LegacySchema.h"

#include <algorithm>
#include <zlib.h>

namespace astrolabe::chakra {
namespace {

constexpr size_t kMaxVarintBytes = 5;

[[noreturn]] void fail(const std::string& file, const std::string& message,
                       const std::string& hint = {}) {
    throw Error(ErrorKind::Input, message, SourceLocation{file, 0, 0, {}}, hint);
}

std::string at(uint64_t offset, uint64_t record) {
    return "byte offset " + std::to_string(offset) + ", record #" + std::to_string(record) +
           (record == 0 ? " (GlobalMetadata)" : "");
}

bool looksLikeJson(std::string_view bytes);

/// Counts the length-delimited records of a binary trace while its gzip data inflates, so a
/// trace past the node limit is refused after inflating about one byte per record (a 256 KiB
/// gzip of 2^28 empty records: 4 MiB), not after inflating all of it. Framing it cannot follow
/// (JSON, a varint over 5 bytes) stops the count; the decoder then reports the problem.
class RecordCounter {
public:
    /// The inflated bytes so far; throws when they hold more node records than the limit.
    void feed(std::string_view bytes, const std::string& file) {
        if (m_off)
            return;
        if (!m_decided) {
            if (bytes.size() < 64)
                return; // a JSON trace is told by its first two non-blank characters
            m_decided = true;
            m_off = looksLikeJson(bytes);
            if (m_off)
                return;
        }
        while (m_next < bytes.size()) {
            uint64_t length = 0;
            size_t used = 0;
            bool complete = false;
            while (used < kMaxVarintBytes && m_next + used < bytes.size()) {
                const auto byte = static_cast<uint8_t>(bytes[m_next + used]);
                length |= static_cast<uint64_t>(byte & 0x7f) << (7 * used);
                ++used;
                if ((byte & 0x80) == 0) {
                    complete = true;
                    break;
                }
            }
            if (!complete) {
                m_off = used == kMaxVarintBytes;
                return; // the rest of the prefix is still to come
            }
            m_next += used + length;
            ++m_records; // the first is the GlobalMetadata
            if (m_records - 1 > kMaxNodesPerTrace)
                failTooManyNodes(file, m_records - 1, true);
        }
    }

private:
    uint64_t m_next = 0;
    uint64_t m_records = 0;
    bool m_decided = false;
    bool m_off = false;
};

std::string inflateGzip(const std::string& compressed, const std::string& file) {
    z_stream stream{};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
        fail(file, "cannot initialise zlib to read the gzip-compressed trace");
    std::string out;
    RecordCounter records;
    char buffer[1 << 16];
    // zlib counts input in 32-bit units: a file over 4 GiB is fed in pieces.
    size_t fed = 0;
    int status = Z_OK;
    while (status != Z_STREAM_END) {
        if (stream.avail_in == 0 && fed < compressed.size()) {
            const size_t piece = std::min<size_t>(compressed.size() - fed, size_t{1} << 30);
            stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data() + fed));
            stream.avail_in = static_cast<uInt>(piece);
            fed += piece;
        }
        stream.next_out = reinterpret_cast<Bytef*>(buffer);
        stream.avail_out = sizeof buffer;
        status = inflate(&stream, Z_NO_FLUSH);
        if (status != Z_OK && status != Z_STREAM_END) {
            const std::string why = stream.msg ? stream.msg : "stream ends before its trailer";
            const uint64_t where = stream.total_in;
            inflateEnd(&stream);
            fail(file,
                 "gzip data is corrupt at compressed byte " + std::to_string(where) + " (" + why +
                     ")",
                 "the file starts with the gzip magic 1f 8b; re-create or re-compress it");
        }
        out.append(buffer, sizeof buffer - stream.avail_out);
        try {
            records.feed(out, file);
        } catch (...) {
            inflateEnd(&stream);
            throw;
        }
        if (out.size() > kMaxInflatedTraceBytes) {
            inflateEnd(&stream);
            fail(file,
                 "the gzip-compressed trace inflates past the limit of " +
                     units::formatSize(kMaxInflatedTraceBytes) + " (" +
                     std::to_string(compressed.size()) + " compressed bytes)",
                 kLimitsHint);
        }
        if (status == Z_OK && stream.avail_in == 0 && fed == compressed.size() &&
            stream.avail_out != 0) {
            inflateEnd(&stream);
            fail(file,
                 "gzip data ends early (truncated after " + std::to_string(compressed.size()) +
                     " compressed bytes)",
                 "the file starts with the gzip magic 1f 8b; re-create or re-compress it");
        }
    }
    inflateEnd(&stream);
    return out;
}

// JSON starts with '{' followed by a key or '}', or with '[' followed by '{' or ']'. A binary
// trace can start with the byte '{' (a 123-byte record), but never with that and a quote.
bool looksLikeJson(std::string_view bytes) {
    auto skipBlank = [&](size_t pos) {
        while (pos < bytes.size() && (bytes[pos] == ' ' || bytes[pos] == '\t' ||
                                      bytes[pos] == '\n' || bytes[pos] == '\r'))
            ++pos;
        return pos;
    };
    const size_t first = skipBlank(0);
    if (first >= bytes.size() || (bytes[first] != '{' && bytes[first] != '['))
        return false;
    const size_t second = skipBlank(first + 1);
    if (second >= bytes.size())
        return false;
    return bytes[first] == '{' ? (bytes[second] == '"' || bytes[second] == '}')
                               : (bytes[second] == '{' || bytes[second] == ']');
}

bool readLength(std::string_view bytes, size_t& pos, uint64_t& length, const std::string& file,
                uint64_t record) {
    const size_t start = pos;
    length = 0;
    for (size_t i = 0; i < kMaxVarintBytes; ++i) {
        if (pos >= bytes.size()) {
            if (i == 0)
                return false; // clean end of file
            fail(file,
                 at(start, record) + ": the file ends inside the record's length prefix "
                                     "(truncated varint)",
                 "the trace was cut short; re-generate it");
        }
        const auto byte = static_cast<uint8_t>(bytes[pos++]);
        length |= uint64_t(byte & 0x7f) << (7 * i);
        if (!(byte & 0x80)) {
            if (length > 0xffffffffu)
                break;
            return true;
        }
    }
    fail(file, at(start, record) + ": overlong length prefix (a varint32 has at most 5 bytes)",
         "this is not a Chakra trace, or it is corrupt");
}

std::string_view recordAt(std::string_view bytes, size_t& pos, uint64_t record,
                          const std::string& file, bool& end) {
    const size_t start = pos;
    uint64_t length = 0;
    end = !readLength(bytes, pos, length, file, record);
    if (end)
        return {};
    if (length > bytes.size() - pos)
        fail(file,
             at(start, record) + ": record length " + std::to_string(length) +
                 " runs past the end of the file (" + std::to_string(bytes.size() - pos) +
                 " bytes left)",
             "the trace was cut short, or this is not a length-delimited Chakra trace");
    const std::string_view body = bytes.substr(pos, length);
    pos += length;
    return body;
}

std::string_view peekRecord(std::string_view bytes, size_t pos, uint64_t record,
                            const std::string& file) {
    bool end = false;
    try {
        const std::string_view body = recordAt(bytes, pos, record, file, end);
        return end ? std::string_view{} : body;
    } catch (const Error&) {
        return {}; // reported properly when the main loop reaches it
    }
}

void importAttrListMetadata(std::string_view record0, ChakraProtoMsg::GlobalMetadata& metadata) {
    scanWireFields(record0, [&](int, int, std::string_view payload) {
        metadata.add_attr()->ParseFromArray(payload.data(), static_cast<int>(payload.size()));
    });
}

} // namespace

const char* encodingName(ChakraEncoding encoding) {
    switch (encoding) {
    case ChakraEncoding::Binary:
        return "binary";
    case ChakraEncoding::Gzip:
        return "gzip";
    case ChakraEncoding::Json:
        return "json";
    }
    return "unknown";
}

std::string inflateTraceBytes(std::string bytes, const std::string& file,
                              ChakraEncoding* encoding) {
    const bool gzip = bytes.size() >= 2 && static_cast<uint8_t>(bytes[0]) == 0x1f &&
                      static_cast<uint8_t>(bytes[1]) == 0x8b;
    if (encoding)
        *encoding = gzip ? ChakraEncoding::Gzip : ChakraEncoding::Binary;
    return gzip ? inflateGzip(bytes, file) : bytes;
}

std::string loadTraceBytes(const std::string& path, ChakraEncoding* encoding) {
    // One allocation of the exact size: large traces are read in one go.
    return inflateTraceBytes(readInputFile(path, "the trace file", kMaxTraceFileBytes), path,
                             encoding);
}

ChakraEncoding visitChakraBytes(std::string_view bytes, const std::string& file,
                                const ChakraVisitor& visitor) {
    if (bytes.empty())
        fail(file, "the file is empty: a Chakra trace starts with a GlobalMetadata record",
             "check the workload prefix; an empty file often means the generator failed");
    if (looksLikeJson(bytes)) {
        visitChakraJson(bytes, file, visitor);
        return ChakraEncoding::Json;
    }

    size_t pos = 0;
    bool end = false;
    const std::string_view record0 = recordAt(bytes, pos, 0, file, end);
    const SchemaProbe probe = probeSchema(record0, peekRecord(bytes, pos, 1, file));
    if (probe.shape == SchemaShape::Unsupported)
        fail(file,
             "this trace uses the old Chakra schema generation " + probe.generation + " (" +
                 probe.evidence + "); only the current generation 0.0.4 is read",
             "convert it with the Chakra release of its time to JSON, or re-generate it with "
             "current Chakra");

    ChakraProtoMsg::GlobalMetadata metadata;
    if (probe.shape == SchemaShape::MetadataAttrList) {
        importAttrListMetadata(record0, metadata);
    } else if (probe.shape == SchemaShape::NotChakra ||
               !metadata.ParseFromArray(record0.data(), static_cast<int>(record0.size()))) {
        fail(file, at(0, 0) + ": not a GlobalMetadata message (" + probe.evidence + ")",
             "this does not look like a Chakra execution trace");
    }
    if (visitor.onMetadata)
        visitor.onMetadata(metadata);

    // Count the records ahead: a trace over the node limit is refused before anything is
    // decoded, and callers can reserve. Framing errors are reported by the loop below.
    size_t count = 0;
    try {
        for (size_t scan = pos; count <= kMaxNodesPerTrace; ++count) {
            recordAt(bytes, scan, count + 1, file, end);
            if (end)
                break;
        }
    } catch (const Error&) {
    }
    if (count > kMaxNodesPerTrace)
        failTooManyNodes(file, count, true);
    end = false;
    if (visitor.onNodeCount)
        visitor.onNodeCount(count);
    ChakraProtoMsg::Node node;
    for (uint64_t record = 1;; ++record) {
        const size_t start = pos;
        const std::string_view body = recordAt(bytes, pos, record, file, end);
        if (end)
            break;
        node.Clear();
        if (!node.ParseFromArray(body.data(), static_cast<int>(body.size())))
            fail(file,
                 at(start, record) + ": " + std::to_string(body.size()) +
                     " bytes that do not parse as a Chakra Node",
                 "the trace is corrupt or was written with a different schema");
        if (visitor.onNode)
            visitor.onNode(node, record, start);
    }
    return ChakraEncoding::Binary;
}

void failTooManyNodes(const std::string& file, uint64_t count, bool atLeast) {
    throw Error(ErrorKind::Validation,
                "the trace holds " + std::string(atLeast ? "more than " : "") +
                    std::to_string(atLeast ? count - 1 : count) + " node records; the limit is " +
                    std::to_string(kMaxNodesPerTrace) + " per trace",
                SourceLocation{file, 0, 0, {}},
                "split the workload across more NPUs; limits and their reasons are listed in "
                "docs/limits.md");
}

ChakraEncoding visitChakraFile(const std::string& path, const ChakraVisitor& visitor) {
    ChakraEncoding encoding = ChakraEncoding::Binary;
    const std::string bytes = loadTraceBytes(path, &encoding);
    const ChakraEncoding found = visitChakraBytes(bytes, path, visitor);
    return found == ChakraEncoding::Json ? found : encoding;
}

void appendDelimited(std::string& out, const google::protobuf::MessageLite& message) {
    size_t length = message.ByteSizeLong();
    do {
        const auto low = static_cast<uint8_t>(length & 0x7f);
        length >>= 7;
        out.push_back(static_cast<char>(length ? (low | 0x80) : low));
    } while (length);
    message.AppendToString(&out);
}

} // namespace astrolabe::chakra
