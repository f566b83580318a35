// Writing the Astrolabe project YAML: fully explicit, units spelled out, values chosen so that
// reading the file back gives the same numbers bit for bit (see ProjectValues.h).
//
// Written as text, not with yaml-cpp's YAML::Emitter: the layout is the documented format
// (a header comment, one flow-map line per dimension and per graph link, keys in the schema's
// order) that people read and diff, and every value's text already comes from one place
// (ProjectValues.h; the schema's projectText). The one thing an emitter would add, quoting, is
// quotedText(), tested against yaml-cpp's parser with every control character, YAML indicator
// and UTF-8 (ProjectFile.AnyNameReadsBackExactly).
#include "astra/AstraSystemConfig.h"
#include "core/InputFile.h"
#include "core/OutputFile.h"
#include "core/Units.h"
#include "graph/GraphCsv.h"
#include "project/ProjectComments.h"
#include "project/ProjectFile.h"
#include "schema/SchemaProject.h"
#include "yaml/ProjectValues.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace astrolabe {
namespace {

namespace fs = std::filesystem;
using namespace config;

// Paths are written relative to the project's folder, so a project folder can be moved whole.
std::string relativePath(const std::string& path, const fs::path& directory) {
    if (path.empty())
        return path;
    const fs::path absolute = fs::absolute(fs::path(path)).lexically_normal();
    const fs::path relative = absolute.lexically_relative(directory);
    return quotedText(relative.empty() ? absolute.string() : relative.generic_string());
}

/// The CSV file beside the project that holds a graph's links when there are too many to list
/// in the project itself; empty when they are listed there.
std::string linkFileName(const SimulationSpec& spec, const std::string& projectPath) {
    if (!spec.platform.graph || spec.platform.graph->links.size() <= kMaxInlineGraphLinks)
        return {};
    return fs::path(projectPath).stem().string() + ".links.csv";
}

/// "platform:" and the platform's own settings (accelerator, when named).
void writePlatformHead(std::ostream& out, const PlatformSpec& platform) {
    out << "platform:\n";
    SimulationSpec view;
    view.platform = platform;
    settings::writeProjectGroup(out, settings::platformGroup(), view, nullptr);
}

void writeGraph(std::ostream& out, const PlatformSpec& platform, const std::string& linkFile) {
    const GraphSpec& g = *platform.graph;
    writePlatformHead(out, platform);
    out << "  graph:\n    npus: " << g.npus << "\n    switches: " << g.switches << "\n";
    SimulationSpec view;
    view.platform = platform;
    std::ostringstream settingLines; // "  routing: ecmp" lines, indented one level further here
    settings::writeProjectGroup(settingLines, settings::graphGroup(), view, nullptr);
    std::istringstream lines(settingLines.str());
    for (std::string line; std::getline(lines, line);)
        out << "  " << line << "\n";
    if (platform.dimensions.size() > 1) {
        out << "    logical-dimensions: [";
        for (size_t i = 0; i < platform.dimensions.size(); ++i)
            out << (i ? ", " : "") << platform.dimensions[i].size;
        out << "]\n";
    }
    if (!linkFile.empty())
        out << "    links: " << quotedText(linkFile) << "\n";
    else
        out << "    links:\n";
    for (size_t i = 0; linkFile.empty() && i < g.links.size(); ++i) {
        const GraphLinkSpec& l = g.links[i];
        out << "      - {from: " << g.deviceName(l.from) << ", to: " << g.deviceName(l.to)
            << ", bandwidth: " << bandwidthText(l.bandwidthBytesPerSecond)
            << ", latency: " << nanosecondsText(l.latencyNs);
        if (!l.bidirectional)
            out << ", bidirectional: false";
        out << "}\n";
    }
    if (g.hasPositions()) {
        // Shortest text that reads back to the same double (std::to_chars), so a reopened
        // project saves byte-identical.
        const auto number = [](double v) {
            char buffer[32];
            const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
            return std::string(buffer, end);
        };
        out << "    positions:\n";
        for (int i = 0; i < g.deviceCount(); ++i) {
            const GraphPoint& p = g.positions[static_cast<size_t>(i)];
            out << "      " << g.deviceName(i) << ": [" << number(p.x) << ", " << number(p.y)
                << "]\n";
        }
    }
}

void writePlatform(std::ostream& out, const PlatformSpec& platform, const std::string& linkFile) {
    if (platform.graph) {
        // Generated graphs are written link by link: the file then needs no generator to read.
        writeGraph(out, platform, linkFile);
        return;
    }
    writePlatformHead(out, platform);
    out << "  dimensions:\n";
    for (const DimensionSpec& d : platform.dimensions)
        out << "    - "
            << settings::projectFlowMap(settings::dimensionGroup(), settings::dimensionView(d))
            << "\n";
}

void writeSystem(std::ostream& out, const SimulationSpec& spec, const fs::path& directory) {
    out << "system:\n";
    settings::writeProjectGroup(out, settings::systemGroup(), spec, [&](const std::string& path) {
        return relativePath(path, directory);
    });
}

void writeMemory(std::ostream& out, const SimulationSpec& spec, const fs::path& directory) {
    out << "memory:\n";
    settings::writeProjectGroup(out, settings::memoryGroup(), spec, [&](const std::string& path) {
        return relativePath(path, directory);
    });
}

void writeWorkload(std::ostream& out, const WorkloadSource& w, const fs::path& directory) {
    out << "workload:\n";
    if (w.kind == WorkloadSource::Kind::ChakraTrace) {
        out << "  trace: " << relativePath(w.tracePrefix, directory) << "\n";
        return;
    }
    out << "  microbenchmark: {collective: " << projectCollectiveName(w.microbenchmark.collective)
        << ", size: " << sizeText(w.microbenchmark.sizeBytes)
        << ", comm-group: " << w.microbenchmark.commGroup << "}\n";
}

} // namespace

