// Saving keeps a person's comments: carried by key path from the file the project was read
// from into the writer's layout (project/ProjectComments.h). Checked on every project the
// repository ships, whose comments explain their numbers, and on the YAML corners that could
// hide or fake a comment.
#include "project/ProjectComments.h"

#include "ConfigTestSupport.h"
#include "TestPaths.h"
#include "project/ProjectFile.h"

#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

namespace astrolabe {
namespace {

namespace fs = std::filesystem;
using astrolabe::test::TempDir;
using ::testing::HasSubstr;

std::string readText(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Every comment of `text` (the '#' and what follows, as written), in order.
std::vector<std::string> commentsOf(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const size_t hash =
            line.find(" #") != std::string::npos ? line.find(" #") + 1 : line.find('#');
        if (hash != std::string::npos && line.find_first_not_of(' ') >= hash)
            out.push_back(line.substr(hash)); // a comment line
        else if (const size_t end = line.find("  #"); end != std::string::npos)
            out.push_back(line.substr(end + 2)); // a comment at a line's end
    }
    return out;
}

TEST(ProjectComments, ASavedProjectKeepsItsCommentsWhereTheyWere) {
    TempDir dir;
    const fs::path source = fs::path(ASTROLABE_SOURCE_DIR) / "projects/torus-2d/project.yaml";
    SimulationSpec spec = loadProject(source.string());
    spec.platform.dimensions[0].bandwidthBytesPerSecond *= 2;
    const std::string saved = dir.path("project.yaml");
    saveProject(spec, saved);
    const std::string text = readText(saved);
    const std::string original = readText(source);
    // The header: the original's, not the writer's.
    EXPECT_EQ(text.substr(0, text.find('\n')), original.substr(0, original.find('\n')));
    EXPECT_THAT(text, ::testing::Not(HasSubstr("# Astrolabe project (schema")));
    for (const std::string& comment : commentsOf(original))
        EXPECT_THAT(text, HasSubstr(comment)) << text;
    // ...and the project is the edited one.
    SimulationSpec back = loadProject(saved);
    EXPECT_EQ(back.platform.dimensions[0].bandwidthBytesPerSecond,
              spec.platform.dimensions[0].bandwidthBytesPerSecond);
}

// Every comment of every project the repository ships survives a save, and the saved file reads
// back as the same project.
TEST(ProjectComments, EveryBundledProjectKeepsEveryComment) {
    TempDir dir;
    int projects = 0, comments = 0;
    for (const auto& entry :
         fs::recursive_directory_iterator(fs::path(ASTROLABE_SOURCE_DIR) / "projects")) {
        if (entry.path().extension() != ".yaml")
            continue;
        const std::string original = readText(entry.path());
        if (original.find("\nplatform:") == std::string::npos)
            continue; // a sweep, a model
        SCOPED_TRACE(entry.path().string());
        const SimulationSpec spec = loadProjectForEditing(entry.path().string());
        const std::string saved = dir.path(std::to_string(projects++) + ".yaml");
        saveProject(spec, saved);
        const std::string text = readText(saved);
        for (const std::string& comment : commentsOf(original)) {
            ++comments;
            EXPECT_THAT(text, HasSubstr(comment));
        }
        EXPECT_NO_THROW(loadProjectForEditing(saved));
    }
    EXPECT_GE(projects, 10);
    EXPECT_GE(comments, 100);
}

TEST(ProjectComments, QuotesBlockScalarsAndListItems) {
    const std::string original = "# head\n"
                                 "name: \"a # not a comment\"  # the name\n"
                                 "notes: |\n"
                                 "  # text of the notes, not a comment\n"
                                 "platform:\n"
                                 "  # the stack\n"
                                 "  dimensions:\n"
                                 "  - type: Ring   # first\n"
                                 "    size: 4\n"
                                 "  # the second one\n"
                                 "  - {type: Switch, size: 2}  # second\n"
                                 "system: {chunks: 1}  # Lesson's system\n"
                                 "# tail\n";
    const std::string written = "# writer's header\n"
                                "name: \"a # not a comment\"\n"
                                "platform:\n"
                                "  dimensions:\n"
                                "    - {type: Ring, size: 4}\n"
                                "    - {type: Switch, size: 2}\n"
                                "system:\n"
                                "  chunks: 1\n";
    EXPECT_EQ(withCommentsOf(original, written), "# head\n"
                                                 "name: \"a # not a comment\"  # the name\n"
                                                 "platform:\n"
                                                 "  # the stack\n"
                                                 "  dimensions:\n"
                                                 "    - {type: Ring, size: 4}  # first\n"
                                                 "    # the second one\n"
                                                 "    - {type: Switch, size: 2}  # second\n"
                                                 "system:  # Lesson's system\n"
                                                 "  chunks: 1\n"
                                                 "# tail\n");
    // No comments of its own: the writer's text as it is.
    EXPECT_EQ(withCommentsOf("name: x\nplatform: {}\n", written), written);
}

} // namespace
} // namespace astrolabe
