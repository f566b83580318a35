// MSCCL-IR XML: the conversion rules of spec §7.4 on a two-GPU ring, full XML (comments, CDATA,
// entities, declarations), and errors that name file, line:column, what was expected and what
// was found.
#include "collective/MscclXml.h"

#include "core/Error.h"

#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <string>

using namespace astrolabe;

namespace {

const char* kRing2 = R"(<algo name="ring2" ngpus="2" coll="allreduce">
  <gpu id="0" i_chunks="2" o_chunks="0">
    <tb id="0" send="1" recv="1" chan="0">
      <step s="0" type="s" cnt="1" depid="-1" deps="-1"/>
      <step s="1" type="rrc" cnt="1" depid="-1" deps="-1"/>
    </tb>
  </gpu>
  <gpu id="1" i_chunks="2" o_chunks="0">
    <tb id="0" send="0" recv="0" chan="0">
      <step s="0" type="s" cnt="1" depid="-1" deps="-1"/>
      <step s="1" type="rrc" cnt="1" depid="-1" deps="-1"/>
    </tb>
  </gpu>
</algo>
)";

Error errorOf(const std::string& xml) {
    try {
        parseMscclXml(xml, "algo.xml", 1 << 20);
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error for:\n" << xml;
    return Error(ErrorKind::Internal, "none");
}

#define EXPECT_HAS(haystack, needle)                                                               \
    EXPECT_NE((haystack).find(needle), std::string::npos) << (haystack)

} // namespace

TEST(MscclXml, ConvertsARingWithTheConverterRules) {
    // chunk = 1 MiB / i_chunks; "s" is a send of chunk * cnt, "rrc" a receive then a compute of
    // floor(3 * floor(bytes / 50) / 1000) us depending on it.
    const uint64_t bytes = 1 << 20, chunk = bytes / 2;
    const MscclAlgorithm a = parseMscclXml(kRing2, "ring2.xml", bytes);
    EXPECT_EQ(a.name, "ring2");
    EXPECT_EQ(a.collective, "allreduce");
    ASSERT_EQ(a.traces.size(), 2u);
    for (int gpu = 0; gpu < 2; ++gpu) {
        const std::vector<WorkloadNode>& n = a.traces[size_t(gpu)].nodes;
        ASSERT_EQ(n.size(), 3u);
        EXPECT_EQ(n[0].type, NodeType::CommSend);
        EXPECT_EQ(n[0].commDst, uint32_t(1 - gpu));
        EXPECT_EQ(n[0].commSize, chunk);
        EXPECT_EQ(n[1].type, NodeType::CommRecv);
        EXPECT_EQ(n[1].dataDeps, std::vector<uint64_t>{0});
        EXPECT_EQ(n[2].type, NodeType::Comp);
        EXPECT_EQ(n[2].durationMicros,
                  uint64_t(std::floor(3.0 * std::floor(double(chunk) / 50.0) / 1000.0)));
        EXPECT_EQ(n[2].dataDeps, std::vector<uint64_t>{1});
    }
}

TEST(MscclXml, ReadsFullXml) {
    // A declaration, DOCTYPE, comments, CDATA text, entities and CRLF line ends change nothing.
    std::string xml =
        std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!DOCTYPE algo>\r\n"
                    "<!-- generated -->\r\n") +
        kRing2;
    xml.replace(xml.find("name=\"ring2\""), 12, "name=\"ring&amp;2&#33;\"");
    xml.replace(xml.find("<gpu id=\"1\""), 0, "<![CDATA[ <ignored> ]]><!-- <gpu id=\"9\"/> -->");
    const MscclAlgorithm a = parseMscclXml(xml, "full.xml", 1 << 20);
    const MscclAlgorithm plain = parseMscclXml(kRing2, "plain.xml", 1 << 20);
    EXPECT_EQ(a.name, "ring&2!");
    ASSERT_EQ(a.traces.size(), plain.traces.size());
    for (size_t g = 0; g < a.traces.size(); ++g)
        EXPECT_EQ(a.traces[g].nodes.size(), plain.traces[g].nodes.size());
}

TEST(MscclXml, AMismatchedEndTagNamesTheOpenElement) {
    // Line 3 opens <tb> at column 5; line 5 closes it with </gpu> at column 5.
    const Error e =
        errorOf("<algo ngpus=\"1\">\n  <gpu id=\"0\" i_chunks=\"1\">\n"
                "    <tb id=\"0\" send=\"-1\" recv=\"-1\" chan=\"0\">\n"
                "      <step s=\"0\" type=\"nop\" cnt=\"1\" depid=\"-1\" deps=\"-1\"/>\n"
                "    </gpu>\n</algo>\n");
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_EQ(e.where().file, "algo.xml");
    EXPECT_EQ(e.where().line, 5);
    EXPECT_EQ(e.where().column, 5);
    EXPECT_HAS(e.message(), "expected </tb> to close <tb> (opened at 3:5), found \"</gpu>\"");
}

