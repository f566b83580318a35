#include "collective/MscclXml.h"

#include "core/Collectives.h"
#include "core/Error.h"
#include "core/InputFile.h"
#include "spec/SpecValidation.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <pugixml.hpp>
#include <utility>

namespace astrolabe {

namespace {

/// 1-based line and column of a byte offset: pugixml reports offsets, messages want lines.
SourceLocation locate(const std::string& text, const std::string& file, ptrdiff_t offset,
                      std::string keyPath = {}) {
    const auto end = static_cast<size_t>(std::clamp<ptrdiff_t>(offset, 0, ptrdiff_t(text.size())));
    int line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < end; ++i)
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    return {file, line, static_cast<int>(end - lineStart) + 1, std::move(keyPath)};
}

/// Where an element starts (its '<'); offset_debug() gives the offset of its name.
SourceLocation locate(const std::string& text, const std::string& file, const pugi::xml_node& e,
                      const std::string& keyPath = {}) {
    return locate(text, file, e.offset_debug() - 1, keyPath);
}

/// What the text holds at `offset`, quoted and cut at the line's end: "x</algo>".
std::string foundAt(const std::string& text, ptrdiff_t offset) {
    if (offset < 0 || static_cast<size_t>(offset) >= text.size())
        return "the end of the file";
    const size_t begin = static_cast<size_t>(offset);
    size_t end = begin;
    while (end < text.size() && end - begin < 24 && text[end] != '\n' && text[end] != '\r')
        ++end;
    return "\"" + text.substr(begin, end - begin) + (end - begin == 24 ? "...\"" : "\"");
}

/// The elements still open at `offset`, innermost last, as (name, offset of '<'). Only used to
/// explain a mismatched end tag: pugixml has checked everything before `offset`, so markup that
/// is not an element (comments, CDATA, processing instructions, DOCTYPE) only needs skipping.
std::vector<std::pair<std::string, size_t>> openElements(const std::string& text, size_t offset) {
    std::vector<std::pair<std::string, size_t>> open;
    auto skipPast = [&](size_t from, const char* end) {
        const size_t at = text.find(end, from);
        return at == std::string::npos ? text.size() : at + std::strlen(end);
    };
    size_t i = text.find('<');
    while (i < offset && i < text.size()) {
        if (text.compare(i, 4, "<!--") == 0)
            i = skipPast(i, "-->");
        else if (text.compare(i, 9, "<![CDATA[") == 0)
            i = skipPast(i, "]]>");
        else if (text.compare(i, 2, "<?") == 0)
            i = skipPast(i, "?>");
        else if (text.compare(i, 2, "<!") == 0)
            i = skipPast(i, text.find('[', i) < text.find('>', i) ? "]>" : ">");
        else if (text.compare(i, 2, "</") == 0) {
            if (!open.empty())
                open.pop_back();
            i = skipPast(i, ">");
        } else {
            const size_t nameEnd = text.find_first_of(" \t\r\n/>", i + 1);
            if (nameEnd == std::string::npos)
                break;
            const std::string name = text.substr(i + 1, nameEnd - i - 1);
            char quote = 0;
            size_t j = nameEnd;
            for (; j < text.size() && (quote || text[j] != '>'); ++j)
                if (text[j] == '"' || text[j] == '\'')
                    quote = quote == text[j] ? 0 : quote ? quote : text[j];
            if (j < text.size() && text[j - 1] != '/')
                open.emplace_back(name, i);
            i = j + 1;
        }
        i = text.find('<', i);
    }
    return open;
}

/// pugixml's status, said as what the reader expected at the offset it reports.
const char* expectation(pugi::xml_parse_status status) {
    switch (status) {
    case pugi::status_unrecognized_tag:
        return "expected a tag name after '<'";
    case pugi::status_bad_pi:
        return "expected a declaration or processing instruction closed by ?>";
    case pugi::status_bad_comment:
        return "expected a comment closed by -->";
    case pugi::status_bad_cdata:
        return "expected a CDATA section closed by ]]>";
    case pugi::status_bad_doctype:
        return "expected a document type declaration closed by >";
    case pugi::status_bad_pcdata:
        return "expected text";
    case pugi::status_bad_start_element:
        return "expected a start tag: a name, then attributes, then > or />";
    case pugi::status_bad_attribute:
        return "expected an attribute name=\"value\", then > or />";
    case pugi::status_bad_end_element:
        return "expected an end tag </name>";
    default:
        return "expected well-formed XML";
    }
}

[[noreturn]] void throwParseError(const std::string& text, const std::string& file,
                                  const pugi::xml_parse_result& result) {
    const char* hint = "expected <algo> with <gpu>, <tb> and <step/> elements";
    std::string what = result.description(); // "Start-end tags mismatch"
    if (!what.empty())
        what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
    what += ": ";
    ptrdiff_t at = result.offset;
    if (result.status == pugi::status_end_element_mismatch) {
        // pugixml points at the name of the wrong end tag, or at the last byte for a file that
        // ends with elements still open.
        const bool endTag = at >= 2 && text.compare(static_cast<size_t>(at) - 2, 2, "</") == 0;
        if (endTag)
            at -= 2;
        else
            at = static_cast<ptrdiff_t>(text.size());
        const auto open = openElements(text, static_cast<size_t>(at));
        if (open.empty()) {
            what += "expected no end tag here";
        } else {
            const SourceLocation opened = locate(text, file, ptrdiff_t(open.back().second));
            what += "expected </" + open.back().first + "> to close <" + open.back().first +
                    "> (opened at " + std::to_string(opened.line) + ":" +
                    std::to_string(opened.column) + ")";
        }
        if (endTag) {
            const size_t close = text.find('>', static_cast<size_t>(at));
            what +=
                ", found " + (close == std::string::npos
                                  ? foundAt(text, at)
                                  : "\"" + text.substr(size_t(at), close - size_t(at) + 1) + "\"");
        } else {
            what += ", found the end of the file";
        }
    } else {
        what += std::string(expectation(result.status)) + ", found " + foundAt(text, at);
    }
    throw Error(ErrorKind::Input, "MSCCL-IR XML: " + what, locate(text, file, at), hint);
}

/// The one root element <algo>; text or a second element beside it is an error.
pugi::xml_node rootElement(const pugi::xml_document& doc, const std::string& text,
                           const std::string& file) {
    pugi::xml_node root;
    for (const pugi::xml_node& node : doc.children()) {
        if (node.type() == pugi::node_pcdata || node.type() == pugi::node_cdata) {
            auto at = static_cast<size_t>(std::max<ptrdiff_t>(0, node.offset_debug()));
            while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])))
                ++at;
            throw Error(ErrorKind::Input,
                        "MSCCL-IR XML: expected only the root element, found text " +
                            foundAt(text, ptrdiff_t(at)),
                        locate(text, file, ptrdiff_t(at)));
        }
        if (node.type() != pugi::node_element)
            continue;
        if (root)
            throw Error(ErrorKind::Input,
                        "MSCCL-IR XML: expected one root element, found <" +
                            std::string(node.name()) + "> after <" + root.name() + ">",
                        locate(text, file, node));
        root = node;
    }
    if (!root)
        throw Error(ErrorKind::Input, "MSCCL-IR XML: expected the root element <algo>, found none",
                    {file, 0, 0, {}}, "expected <algo> with <gpu>, <tb> and <step/> elements");
    return root;
}

