// Adding a setting is one schema entry: a synthetic setting declared in a test-only group, with
// no other code, round-trips through the project file (written, then read), through a GUI editor
// built from its declaration (label, tooltip, unit box, range), and into the comparison rows.
#include "config/ConfigSection.h"
#include "config/QuantityEdit.h"
#include "config/SettingEditor.h"
#include "project/ProjectReading.h"
#include "schema/SchemaProject.h"

#include <QLabel>
#include <QLineEdit>
#include <gtest/gtest.h>
#include <sstream>

using namespace astrolabe;

namespace {

// The one declaration. Its storage is the remote-memory latency (not yet a schema setting).
const settings::Group& testGroup() {
    static const settings::Group group = [] {
        settings::Setting s;
        s.path = "test.synthetic-latency";
        s.type = settings::Type::Quantity;
        s.unit = settings::Unit::Nanoseconds;
        s.compat = settings::Compat::ProjectOnly;
        s.minimum = 0;
        s.maximum = 1e6;
        s.label = "Synthetic latency";
        s.shortLabel = "synthetic latency";
        s.help = "A setting that exists only in this test.";
        s.compareKey = "test.latency";
        s.get = [](const SimulationSpec& spec) -> settings::Value {
            return static_cast<double>(spec.memory.latencyNs);
        };
        s.set = [](SimulationSpec& spec, const settings::Value& v) {
            spec.memory.latencyNs = static_cast<uint64_t>(std::get<double>(v));
        };
        widgets::setPresentation(s.path, {widgets::SettingPage::TestOnly});
        return settings::Group{"test", "Test only", {s}};
    }();
    return group;
}

SimulationSpec readBack(const std::string& text) {
    config::Diagnostics diagnostics("t.yaml");
    config::ProjectContext context{diagnostics, "/", nullptr};
    const YAML::Node root = config::parseYamlText(text, "t.yaml");
    SimulationSpec spec;
    settings::readProjectGroup(context, root["test"], testGroup(), spec);
    diagnostics.throwIfErrors();
    return spec;
}

} // namespace

TEST(SyntheticSetting, RoundTripsThroughTheProjectFile) {
    SimulationSpec spec;
    spec.memory.latencyNs = 250;
    std::ostringstream out;
    out << "test:\n";
    settings::writeProjectGroup(out, testGroup(), spec, [](const std::string& p) { return p; });
    EXPECT_EQ(out.str(), "test:\n  synthetic-latency: 250 ns\n");
    EXPECT_EQ(readBack(out.str()).memory.latencyNs, 250u);
    EXPECT_EQ(readBack("test:\n  synthetic-latency: 2 us\n").memory.latencyNs, 2000u);
    try {
        readBack("test:\n  synthetic-latency: 2 s\n");
        FAIL() << "out of range";
    } catch (const ErrorList& e) {
        EXPECT_NE(std::string(e.what()).find(
                      "test.synthetic-latency: expected at most 1e+06 ns, found 2e+09"),
                  std::string::npos)
            << e.what();
    }
}

TEST(SyntheticSetting, HasAGuiEditorBuiltFromItsDeclaration) {
    widgets::ConfigSection section(QStringLiteral("Test"));
    SimulationSpec spec;
    spec.memory.latencyNs = 250;
    QObject::connect(&section, &widgets::ConfigSection::editRequested,
                     [&spec](const widgets::SpecEdit& edit) { edit.apply(spec); });
    widgets::addSettingEditors(&section, testGroup(), widgets::SettingPage::TestOnly);
    section.setSpec(spec);

    auto* edit = qobject_cast<widgets::QuantityEdit*>(
        section.editorForKey(QStringLiteral("test.synthetic-latency")));
    ASSERT_NE(edit, nullptr);
    EXPECT_EQ(edit->kind(), widgets::QuantityEdit::Kind::Time);
    EXPECT_TRUE(
        edit->toolTip().startsWith(QStringLiteral("A setting that exists only in this test.")));
    EXPECT_EQ(edit->text(), QStringLiteral("250 ns"));
    bool labelled = false;
    for (QLabel* label : section.findChildren<QLabel*>())
        labelled = labelled || label->text() == QStringLiteral("Synthetic latency");
    EXPECT_TRUE(labelled);

    edit->setTextAsTyped(QStringLiteral("3 us"));
    EXPECT_EQ(spec.memory.latencyNs, 3000u);
    edit->setTextAsTyped(QStringLiteral("5 ms")); // above the declared maximum: refused
    EXPECT_FALSE(edit->isValid());
    EXPECT_EQ(spec.memory.latencyNs, 3000u);
}

TEST(SyntheticSetting, IsAComparisonRow) {
    SimulationSpec spec;
    spec.memory.latencyNs = 1500;
    const std::vector<settings::CompareRow> rows = settings::compareRows(testGroup(), spec);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].key, "test.latency");
    EXPECT_EQ(rows[0].label, "synthetic latency");
    EXPECT_EQ(rows[0].text, "1500 ns");
    EXPECT_EQ(rows[0].numeric, 1500.0);
}
