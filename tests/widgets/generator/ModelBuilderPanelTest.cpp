// Model builder panel: presets fill the form, figures follow every edit, invalid input shows
// the error with its key path, and a screenshot for eyeballing the layout.
#include "generator/ModelBuilderPanel.h"

#include "generate/GeneratorSettings.h"
#include "generate/ModelPresets.h"
#include "generator/GeneratorPresentation.h"
#include "generator/MemoryBar.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHash>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <gtest/gtest.h>

using astrolabe::widgets::ModelBuilderPanel;

namespace {

QString screenshotPath(const QString& name) {
    QDir().mkpath(QStringLiteral("screenshots"));
    return QDir(QStringLiteral("screenshots")).absoluteFilePath(name);
}

/// The index-th spin box of the form, in creation order (0 = layers).
QSpinBox* spin(ModelBuilderPanel& panel, int index) {
    return panel.findChildren<QSpinBox*>().at(index);
}

} // namespace

TEST(ModelBuilderPanel, PresetFillsTheFormAndFigures) {
    ModelBuilderPanel panel;
    ASSERT_TRUE(panel.applyPreset(QStringLiteral("llama2-70b")));
    EXPECT_TRUE(panel.figuresValid());
    // Llama-2 70B: 68,976,648,192 parameters -> "68.98 B".
    EXPECT_TRUE(panel.figuresText().contains(QStringLiteral("68.98 B")))
        << panel.figuresText().toStdString();
    EXPECT_EQ(panel.spec().model.kvHeads, 8);
    EXPECT_EQ(panel.spec().parallel.tp, 8);
    EXPECT_FALSE(panel.applyPreset(QStringLiteral("no-such-model")));
    // The bar shows the same breakdown as the text: ZeRO-1 optimizer states are 12 bytes per
    // parameter over dp = 32, weights 2 bytes, so optimizer = weights x 6 / 32.
    const auto& segments = panel.memoryBar()->segments();
    ASSERT_EQ(segments.size(), 4);
    EXPECT_NEAR(segments[2].bytes / segments[0].bytes, 6.0 / 32, 1e-9);
    EXPECT_DOUBLE_EQ(panel.memoryBar()->capacity(), 80.0 * (1 << 30));
}

TEST(ModelBuilderPanel, FiguresFollowEdits) {
    ModelBuilderPanel panel;
    ASSERT_TRUE(panel.applyPreset(QStringLiteral("gpt3-175b")));
    QSignalSpy changed(&panel, &ModelBuilderPanel::specChanged);
    const QString before = panel.figuresText();
    EXPECT_TRUE(before.contains(QStringLiteral("96 B s l h^2")));

    // Turn recomputation off through the spec round trip and check the formula switches.
    auto s = panel.spec();
    s.parallel.recompute = false;
    panel.setSpec(s);
    EXPECT_TRUE(panel.figuresText().contains(QStringLiteral("72 B s l h^2")));
    EXPECT_TRUE(panel.outOfMemory()); // 96 layers of activations in flight on stage 0
    EXPECT_GT(panel.memoryBar()->total(), panel.memoryBar()->capacity());
    EXPECT_GE(changed.count(), 1);

    // TP 7 does not divide 96 heads: the figures become the error with its key path.
    s = panel.spec();
    s.parallel.tp = 7;
    panel.setSpec(s);
    EXPECT_FALSE(panel.figuresValid());
    EXPECT_TRUE(panel.figuresText().contains(QStringLiteral("model.heads")));
    EXPECT_TRUE(panel.memoryBar()->segments().isEmpty());
    s.parallel.tp = 8;
    panel.setSpec(s);
    EXPECT_TRUE(panel.figuresValid());
}

