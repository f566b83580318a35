// The generator's settings table (generate/GeneratorSettings.h): complete, consistent with the
// spec it edits, and the source of docs/generator.md's table.
#include "generate/GeneratorSettings.h"

#include "TestPaths.h"
#include "core/InputFile.h"
#include "generate/ModelPresets.h"

#include <gtest/gtest.h>
#include <set>

namespace astrolabe::generate {
namespace {

const std::string kSourceDir = std::string(ASTROLABE_TEST_DATA_DIR) + "/../..";

TEST(GeneratorSettings, EverySettingIsDeclaredOnceAndComplete) {
    std::set<std::string> keys, flags;
    for (const GeneratorSetting& s : generatorSettings()) {
        EXPECT_TRUE(keys.insert(s.key).second) << s.key;
        EXPECT_TRUE(flags.insert(s.flag).second) << s.flag;
        EXPECT_FALSE(s.label.empty()) << s.key;
        EXPECT_FALSE(s.help.empty()) << s.key;
        EXPECT_TRUE(s.get && s.set) << s.key;
        if (s.type == GenType::Choice || s.type == GenType::Name) {
            EXPECT_FALSE(s.choices.empty()) << s.key;
        }
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
            EXPECT_EQ(s.get(copy), s.get(preset)) << name << " " << s.key;
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

// docs/generator.md's table is generated; this fails when it is stale.
TEST(GeneratorSettings, DocTableIsCurrent) {
    const std::string path = kSourceDir + "/docs/generator.md";
    const std::string doc = readInputFile(path, "the documentation page");
    EXPECT_NE(doc.find("<!-- settings-table: generator -->"), std::string::npos);
    EXPECT_TRUE(updateGeneratorDocTable(doc) == doc)
        << "docs/generator.md's settings table is stale. Regenerate it with:\n"
           "    build/app/cli/astrolabe-cli settings --update-doc docs/generator.md";
}

} // namespace
} // namespace astrolabe::generate
