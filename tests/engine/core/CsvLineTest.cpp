// One CSV line as a spreadsheet writes it (core/CsvLine.h).
#include "core/CsvLine.h"

#include <gtest/gtest.h>

using namespace astrolabe;

namespace {

std::vector<std::string> texts(const CsvLine& line) {
    std::vector<std::string> out;
    for (const CsvField& f : line.fields)
        out.push_back(f.text);
    return out;
}

using Strings = std::vector<std::string>;

} // namespace

TEST(CsvLine, SplitsAtCommasOutsideQuotesAndTrimsBlanks) {
    EXPECT_EQ(texts(splitCsvLine("npu0, npu1 ,50 GB/s,\t1 us\r")),
              (Strings{"npu0", "npu1", "50 GB/s", "1 us"}));
    EXPECT_EQ(texts(splitCsvLine("\"npu0\",\"npu1\",\"50 GB/s\",\"1 us\"")),
              (Strings{"npu0", "npu1", "50 GB/s", "1 us"}));
    // Inside quotes a comma is text and "" is one quote; blanks inside are kept.
    EXPECT_EQ(texts(splitCsvLine("\"a, b\", \"say \"\"hi\"\"\" ,\" c \"")),
              (Strings{"a, b", "say \"hi\"", " c "}));
    // Empty fields, also the last after a trailing comma.
    EXPECT_EQ(texts(splitCsvLine("a,,b,")), (Strings{"a", "", "b", ""}));
    EXPECT_EQ(texts(splitCsvLine("")), (Strings{""}));
    EXPECT_EQ(texts(splitCsvLine("\"\"")), (Strings{""}));
    // A quote inside an unquoted field is text (as spreadsheets read it).
    EXPECT_EQ(texts(splitCsvLine("5\" disk,x")), (Strings{"5\" disk", "x"}));
}

TEST(CsvLine, ColumnsAreWhereEachFieldStarts) {
    const CsvLine line = splitCsvLine("a, \"b\",  c");
    ASSERT_EQ(line.fields.size(), 3u);
    EXPECT_EQ(line.fields[0].column, 1);
    EXPECT_EQ(line.fields[1].column, 4);
    EXPECT_EQ(line.fields[2].column, 10);
}

TEST(CsvLine, AnUnclosedQuoteOrTextAfterAClosingOneIsAProblemAtItsColumn) {
    CsvLine line = splitCsvLine("npu0,\"npu1,50 GB/s");
    EXPECT_EQ(line.problem, "a quote opened here is not closed on this line");
    EXPECT_EQ(line.problemColumn, 6);
    line = splitCsvLine("\"npu0\"x,npu1");
    EXPECT_EQ(line.problem, "expected a comma after the closing quote");
    EXPECT_EQ(line.problemColumn, 7);
    EXPECT_TRUE(splitCsvLine("\"a\" ,b").problem.empty());
}