TEST(ModelBuilderPanel, TypingInASpinBoxUpdatesTheFigures) {
    ModelBuilderPanel panel;
    ASSERT_TRUE(panel.applyPreset(QStringLiteral("gpt3-175b")));
    // The first spin box of the form is the layer count.
    QSpinBox* layers = spin(panel, 0);
    ASSERT_EQ(layers->value(), 96);
    layers->setValue(48);
    EXPECT_EQ(panel.spec().model.layers, 48);
    // 12 l h^2 with half the layers: about 87.6 B parameters.
    EXPECT_TRUE(panel.figuresText().contains(QStringLiteral("87.")))
        << panel.figuresText().toStdString();
}

TEST(ModelBuilderPanel, GenerateButtonHandsOverTheSpec) {
    ModelBuilderPanel panel;
    ASSERT_TRUE(panel.applyPreset(QStringLiteral("deepseek-v3")));
    QSignalSpy requested(&panel, &ModelBuilderPanel::generateRequested);
    QPushButton* button = nullptr;
    for (QPushButton* b : panel.findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Generate traces"))
            button = b;
    ASSERT_NE(button, nullptr);
    button->click();
    ASSERT_EQ(requested.count(), 1);
    const auto spec = requested.at(0).at(0).value<astrolabe::generate::GeneratorSpec>();
    // Fields the form does not show (MLA ranks) survive the round trip.
    EXPECT_EQ(spec.model.kvLoraRank, 512);
    EXPECT_EQ(spec.parallel.ep, 64);
    // An invalid configuration disables the button.
    auto s = panel.spec();
    s.parallel.ep = 3;
    panel.setSpec(s);
    EXPECT_FALSE(button->isEnabled());
}

// A preset change touches only the fields the user has not edited: edit the layers of GPT-2
// 124M, choose GPT-2 350M, and the layers stay while the hidden size becomes 350M's 1,024. The
// model is then no longer GPT-2 350M, and its name says so. Reset to preset forgets the edit.
TEST(ModelBuilderPanel, PresetChangeKeepsTheUsersEdits) {
    ModelBuilderPanel panel;
    ASSERT_TRUE(panel.applyPreset(QStringLiteral("gpt2-124m")));
    EXPECT_EQ(panel.spec().model.name, "GPT-2 124M");
    QSignalSpy edited(&panel, &ModelBuilderPanel::fieldEdited);
    spin(panel, 0)->setValue(6); // the layers, as typed by the user
    EXPECT_EQ(panel.touchedFields(), QStringList{QStringLiteral("Layers")});
    EXPECT_EQ(panel.spec().model.name, "custom (from GPT-2 124M)");

    // Choosing the preset in the combo box, as the user does.
    auto* preset = panel.findChildren<QComboBox*>().at(0);
    ASSERT_EQ(preset->currentText(), QStringLiteral("gpt2-124m"));
    preset->setCurrentText(QStringLiteral("gpt2-350m"));
    EXPECT_EQ(edited.last().at(0).toString(), QStringLiteral("Model"));
    const auto mixed = panel.spec();
    EXPECT_EQ(mixed.model.layers, 6);    // the user's
    EXPECT_EQ(mixed.model.hidden, 1024); // the preset's
    EXPECT_EQ(mixed.model.heads, 16);    // the preset's
    EXPECT_EQ(mixed.model.name, "custom (from GPT-2 350M)");
    EXPECT_TRUE(panel.figuresValid()) << panel.figuresText().toStdString();

    QPushButton* reset = nullptr;
    for (QPushButton* b : panel.findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Reset to preset"))
            reset = b;
    ASSERT_NE(reset, nullptr);
    reset->click();
    EXPECT_TRUE(panel.touchedFields().isEmpty());
    EXPECT_EQ(panel.spec().model.layers, 24);
    EXPECT_EQ(panel.spec().model.name, "GPT-2 350M");
    // Without edits a preset change replaces everything.
    preset->setCurrentText(QStringLiteral("llama3.2-1b"));
    EXPECT_EQ(panel.spec().model.layers, 16);
    EXPECT_EQ(panel.spec().model.kvHeads, 8);
    // A spec set by code is a model of its own and touches nothing.
    auto s = panel.spec();
    s.model.name = "mine";
    s.model.layers = 4;
    panel.setSpec(s);
    EXPECT_EQ(panel.spec().model.name, "mine");
    EXPECT_TRUE(panel.touchedFields().isEmpty());
}

// The builder follows the platform: a new NPU count refits tp x pp x dp, keeping tp and pp
// while they divide it, and the figures say whether the split fits the platform.
TEST(ModelBuilderPanel, ParallelismFollowsThePlatform) {
    ModelBuilderPanel panel;
    ASSERT_TRUE(panel.applyPreset(QStringLiteral("gpt2-350m"))); // t2 p2 d2
    panel.setPlatformNpus(32);
    auto p = panel.spec().parallel;
    EXPECT_EQ(p.tp, 2);
    EXPECT_EQ(p.pp, 2);
    EXPECT_EQ(p.dp, 8);
    EXPECT_TRUE(panel.figuresText().contains(QStringLiteral("fits the platform's 32 NPUs")))
        << panel.figuresText().toStdString();

    // A preset chosen afterwards is fitted too: OLMoE keeps tp 1 pp 1 and ep 8 within dp 32.
    ASSERT_TRUE(panel.applyPreset(QStringLiteral("olmoe-1b-7b")));
    p = panel.spec().parallel;
    EXPECT_EQ(p.npus(), 32);
    EXPECT_EQ(p.ep, 8);
    EXPECT_TRUE(panel.figuresText().contains(QStringLiteral("fits the platform's 32 NPUs")));

    // A split the user sets against the platform is shown as not fitting.
    auto s = panel.spec();
    s.parallel.dp = 16;
    panel.setSpec(s);
    EXPECT_TRUE(
        panel.figuresText().contains(QStringLiteral("needs 16 NPUs but the platform has 32")))
        << panel.figuresText().toStdString();
    // The same count again is not a new platform: the user's split stays.
    panel.setPlatformNpus(32);
    EXPECT_EQ(panel.spec().parallel.dp, 16);
    panel.setPlatformNpus(1);
    EXPECT_EQ(panel.spec().parallel.npus(), 1);
    EXPECT_TRUE(panel.figuresText().contains(QStringLiteral("fits the platform's 1 NPU")));

    // A preset published for 1,024 NPUs: GPT-3 on 8 NPUs cannot fit in memory; the fit still
    // uses exactly 8 and says why.
    ModelBuilderPanel big;
    ASSERT_TRUE(big.applyPreset(QStringLiteral("gpt3-175b")));
    big.setPlatformNpus(8);
    EXPECT_EQ(big.spec().parallel.npus(), 8);
    EXPECT_TRUE(big.fitReason().contains(QStringLiteral("fits in memory")))
        << big.fitReason().toStdString();
}

TEST(ModelBuilderPanel, Screenshot) {
    ModelBuilderPanel panel;
    panel.resize(1100, 760);
    ASSERT_TRUE(panel.applyPreset(QStringLiteral("mixtral-8x7b")));
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    const QString path = screenshotPath(QStringLiteral("model-builder.png"));
    ASSERT_TRUE(panel.grab().save(path)) << path.toStdString();
    EXPECT_GT(QFileInfo(path).size(), 1000);

    // Out of memory: GPT-3 without recomputation overshoots the HBM line.
    ASSERT_TRUE(panel.applyPreset(QStringLiteral("gpt3-175b")));
    auto s = panel.spec();
    s.parallel.recompute = false;
    panel.setSpec(s);
    ASSERT_TRUE(panel.outOfMemory());
    const QString oom = screenshotPath(QStringLiteral("model-builder-oom.png"));
    ASSERT_TRUE(panel.grab().save(oom)) << oom.toStdString();
}

// The form is derived from the generator's settings table: one labelled field per setting the
// builder shows, with the declared range and tooltip; every transformer preset survives the
// round trip (DLRM and ResNet leave the transformer fields at their minimum, disabled).
TEST(ModelBuilderPanel, FieldsComeFromTheGeneratorSettingsTable) {
    using namespace astrolabe::generate;
    ModelBuilderPanel panel;
    QHash<QString, QWidget*> byLabel;
    for (QFormLayout* form : panel.findChildren<QFormLayout*>())
        for (int row = 0; row < form->rowCount(); ++row)
            if (auto* label =
                    qobject_cast<QLabel*>(form->itemAt(row, QFormLayout::LabelRole)
                                              ? form->itemAt(row, QFormLayout::LabelRole)->widget()
                                              : nullptr))
                if (QLayoutItem* field = form->itemAt(row, QFormLayout::FieldRole))
                    byLabel.insert(label->text(), field->widget());
    for (const GeneratorSetting& s : generatorSettings()) {
        const astrolabe::widgets::GeneratorFieldLook look =
            astrolabe::widgets::generatorFieldLook(s);
        QWidget* field = byLabel.value(QString::fromStdString(s.label));
        EXPECT_EQ(field != nullptr, look.inBuilder) << s.path;
        if (!field)
            continue;
        EXPECT_EQ(field->toolTip().toStdString(), look.tip) << s.path;
        if (auto* box = qobject_cast<QSpinBox*>(field)) {
            // Sizes are edited in whole MiB.
            const int shift = s.type == astrolabe::settings::Type::Quantity ? 20 : 0;
            EXPECT_EQ(box->minimum(), int(int64_t(s.minimum) >> shift)) << s.path;
            EXPECT_EQ(box->maximum(), int(int64_t(s.maximum) >> shift)) << s.path;
        }
        if (auto* combo = qobject_cast<QComboBox*>(field)) {
            EXPECT_EQ(combo->count(), int(s.choices.size())) << s.path;
        }
    }
    for (const std::string& name : presetNames()) {
        ASSERT_TRUE(panel.applyPreset(QString::fromStdString(name)));
        const GeneratorSpec preset = presetSpec(name);
        if (preset.model.kind != ModelKind::Transformer)
            continue;
        for (const GeneratorSetting& s : generatorSettings())
            EXPECT_EQ(s.get(panel.spec()), s.get(preset)) << name << " " << s.path;
    }
}

// The accelerator picked by name fills the Compute fields from the library (H100 SXM: dense
// BF16 1,979 / 2 TFLOP/s, 3,350 GB/s, 80 GB) and a later preset keeps them; an edit overrides.
TEST(ModelBuilderPanel, AcceleratorByNameFillsTheComputeFields) {
    ModelBuilderPanel panel;
    ASSERT_TRUE(panel.applyPreset(QStringLiteral("gpt3-175b")));
    EXPECT_DOUBLE_EQ(panel.spec().compute.peakTflops, 312); // the preset's A100
    EXPECT_FALSE(panel.setAccelerator(QStringLiteral("v100")));
    ASSERT_TRUE(panel.setAccelerator(QStringLiteral("h100")));
    EXPECT_EQ(panel.accelerator(), QStringLiteral("h100"));
    EXPECT_NEAR(panel.spec().compute.peakTflops, 989.5, 0.05);
    EXPECT_NEAR(panel.spec().compute.hbmGBps, 3350, 0.5);
    EXPECT_NEAR(panel.spec().compute.hbmCapacityGiB, 81559.0 / 1024, 1.0); // whole GiB shown
    ASSERT_TRUE(panel.applyPreset(QStringLiteral("llama2-70b")));
    EXPECT_NEAR(panel.spec().compute.peakTflops, 989.5, 0.05);
    ASSERT_TRUE(panel.setAccelerator(QStringLiteral("mi300x")));
    EXPECT_NEAR(panel.spec().compute.peakTflops, 1307.4, 0.05);
    EXPECT_NEAR(panel.spec().compute.hbmGBps, 5300, 0.5);
}
