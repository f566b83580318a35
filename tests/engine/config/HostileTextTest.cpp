// What a hostile file's bytes do to messages (issue #54): never more than a short, escaped
// excerpt of them; a byte-order mark accepted; a key given twice refused, naming both lines.
#include "ConfigTestSupport.h"
#include "astra/AstraSystemConfig.h"
#include "core/Error.h"
#include "engine/sweep/RingProject.h"
#include "graph/GraphCsv.h"
#include "project/ProjectFile.h"
#include "project/SweepFile.h"
#include "support/TempDir.h"
#include "sweep/SweepPlan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace astrolabe;
using astrolabe::configtest::errorText;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(HostileText, AnExcerptIsShortEscapedAndOneLine) {
    EXPECT_EQ(quotedExcerpt("npu0"), "\"npu0\"");
    EXPECT_EQ(quotedExcerpt(std::string("a\0b", 3)), "\"a\\x00b\"");
    EXPECT_EQ(quotedExcerpt("\xEF\xBB\xBF"
                            "from"),
              "\"\\xEF\\xBB\\xBFfrom\"");
    EXPECT_EQ(quotedExcerpt("gr\xC3\xBC\xC3\x9F \xFF"), "\"gr\xC3\xBC\xC3\x9F \\xFF\"");
    EXPECT_EQ(quotedExcerpt("a\nb\t\"c\\"), "\"a\\x0Ab\\x09\\\"c\\\\\"");
    const std::string huge(10'000'000, 'x');
    // Built by appends: GCC 12 warns falsely (-Wrestrict) on "\"" + std::string.
    std::string expected(1, '"');
    expected.append(60, 'x').append("\"... (10000000 bytes)");
    EXPECT_EQ(quotedExcerpt(huge), expected);
}

