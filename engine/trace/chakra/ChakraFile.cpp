#include "trace/chakra/ChakraFile.h"

#include "core/Error.h"
#include "core/OutputFile.h"
#include "trace/chakra/ChakraJson.h"

namespace astrolabe {
namespace {

void writeBytes(const std::string& path, const std::string& bytes) {
    writeOutputFile(path, "the trace file", [&](std::ostream& out) {
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    });
}

ChakraFile collect(const std::function<chakra::ChakraEncoding(const chakra::ChakraVisitor&)>& run) {
    ChakraFile file;
    chakra::ChakraVisitor visitor;
    visitor.onMetadata = [&](ChakraProtoMsg::GlobalMetadata& m) { file.metadata.Swap(&m); };
    visitor.onNodeCount = [&](size_t count) { file.nodes.reserve(count); };
    visitor.onNode = [&](ChakraProtoMsg::Node& n, uint64_t, uint64_t) {
        file.nodes.emplace_back().Swap(&n);
    };
    file.encoding = run(visitor);
    return file;
}

} // namespace

ChakraFile readChakraFile(const std::string& path) {
    return collect(
        [&](const chakra::ChakraVisitor& v) { return chakra::visitChakraFile(path, v); });
}

ChakraFile parseChakraBytes(std::string_view bytes, const std::string& file) {
    return collect(
        [&](const chakra::ChakraVisitor& v) { return chakra::visitChakraBytes(bytes, file, v); });
}

std::string serializeChakraFile(const ChakraFile& file) {
    std::string out;
    chakra::appendDelimited(out, file.metadata);
    for (const ChakraProtoMsg::Node& node : file.nodes)
        chakra::appendDelimited(out, node);
    return out;
}

void writeChakraFile(const std::string& path, const ChakraFile& file) {
    writeBytes(path, serializeChakraFile(file));
}

void writeChakraJsonFile(const std::string& path, const ChakraFile& file) {
    writeBytes(path, chakra::toChakraJson(file.metadata, file.nodes));
}

} // namespace astrolabe