std::string projectYamlText(const SimulationSpec& spec, const std::string& projectPath) {
    const fs::path directory = fs::absolute(fs::path(projectPath)).parent_path().lexically_normal();
    std::ostringstream out;
    out << "# Astrolabe project (schema: docs/project-format.md)\n"
        << "name: " << quotedText(spec.name) << "\n";
    writePlatform(out, spec.platform, linkFileName(spec, projectPath));
    writeSystem(out, spec, directory);
    writeMemory(out, spec, directory);
    // A serving project read without a workload: section is written without one.
    const bool noWorkload = spec.serving.enabled &&
                            spec.workload.kind == WorkloadSource::Kind::Microbenchmark &&
                            spec.workload.microbenchmark.sizeBytes == 0;
    if (!noWorkload)
        writeWorkload(out, spec.workload, directory);
    if (!spec.commGroups.empty()) {
        out << "comm-groups:\n";
        for (const auto& [id, ranks] : spec.commGroups) {
            out << "  " << id << ": [";
            for (size_t i = 0; i < ranks.size(); ++i)
                out << (i ? ", " : "") << ranks[i];
            out << "]\n";
        }
    }
    out << "run:\n";
    settings::writeProjectGroup(out, settings::runGroup(), spec,
                                [](const std::string& p) { return p; });
    if (spec.serving.enabled) {
        out << "serving:\n";
        settings::writeProjectGroup(out, settings::servingGroup(), spec, [&](const std::string& p) {
            return relativePath(p, directory);
        });
    }
    return out.str();
}

namespace {

// The comments of the file the project was read from (or of the file it replaces): a project
// a person wrote and commented keeps its comments when saved (ProjectComments.h). Only a
// project file lends them (an ASTRA-sim input the spec came from does not).
std::string withOriginalComments(const SimulationSpec& spec, const std::string& path,
                                 const std::string& text) {
    for (const std::string& source : {spec.sourceFile, path}) {
        std::error_code error;
        if (source.empty() || !fs::is_regular_file(source, error) ||
            fs::file_size(source, error) > kMaxProjectFileBytes || error)
            continue;
        std::ifstream in(source, std::ios::binary);
        const std::string original{std::istreambuf_iterator<char>(in),
                                   std::istreambuf_iterator<char>()};
        if (!in.bad() && (original.starts_with("platform:") ||
                          original.find("\nplatform:") != std::string::npos))
            return withCommentsOf(original, text);
    }
    return text;
}

} // namespace

void saveProject(const SimulationSpec& spec, const std::string& path) {
    const std::string text = withOriginalComments(spec, path, projectYamlText(spec, path));
    if (const std::string linkFile = linkFileName(spec, path); !linkFile.empty()) {
        const std::string csv = graphEdgeCsvText(*spec.platform.graph);
        writeOutputFile((fs::path(path).parent_path() / linkFile).string(), "the graph's links",
                        [&](std::ostream& out) { out << csv; });
    }
    writeOutputFile(path, "the project file", [&](std::ostream& out) { out << text; });
}

} // namespace astrolabe
