#include "ChakraTestUtil.h"

#include "trace/chakra/ChakraRecords.h"

#include <fstream>
#include <sstream>
#include <zlib.h>

namespace astrolabe::test {

void writeText(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string delimited(const google::protobuf::MessageLite& message) {
    std::string out;
    chakra::appendDelimited(out, message);
    return out;
}

std::string delimitedRaw(const std::string& body) {
    std::string out;
    size_t length = body.size();
    do {
        const auto low = static_cast<uint8_t>(length & 0x7f);
        length >>= 7;
        out.push_back(static_cast<char>(length ? (low | 0x80) : low));
    } while (length);
    out.append(body);
    return out;
}

std::string metadataRecord() {
    ChakraProtoMsg::GlobalMetadata metadata;
    metadata.set_version("0.0.4");
    return delimited(metadata);
}

ChakraProtoMsg::Node makeNode(uint64_t id, ChakraProtoMsg::NodeType type,
                              std::vector<uint64_t> dataDeps) {
    ChakraProtoMsg::Node node;
    node.set_id(id);
    std::string name = std::to_string(id);
    name.insert(name.begin(), 'n'); // not "n" + ...: GCC 12 reports a false -Wrestrict there
    node.set_name(name);
    node.set_type(type);
    for (uint64_t dep : dataDeps)
        node.add_data_deps(dep);
    return node;
}

void addInt(ChakraProtoMsg::Node& node, const std::string& name, int64_t value) {
    auto* attr = node.add_attr();
    attr->set_name(name);
    attr->set_int64_val(value);
}

void addBool(ChakraProtoMsg::Node& node, const std::string& name, bool value) {
    auto* attr = node.add_attr();
    attr->set_name(name);
    attr->set_bool_val(value);
}

ChakraProtoMsg::Node makeColl(uint64_t id, ChakraProtoMsg::CollectiveCommType type,
                              int64_t sizeBytes) {
    ChakraProtoMsg::Node node = makeNode(id, ChakraProtoMsg::COMM_COLL_NODE);
    addBool(node, "is_cpu_op", false);
    addInt(node, "comm_type", type);
    addInt(node, "comm_size", sizeBytes);
    return node;
}

ChakraProtoMsg::Node makeSend(uint64_t id, int src, int dst, int tag, int64_t sizeBytes) {
    ChakraProtoMsg::Node node = makeNode(id, ChakraProtoMsg::COMM_SEND_NODE);
    addInt(node, "comm_src", src);
    addInt(node, "comm_dst", dst);
    addInt(node, "comm_tag", tag);
    addInt(node, "comm_size", sizeBytes);
    return node;
}

ChakraProtoMsg::Node makeRecv(uint64_t id, int src, int dst, int tag, int64_t sizeBytes) {
    ChakraProtoMsg::Node node = makeNode(id, ChakraProtoMsg::COMM_RECV_NODE);
    addInt(node, "comm_src", src);
    addInt(node, "comm_dst", dst);
    addInt(node, "comm_tag", tag);
    addInt(node, "comm_size", sizeBytes);
    return node;
}

std::string traceBytes(const std::vector<ChakraProtoMsg::Node>& nodes) {
    std::string out = metadataRecord();
    for (const auto& node : nodes)
        out += delimited(node);
    return out;
}

std::string gzip(const std::string& bytes) {
    z_stream stream{};
    deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&stream, bytes.size()) + 32, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream.avail_in = static_cast<uInt>(bytes.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

} // namespace astrolabe::test