TEST(MscclXml, AnUnclosedElementIsReportedAtTheEndOfTheFile) {
    const Error e = errorOf("<algo ngpus=\"1\">\n  <gpu id=\"0\">\n");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_HAS(e.message(), "expected </gpu> to close <gpu> (opened at 2:3)");
    EXPECT_HAS(e.message(), "found the end of the file");
}

TEST(MscclXml, SyntaxErrorsSayWhatWasExpectedAndFound) {
    const Error unquoted = errorOf("<algo ngpus=\"1\">\n  <gpu id=0/>\n</algo>");
    EXPECT_EQ(unquoted.where().line, 2);
    EXPECT_EQ(unquoted.where().column, 11) << "at the value";
    EXPECT_HAS(unquoted.message(), "expected an attribute name=\"value\"");
    EXPECT_HAS(unquoted.message(), "found \"0/>\"");
    const Error comment = errorOf("<algo ngpus=\"1\">\n<!-- not closed\n");
    EXPECT_HAS(comment.message(), "expected a comment closed by -->");
}

TEST(MscclXml, OneRootElementAndNoStrayText) {
    const Error second = errorOf(std::string(kRing2) + "<algo ngpus=\"1\"/>\n");
    EXPECT_EQ(second.where().line, 15);
    EXPECT_EQ(second.where().column, 1);
    EXPECT_HAS(second.message(), "expected one root element, found <algo> after <algo>");
    const Error text = errorOf("<algo ngpus=\"0\"/>\ntrailing words");
    EXPECT_HAS(text.message(), "expected only the root element, found text");
    EXPECT_HAS(errorOf("  <!-- only a comment -->  ").message(),
               "expected the root element <algo>, found none");
    const Error wrongRoot = errorOf("\n<algorithm ngpus=\"1\"/>");
    EXPECT_EQ(wrongRoot.where().line, 2);
    EXPECT_HAS(wrongRoot.message(), "expected the root element <algo>, found <algorithm>");
}

TEST(MscclXml, AttributeErrorsNameTheElementAndKey) {
    const Error missing =
        errorOf("<algo ngpus=\"1\">\n  <gpu id=\"0\" i_chunks=\"1\">\n    <tb id=\"0\"/>\n"
                "  </gpu>\n</algo>");
    EXPECT_EQ(missing.kind(), ErrorKind::Validation);
    EXPECT_EQ(missing.where().line, 3);
    EXPECT_EQ(missing.where().column, 5);
    EXPECT_EQ(missing.where().keyPath, "tb.send");
    EXPECT_HAS(missing.message(), "<tb> has no attribute send");
    const Error notInteger = errorOf("<algo ngpus=\"two\"/>");
    EXPECT_EQ(notInteger.where().keyPath, "algo.ngpus");
    EXPECT_HAS(notInteger.message(), "should be an integer, found \"two\"");
    const Error badType = errorOf(
        "<algo ngpus=\"1\"><gpu id=\"0\" i_chunks=\"1\"><tb id=\"0\" send=\"-1\" recv=\"-1\" "
        "chan=\"0\">\n<step s=\"0\" type=\"x\" cnt=\"1\" depid=\"-1\" "
        "deps=\"-1\"/></tb></gpu></algo>");
    EXPECT_EQ(badType.where().line, 2);
    EXPECT_EQ(badType.where().keyPath, "step.type");
}

// The fuzzer's find: ngpus="22222222223" was cast to int (747 million) and sized the traces
// before any check, 65 GB. Counts are checked against the NPU limit before they size anything.
TEST(MscclXml, AGpuCountBeyondTheLimitIsRefusedBeforeAnythingIsSized) {
    for (const char* count : {"22222222223", "1048577", "0", "-3"}) {
        const Error e = errorOf(std::string("<algo name=\"x\" ngpus=\"") + count +
                                "\" coll=\"allreduce\">\n</algo>\n");
        EXPECT_EQ(e.kind(), ErrorKind::Validation);
        EXPECT_EQ(e.where().keyPath, "algo.ngpus");
        EXPECT_EQ(e.where().line, 1);
        EXPECT_HAS(e.message(), std::string("expected 1 to 1048576 GPUs in ngpus, found ") + count);
    }
}
