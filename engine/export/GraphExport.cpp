#include "export/GraphExport.h"

#include <iomanip>
#include <sstream>

namespace astrolabe {

namespace {

std::string number(double v) {
    std::ostringstream out;
    out << std::setprecision(17) << v;
    return out.str();
}

std::string dotId(const std::string& name) {
    std::string out = "\"";
    for (char c : name) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    out += '"';
    return out;
}

} // namespace

std::string graphDot(const GraphSpec& g, const std::string& name) {
    std::ostringstream out;
    out << "digraph " << dotId(name) << " {\n";
    for (int i = 0; i < g.deviceCount(); ++i)
        out << "  " << g.deviceName(i) << " [shape=" << (i < g.npus ? "box" : "ellipse") << "];\n";
    for (const GraphLinkSpec& l : g.links) {
        out << "  " << g.deviceName(l.from) << " -> " << g.deviceName(l.to)
            << " [bandwidth=" << number(l.bandwidthBytesPerSecond)
            << ", latency=" << number(l.latencyNs);
        if (l.bidirectional)
            out << ", dir=both";
        out << "];\n";
    }
    out << "}\n";
    return out.str();
}

std::string graphGraphMl(const GraphSpec& g) {
    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
           "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n"
           "  <key id=\"bandwidth\" for=\"edge\" attr.name=\"bandwidth_bytes_per_s\" "
           "attr.type=\"double\"/>\n"
           "  <key id=\"latency\" for=\"edge\" attr.name=\"latency_ns\" attr.type=\"double\"/>\n"
           "  <key id=\"bidirectional\" for=\"edge\" attr.name=\"bidirectional\" "
           "attr.type=\"boolean\"/>\n"
           "  <graph id=\"platform\" edgedefault=\"directed\">\n";
    for (int i = 0; i < g.deviceCount(); ++i)
        out << "    <node id=\"" << g.deviceName(i) << "\"><data key=\"kind\">"
            << (i < g.npus ? "npu" : "switch") << "</data></node>\n";
    for (size_t i = 0; i < g.links.size(); ++i) {
        const GraphLinkSpec& l = g.links[i];
        out << "    <edge id=\"e" << i << "\" source=\"" << g.deviceName(l.from) << "\" target=\""
            << g.deviceName(l.to) << "\"><data key=\"bandwidth\">"
            << number(l.bandwidthBytesPerSecond) << "</data><data key=\"latency\">"
            << number(l.latencyNs) << "</data><data key=\"bidirectional\">"
            << (l.bidirectional ? "true" : "false") << "</data></edge>\n";
    }
    out << "  </graph>\n</graphml>\n";
    return out.str();
}

} // namespace astrolabe