// yaml-cpp stops deep nesting with the message "bad file".
TEST(HostileText, DeepNestingIsCalledSoNotABadFile) {
    std::string deep = "a: ";
    for (int i = 0; i < 100'000; ++i)
        deep += "{a: ";
    deep.append("1").append(100'000, '}').append("\n");
    const std::string what = errorText([&] { parseProject(deep, "deep.yaml"); });
    EXPECT_THAT(what, HasSubstr("deep.yaml:1:"));
    EXPECT_THAT(what, HasSubstr("YAML nested too deeply: the reader stops at"));
    EXPECT_THAT(what, Not(HasSubstr("bad file")));
}

// A project path naming a file that is not YAML (/etc/passwd) echoed its contents whole.
TEST(HostileText, AFileThatIsNotAProjectIsNotEchoed) {
    std::string passwd;
    for (int i = 0; i < 40; ++i)
        passwd += "user" + std::to_string(i) + ":x:1000:1000:User:/home/user:/bin/bash\n";
    const std::string what = errorText([&] { parseProject(passwd, "passwd"); });
    EXPECT_THAT(what, HasSubstr("passwd:1:1: expected a project"));
    EXPECT_THAT(what, HasSubstr("... (" + std::to_string(passwd.size() - 1) + " bytes)"));
    EXPECT_THAT(what, Not(HasSubstr("user2:")));
    EXPECT_LT(what.size(), 400u) << what;
}

// A 10 MB field was echoed whole, a NUL byte cut the message, and a byte-order mark was refused
// with an invisible character in the message.
TEST(HostileText, CsvFieldsAreQuotedShortAndTheByteOrderMarkIsAccepted) {
    const std::string header = "from,to,bandwidth,latency\n";
    std::string what = errorText([&] {
        parseGraphEdgeCsv(header + "npu0," + std::string(10'000'000, 'x') + ",1 GB/s,1 us\n",
                          "e.csv");
    });
    EXPECT_THAT(what, HasSubstr("e.csv:2:6: to: expected a device npuK or swK, found \"xxx"));
    EXPECT_THAT(what, HasSubstr("... (10000000 bytes)"));
    EXPECT_LT(what.size(), 1000u);
    what = errorText(
        [&] { parseGraphEdgeCsv(header + std::string("np\0u0,npu1,1 GB/s,1 us\n", 23), "e.csv"); });
    EXPECT_THAT(what, HasSubstr("found \"np\\x00u0\""));
    EXPECT_EQ(what.find('\0'), std::string::npos);
    what = errorText([&] { parseGraphEdgeCsv(header + "npu0,npu1,fast\x01,1 us\n", "e.csv"); });
    EXPECT_THAT(what, HasSubstr("\"fast\\x01\""));
    const GraphSpec g =
        parseGraphEdgeCsv("\xEF\xBB\xBF" + header + "npu0,npu1,50 GB/s,1 us\n", "bom.csv");
    EXPECT_EQ(g.npus, 2);
    ASSERT_EQ(g.links.size(), 1u);
}

// `npus: 2` then `npus: 3` was accepted, and one of them won silently.
TEST(HostileText, AKeyGivenTwiceIsRefusedNamingBothLines) {
    std::string project = test::kRingProject;
    project.replace(project.find("  chunks: 4\n"), 12, "  chunks: 4\n  chunks: 8\n");
    const std::string what = errorText([&] { parseProject(project, "p.yaml"); });
    EXPECT_THAT(what,
                HasSubstr("p.yaml:10:3: system.chunks: the key \"chunks\" is given twice, on lines "
                          "9 and 10"));
    EXPECT_THAT(errorText([&] { parseProject("name: a\nname: b\n", "n.yaml"); }),
                HasSubstr("n.yaml:2:1: name: the key \"name\" is given twice, on lines 1 and 2"));
    EXPECT_THAT(errorText([&] {
                    parseSweepFile("project: p.yaml\naxes:\n  - {path: system.chunks, path: "
                                   "system.chunks, values: [1]}\n",
                                   "s.yaml");
                }),
                HasSubstr("s.yaml:3:27: axes[0].path: the key \"path\" is given twice, both "
                          "on line 3"));
}

// A JSON key of 10 MB given twice: the message quotes it short, as every other excerpt.
TEST(HostileText, ARepeatedHugeJsonKeyIsQuotedShort) {
    const std::string key(10'000'000, 'k');
    std::string json(1, '{'); // by appends, as above
    json.append("\"").append(key).append("\": 1, \"").append(key).append("\": 2}");
    const std::string what = errorText([&] { parseAstraSystemJson(json, "s.json"); });
    EXPECT_THAT(what, HasSubstr("is given twice in one object"));
    EXPECT_THAT(what, HasSubstr("... (10000000 bytes)"));
    EXPECT_LT(what.size(), 1000u);
}

// A sweep whose project is the sweep file itself said "the base project has no system".
TEST(HostileText, ASweepThatIsItsOwnProjectIsNamed) {
    test::TempDir dir("sweep_self");
    const std::string sweep = dir.path("s.yaml");
    test::writeText(sweep, "project: s.yaml\naxes: [{path: system.chunks, values: [1]}]\n");
    const std::string what = errorText([&] { planSweep(sweep); });
    EXPECT_THAT(what, HasSubstr("s.yaml:1:10: project: names this sweep file itself"));
    EXPECT_THAT(what, Not(HasSubstr("has no system")));
}

// A constraint that cannot be evaluated was reported once per point (twice for two points).
TEST(HostileText, AConstraintErrorIsReportedOnce) {
    test::TempDir dir("sweep_constraint_once");
    test::writeText(dir.path("project.yaml"), test::kRingProject);
    test::writeText(dir.path("s.yaml"), "project: project.yaml\n"
                                        "axes: [{path: system.chunks, values: [1, 2, 4]}]\n"
                                        "constraints: [chunk <= 2]\n");
    try {
        planSweep(dir.path("s.yaml"));
        ADD_FAILURE() << "planned";
    } catch (const ErrorList& e) {
        ASSERT_EQ(e.errors().size(), 1u) << e.what();
        EXPECT_THAT(std::string(e.what()), HasSubstr("no axis is named \"chunk\""));
    }
}
