// The generator's settings table (generate/GeneratorSettings.h): complete, consistent with the
// spec it edits, and the source of docs/generator.md's table.
#include "generate/GeneratorSettings.h"

#include "TestPaths.h"
#include "core/Error.h"
#include "core/InputFile.h"
#include "generate/GeneratorValues.h"
#include "generate/ModelPresets.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

namespace astrolabe::generate {
namespace {

const std::string kSourceDir = std::string(ASTROLABE_TEST_DATA_DIR) + "/../..";

TEST(GeneratorSettings, EverySettingIsDeclaredOnceAndComplete) {
    std::set<std::string> keys, flags;
    for (const GeneratorSetting& s : generatorSettings()) {
        EXPECT_TRUE(keys.insert(s.path).second) << s.path;
        EXPECT_TRUE(flags.insert(s.flag).second) << s.flag;
        EXPECT_FALSE(s.label.empty()) << s.path;
        EXPECT_FALSE(s.help.empty()) << s.path;
        EXPECT_TRUE(s.get && s.set) << s.path;
        if (s.type == settings::Type::Enum) {
            EXPECT_FALSE(s.choices.empty()) << s.path;
        }
        // The schema's types only: a generator setting is a setting like the project's.
        EXPECT_NE(s.type, settings::Type::Custom) << s.path;
        EXPECT_NE(s.type, settings::Type::String) << s.path;
    }
}

// Writing back what a setting reads changes nothing: the builder's fields and the CLI's flags
// reproduce every preset exactly (so generated traces are the presets' own).
TEST(GeneratorSettings, ReadingAndWritingBackKeepsEveryPreset) {
    for (const std::string& name : presetNames()) {
        const GeneratorSpec preset = presetSpec(name);
        GeneratorSpec copy = preset;
        for (const GeneratorSetting& s : generatorSettings())
            s.set(copy, s.get(preset));
        EXPECT_EQ(copy.training.globalBatch, preset.training.globalBatch) << name;
        for (const GeneratorSetting& s : generatorSettings())
            EXPECT_EQ(s.get(copy), s.get(preset)) << name << " " << s.path;
    }
}

TEST(GeneratorSettings, MicroBatchesSetTheGlobalBatch) {
    GeneratorSpec spec = presetSpec("gpt3-175b");
    spec.training.microBatch = 2;
    spec.parallel.dp = 8;
    findGeneratorSetting("micro-batches").set(spec, int64_t{16});
    // global batch = micro-batches x micro-batch x dp = 16 x 2 x 8
    EXPECT_EQ(spec.training.globalBatch, 256);
    EXPECT_EQ(std::get<int64_t>(findGeneratorSetting("micro-batches").get(spec)), 16);
}

TEST(GeneratorSettings, ValuesAreSpelledAsTheCliTakesThem) {
    const GeneratorSpec spec = presetSpec("gpt3-175b");
    EXPECT_EQ(generatorValueText(findGeneratorSetting("bucket"), int64_t{25} << 20), "25 MiB");
    EXPECT_EQ(generatorValueText(findGeneratorSetting("efficiency"), 0.6), "0.6");
    EXPECT_EQ(generatorValueText(findGeneratorSetting("sp"), true), "true");
    EXPECT_EQ(generatorValueText(findGeneratorSetting("schedule"),
                                 findGeneratorSetting("schedule").get(spec)),
              pipelineScheduleName(spec.parallel.schedule));
}

// A flag that changes the model's shape makes another model, named as the GUI's builder names it;
// the parallel layout, the precision and the training options do not.
TEST(GeneratorSettings, AFlagThatChangesTheShapeRenamesThePreset) {
    EXPECT_EQ(generatorSpecFrom("gpt3-175b", {{"layers", "32"}}).model.name,
              "custom (from GPT-3 175B)");
    const GeneratorSpec untied = generatorSpecFrom("gpt3-175b", {{"tied-embeddings", "false"}});
    EXPECT_FALSE(untied.model.tiedEmbeddings);
    EXPECT_EQ(untied.model.name, "custom (from GPT-3 175B)");
    EXPECT_EQ(generatorSpecFrom("gpt3-175b", {{"tp", "4"}, {"fp32-gradients", "true"}}).model.name,
              "GPT-3 175B");
}

// docs/generator.md's table is generated; this fails when it is stale.
TEST(GeneratorSettings, DocTableIsCurrent) {
    const std::string path = kSourceDir + "/docs/generator.md";
    const std::string doc = readInputFile(path, "the documentation page");
    EXPECT_NE(doc.find("<!-- settings-table: generator -->"), std::string::npos);
    EXPECT_TRUE(updateGeneratorDocTable(doc) == doc)
        << "docs/generator.md's settings table is stale. Regenerate it with:\n"
           "    build/app/cli/astrolabe-cli settings --update-doc docs/generator.md";
}

// Counts are held to the table's range (the builder's spin boxes) on every path, not truncated to
// int: --layers=4294967297 used to be 1 layer, --npus=4294967304 8 NPUs.
TEST(GeneratorSettings, CountsOutsideTheTableRangeAreRefusedNotTruncated) {
    const std::pair<const char*, const char*> cases[] = {
        {"layers", "4294967297"},        {"layers", "0"}, {"layers", "100001"},
        {"micro-batches", "2147483647"}, {"tp", "-8"},    {"global-batch", "2147483648"},
        {"npus", "4294967304"},          {"npus", "0"},   {"bytes", "3"},
    };
    for (const auto& [flag, text] : cases) {
        try {
            (void)generatorSpecFrom("gpt2-124m", {{flag, text}});
            ADD_FAILURE() << flag << "=" << text << " was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.where().keyPath, flag) << e.what();
            std::string found = "found \"";
            found += text;
            EXPECT_NE(e.message().find(found), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(generatorSpecFrom("gpt2-124m", {{"layers", "100000"}}).model.layers, 100000);
}

// Micro-batches set the global batch; a product past what it holds is said in the numbers
// the user typed.
TEST(GeneratorSettings, MicroBatchesPastTheLargestGlobalBatchNameTheProduct) {
    try {
        generatorSpecFrom("gpt2-124m",
                          {{"micro-batch", "1048576"}, {"micro-batches", "1000000"}, {"dp", "8"}});
        ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().keyPath, "training.microBatches");
        EXPECT_NE(e.message().find("1000000 x 1048576 x 8 = 8388608000000 sequences"),
                  std::string::npos)
            << e.what();
    }
    // A product that fits is taken whole: 2^20 x 1 x 2047 = 2,146,435,072.
    EXPECT_EQ(generatorSpecFrom(
                  "gpt2-124m", {{"micro-batch", "1"}, {"micro-batches", "1048576"}, {"dp", "2047"}})
                  .training.globalBatch,
              2'146'435'072);
}

// Work per NPU is bounded by layer passes (layers per stage x micro-batches): a global batch of
// 2^31 - 1 single-sequence micro-batches used to end in std::bad_alloc, 2^31 layers in a hang.
TEST(GeneratorSettings, LayerPassesPerNpuAreBounded) {
    const std::map<std::string, std::string> over[] = {
        {{"global-batch", "2147483647"}, {"micro-batch", "1"}, {"dp", "1"}},
        {{"layers", "100000"}, {"pp", "1"}, {"micro-batches", "11"}},
        {{"layers", "1000"}, {"pp", "1"}, {"micro-batches", "1001"}},
    };
    for (const auto& values : over) {
        try {
            validate(generatorSpecFrom("gpt2-124m", values));
            ADD_FAILURE() << "accepted";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("expected at most 1000000 layer passes per NPU"),
                      std::string::npos)
                << e.what();
        }
    }
    // 1,000 layers x 1,000 micro-batches is exactly the limit.
    const GeneratorSpec at = generatorSpecFrom(
        "gpt2-124m", {{"layers", "1000"}, {"pp", "1"}, {"micro-batches", "1000"}});
    EXPECT_EQ(int64_t{at.model.layers} * at.microBatches(), kMaxLayerPassesPerRank);
    try {
        validate(at);
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()).find("layer passes"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace astrolabe::generate