/// Reads one element's attributes and says where the element is when one is wrong.
class Attributes {
public:
    Attributes(const std::string& text, const std::string& file)
        : m_text(text)
        , m_file(file) {}

    SourceLocation where(const pugi::xml_node& e, const std::string& key) const {
        return locate(m_text, m_file, e, key);
    }

    long long integer(const pugi::xml_node& e, const char* key) const {
        const std::string tag = e.name();
        const pugi::xml_attribute a = e.attribute(key);
        if (!a)
            throw Error(ErrorKind::Validation,
                        "<" + tag + "> has no attribute " + key + ": expected an integer",
                        where(e, tag + "." + key));
        const std::string value = a.value();
        try {
            size_t used = 0;
            const long long v = std::stoll(value, &used);
            if (used != value.size())
                throw std::invalid_argument("trailing");
            return v;
        } catch (const std::exception&) {
            throw Error(ErrorKind::Validation,
                        "attribute " + std::string(key) + " of <" + tag +
                            "> should be an integer, found \"" + value + "\"",
                        where(e, tag + "." + key));
        }
    }

private:
    const std::string& m_text;
    const std::string& m_file;
};

} // namespace

MscclAlgorithm parseMscclXml(const std::string& text, const std::string& file,
                             uint64_t collectiveBytes) {
    // Entities, character references and CDATA are decoded; comments, processing instructions
    // and the DOCTYPE are skipped. A fragment, so that text beside the root element is kept
    // and can be refused instead of silently dropped.
    pugi::xml_document doc;
    const pugi::xml_parse_result parsed = doc.load_buffer(
        text.data(), text.size(), pugi::parse_default | pugi::parse_fragment, pugi::encoding_utf8);
    if (!parsed)
        throwParseError(text, file, parsed);
    const pugi::xml_node root = rootElement(doc, text, file);
    const Attributes attributes(text, file);
    if (std::strcmp(root.name(), "algo") != 0)
        throw Error(ErrorKind::Validation,
                    "expected the root element <algo>, found <" + std::string(root.name()) + ">",
                    attributes.where(root, {}));
    MscclAlgorithm algo;
    algo.name = root.attribute("name").value();
    algo.collective = root.attribute("coll").value();
    // Checked before anything is sized by it: a cast to int wrapped 22222222223 to 747 million
    // traces (65 GB). The limit is the platform's (docs/limits.md).
    const long long gpus = attributes.integer(root, "ngpus");
    if (gpus < 1 || static_cast<uint64_t>(gpus) > kMaxNpus)
        throw Error(ErrorKind::Validation,
                    "expected 1 to " + std::to_string(kMaxNpus) + " GPUs in ngpus, found " +
                        std::to_string(gpus),
                    attributes.where(root, "algo.ngpus"), kLimitsHint);
    algo.gpuCount = static_cast<int>(gpus);
    algo.traces.resize(static_cast<size_t>(algo.gpuCount));
    // Elements other than <gpu>, <tb> and <step> are ignored, as by the converter; so is text.
    for (const pugi::xml_node& gpu : root.children("gpu")) {
        const long long id = attributes.integer(gpu, "id");
        if (id < 0 || id >= algo.gpuCount)
            throw Error(ErrorKind::Validation,
                        "gpu id " + std::to_string(id) + " is outside 0.." +
                            std::to_string(algo.gpuCount - 1),
                        attributes.where(gpu, "gpu.id"));
        long long chunks = attributes.integer(gpu, "i_chunks");
        if (chunks == 0)
            chunks = attributes.integer(gpu, "o_chunks");
        const bool allGather = algo.collective == namesOf(CollectiveType::AllGather).msccl;
        if (!allGather && chunks <= 0)
            throw Error(ErrorKind::Validation, "gpu " + std::to_string(id) + " has no chunks",
                        attributes.where(gpu, "gpu.i_chunks"));
        const uint64_t chunk =
            allGather ? collectiveBytes : collectiveBytes / static_cast<uint64_t>(chunks);
        WorkloadTrace& trace = algo.traces[static_cast<size_t>(id)];
        trace.file = file + " (gpu " + std::to_string(id) + ")";
        // Last node of each (threadblock, step); -1 for a nop (resolved to its dependency).
        std::map<std::pair<long long, long long>, int64_t> lastNode;
        uint64_t nextId = 0;
        // Two passes: steps may depend on threadblocks that come later in the file.
        struct Pending {
            size_t node;
            long long tb, step;
            pugi::xml_node element; ///< the <step> that depends, for the message
        };
        std::vector<Pending> crossDeps;
        for (const pugi::xml_node& tb : gpu.children("tb")) {
            const long long tbId = attributes.integer(tb, "id");
            const long long sendPeer = attributes.integer(tb, "send");
            const long long recvPeer = attributes.integer(tb, "recv");
            const long long channel = attributes.integer(tb, "chan");
            int64_t previous = -1;
            for (const pugi::xml_node& step : tb.children("step")) {
                const long long s = attributes.integer(step, "s");
                const std::string type = step.attribute("type").value();
                const long long count = attributes.integer(step, "cnt");
                const long long depTb = attributes.integer(step, "depid");
                const long long depStep = attributes.integer(step, "deps");
                const uint64_t bytes = chunk * static_cast<uint64_t>(std::max(1LL, count));
                auto addNode = [&](NodeType nodeType) -> WorkloadNode& {
                    WorkloadNode n;
                    n.id = nextId++;
                    n.type = nodeType;
                    n.name = type + "_tb" + std::to_string(tbId) + "_s" + std::to_string(s);
                    if (previous >= 0)
                        n.dataDeps.push_back(static_cast<uint64_t>(previous));
                    trace.nodes.push_back(std::move(n));
                    if (depTb >= 0)
                        crossDeps.push_back({trace.nodes.size() - 1, depTb, depStep, step});
                    return trace.nodes.back();
                };
                if (type == "s") {
                    WorkloadNode& n = addNode(NodeType::CommSend);
                    n.hasCommDst = n.hasCommTag = n.hasCommSize = true;
                    n.commDst = static_cast<uint32_t>(sendPeer);
                    n.commTag = static_cast<uint32_t>(channel);
                    n.commSize = bytes;
                    previous = static_cast<int64_t>(n.id);
                } else if (type == "r" || type == "rrc") {
                    WorkloadNode& n = addNode(NodeType::CommRecv);
                    n.hasCommSrc = n.hasCommTag = n.hasCommSize = true;
                    n.commSrc = static_cast<uint32_t>(recvPeer);
                    n.commTag = static_cast<uint32_t>(channel);
                    n.commSize = bytes;
                    previous = static_cast<int64_t>(n.id);
                    if (type == "rrc") {
                        WorkloadNode c;
                        c.id = nextId++;
                        c.type = NodeType::Comp;
                        c.name = "rrc_comp_tb" + std::to_string(tbId) + "_s" + std::to_string(s);
                        c.durationMicros = static_cast<uint64_t>(std::floor(
                            3.0 * std::floor(static_cast<double>(bytes) / 50.0) / 1000.0));
                        c.dataDeps.push_back(static_cast<uint64_t>(previous));
                        trace.nodes.push_back(std::move(c));
                        previous = static_cast<int64_t>(nextId - 1);
                    }
                } else if (type != "nop") {
                    throw Error(ErrorKind::Validation,
                                "step type \"" + type + "\" is not one of s, r, rrc, nop",
                                attributes.where(step, "step.type"));
                }
                lastNode[{tbId, s}] = previous;
            }
        }
        for (const Pending& p : crossDeps) {
            const auto it = lastNode.find({p.tb, p.step});
            if (it == lastNode.end())
                throw Error(ErrorKind::Validation,
                            "gpu " + std::to_string(id) + " depends on step " +
                                std::to_string(p.step) + " of threadblock " + std::to_string(p.tb) +
                                ", which does not exist",
                            attributes.where(p.element, "step.depid"));
            if (it->second >= 0)
                trace.nodes[p.node].dataDeps.push_back(static_cast<uint64_t>(it->second));
        }
    }
    return algo;
}

MscclAlgorithm loadMscclXml(const std::string& path, uint64_t collectiveBytes) {
    return parseMscclXml(readInputFile(path, "the MSCCL-IR file"), path, collectiveBytes);
}

} // namespace astrolabe
