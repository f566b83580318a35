#include "collective/MscclXml.h"

#include "core/Error.h"
#include "core/InputFile.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <map>

namespace astrolabe {

namespace {

/// An element of the small XML subset MSCCL-IR uses: tags with attributes, no text content.
struct Element {
    std::string tag;
    std::map<std::string, std::string> attributes;
    std::vector<Element> children;
    int line = 0;
};

class XmlReader {
public:
    XmlReader(const std::string& text, const std::string& file)
        : m_text(text)
        , m_file(file) {}

    Element parseDocument() {
        skipMisc();
        Element root = parseElement();
        skipMisc();
        if (m_pos < m_text.size())
            fail("unexpected content after the root element");
        return root;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(ErrorKind::Input, "MSCCL-IR XML: " + what, {m_file, m_line, 0, {}},
                    "expected <algo> with <gpu>, <tb> and <step/> elements");
    }
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    void advance(size_t n = 1) {
        for (size_t i = 0; i < n && m_pos < m_text.size(); ++i)
            if (m_text[m_pos++] == '\n')
                ++m_line;
    }
    bool startsWith(const char* s) const { return m_text.compare(m_pos, std::strlen(s), s) == 0; }
    void skipSpace() {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(peek())))
            advance();
    }
    void skipUntil(const char* end) {
        const size_t at = m_text.find(end, m_pos);
        if (at == std::string::npos)
            fail(std::string("unterminated construct, missing \"") + end + "\"");
        advance(at - m_pos + std::strlen(end));
    }
    void skipMisc() {
        for (;;) {
            skipSpace();
            if (startsWith("<?"))
                skipUntil("?>");
            else if (startsWith("<!--"))
                skipUntil("-->");
            else
                return;
        }
    }
    std::string name() {
        const size_t begin = m_pos;
        while (m_pos < m_text.size() && (std::isalnum(static_cast<unsigned char>(peek())) ||
                                         peek() == '_' || peek() == '-' || peek() == ':'))
            advance();
        if (m_pos == begin)
            fail("expected a name");
        return m_text.substr(begin, m_pos - begin);
    }
    Element parseElement() {
        if (peek() != '<')
            fail("expected an element");
        Element e;
        e.line = m_line;
        advance();
        e.tag = name();
        for (;;) {
            skipSpace();
            if (startsWith("/>")) {
                advance(2);
                return e;
            }
            if (peek() == '>') {
                advance();
                break;
            }
            const std::string key = name();
            skipSpace();
            if (peek() != '=')
                fail("attribute " + key + " of <" + e.tag + "> has no value");
            advance();
            skipSpace();
            const char quote = peek();
            if (quote != '"' && quote != '\'')
                fail("attribute " + key + " of <" + e.tag + "> is not quoted");
            advance();
            const size_t end = m_text.find(quote, m_pos);
            if (end == std::string::npos)
                fail("unterminated attribute " + key);
            e.attributes[key] = m_text.substr(m_pos, end - m_pos);
            advance(end - m_pos + 1);
        }
        for (;;) {
            skipMisc();
            if (startsWith("</")) {
                advance(2);
                const std::string closing = name();
                if (closing != e.tag)
                    fail("</" + closing + "> closes <" + e.tag + ">");
                skipSpace();
                if (peek() != '>')
                    fail("malformed closing tag </" + closing);
                advance();
                return e;
            }
            if (m_pos >= m_text.size())
                fail("<" + e.tag + "> is never closed");
            if (peek() != '<')
                fail("text content is not expected inside <" + e.tag + ">");
            e.children.push_back(parseElement());
        }
    }

    const std::string& m_text;
    std::string m_file;
    size_t m_pos = 0;
    int m_line = 1;
};

long long intAttribute(const Element& e, const std::string& key, const std::string& file) {
    const auto it = e.attributes.find(key);
    if (it == e.attributes.end())
        throw Error(ErrorKind::Validation, "<" + e.tag + "> has no attribute " + key,
                    {file, e.line, 0, e.tag + "." + key});
    try {
        size_t used = 0;
        const long long v = std::stoll(it->second, &used);
        if (used != it->second.size())
            throw std::invalid_argument("trailing");
        return v;
    } catch (const std::exception&) {
        throw Error(ErrorKind::Validation,
                    "attribute " + key + " of <" + e.tag + "> should be an integer, found \"" +
                        it->second + "\"",
                    {file, e.line, 0, e.tag + "." + key});
    }
}

} // namespace

MscclAlgorithm parseMscclXml(const std::string& text, const std::string& file,
                             uint64_t collectiveBytes) {
    const Element root = XmlReader(text, file).parseDocument();
    if (root.tag != "algo")
        throw Error(ErrorKind::Validation, "the root element is <" + root.tag + ">, not <algo>",
                    {file, root.line, 0, {}});
    MscclAlgorithm algo;
    algo.name = root.attributes.count("name") ? root.attributes.at("name") : "";
    algo.collective = root.attributes.count("coll") ? root.attributes.at("coll") : "";
    algo.gpuCount = static_cast<int>(intAttribute(root, "ngpus", file));
    algo.traces.resize(static_cast<size_t>(std::max(0, algo.gpuCount)));
    for (const Element& gpu : root.children) {
        if (gpu.tag != "gpu")
            continue;
        const long long id = intAttribute(gpu, "id", file);
        if (id < 0 || id >= algo.gpuCount)
            throw Error(ErrorKind::Validation,
                        "gpu id " + std::to_string(id) + " is outside 0.." +
                            std::to_string(algo.gpuCount - 1),
                        {file, gpu.line, 0, "gpu.id"});
        long long chunks = intAttribute(gpu, "i_chunks", file);
        if (chunks == 0)
            chunks = intAttribute(gpu, "o_chunks", file);
        const bool allGather = algo.collective == "allgather";
        if (!allGather && chunks <= 0)
            throw Error(ErrorKind::Validation, "gpu " + std::to_string(id) + " has no chunks",
                        {file, gpu.line, 0, "gpu.i_chunks"});
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
        };
        std::vector<Pending> crossDeps;
        for (const Element& tb : gpu.children) {
            if (tb.tag != "tb")
                continue;
            const long long tbId = intAttribute(tb, "id", file);
            const long long sendPeer = intAttribute(tb, "send", file);
            const long long recvPeer = intAttribute(tb, "recv", file);
            const long long channel = intAttribute(tb, "chan", file);
            int64_t previous = -1;
            for (const Element& step : tb.children) {
                if (step.tag != "step")
                    continue;
                const long long s = intAttribute(step, "s", file);
                const std::string type =
                    step.attributes.count("type") ? step.attributes.at("type") : "";
                const long long count = intAttribute(step, "cnt", file);
                const long long depTb = intAttribute(step, "depid", file);
                const long long depStep = intAttribute(step, "deps", file);
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
                        crossDeps.push_back({trace.nodes.size() - 1, depTb, depStep});
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
                                {file, step.line, 0, "step.type"});
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
                            {file, gpu.line, 0, "step.depid"});
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
