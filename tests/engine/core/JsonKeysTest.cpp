// Keys given twice in one JSON object (core/JsonKeys.h): found with both lines, and only there.
#include "core/JsonKeys.h"

#include "core/Error.h"

#include <gtest/gtest.h>
#include <string>

using namespace astrolabe;

TEST(JsonKeys, AKeyRepeatedInOneObjectIsFoundWithBothLines) {
    const auto repeats = repeatedJsonKeys("{\n  \"a\": 1,\n  \"b\": {\"a\": 2},\n  \"a\": 3\n}");
    ASSERT_EQ(repeats.size(), 1u);
    EXPECT_EQ(repeats[0].key, "a");
    EXPECT_EQ(repeats[0].firstLine, 2);
    EXPECT_EQ(repeats[0].line, 4);
    EXPECT_EQ(repeats[0].column, 3);
    EXPECT_EQ(repeatedJsonKeyMessage(repeats[0]),
              "the key \"a\" is given twice in one object, on lines 2 and 4");
}

// The same key in sibling objects, in nested objects, as a value, or inside strings holding
// braces, commas and escaped quotes is no repeat.
TEST(JsonKeys, WhatIsNotARepeatIsNotReported) {
    EXPECT_TRUE(repeatedJsonKeys(R"([{"id": 1, "x": 2}, {"id": 2, "x": 3}])").empty());
    EXPECT_TRUE(repeatedJsonKeys(R"({"id": {"id": {"id": 1}}})").empty());
    EXPECT_TRUE(repeatedJsonKeys(R"({"name": "name", "v": ["name", "name"]})").empty());
    EXPECT_TRUE(repeatedJsonKeys(R"({"s": "{\"s\": 1, \"s\": 2}", "t": "a,\"s\":"})").empty());
    EXPECT_TRUE(repeatedJsonKeys("").empty());
    EXPECT_TRUE(repeatedJsonKeys("{\"unterminated").empty());
}

// An object of thousands of keys (a map of groups) is searched by hash; a repeat at its end is
// still found, and a repeat in each of two objects is reported twice, in text order.
TEST(JsonKeys, LargeObjectsAndSeveralRepeats) {
    std::string text = "{";
    for (int i = 0; i < 5000; ++i)
        text += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ",";
    text += "\"k17\": 0}";
    auto repeats = repeatedJsonKeys(text);
    ASSERT_EQ(repeats.size(), 1u);
    EXPECT_EQ(repeats[0].key, "k17");
    repeats = repeatedJsonKeys("[{\"x\": 1, \"x\": 2}, {\"y\": 1, \"y\": 2}]");
    ASSERT_EQ(repeats.size(), 2u);
    EXPECT_EQ(repeats[0].key, "x");
    EXPECT_EQ(repeats[1].key, "y");
    EXPECT_EQ(repeatedJsonKeys("[{\"x\": 1, \"x\": 2}, {\"y\": 1, \"y\": 2}]", 1).size(), 1u);
}

TEST(JsonKeys, TheRefusalNamesTheFileLineAndKey) {
    try {
        refuseRepeatedJsonKeys("{\"runtime\": 5, \"runtime\": 999999}", "n.0.et");
        FAIL() << "accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().file, "n.0.et");
        EXPECT_EQ(e.where().line, 1);
        EXPECT_EQ(e.where().keyPath, "runtime");
        EXPECT_NE(std::string(e.what()).find("is given twice in one object, both on line 1"),
                  std::string::npos)
            << e.what();
    }
}
