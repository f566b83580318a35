// The configuration panel shows a spec, turns typing into edits (never changing the spec
// itself), validates as you type, marks what changed since the last run, and finds a field
// from an error's key path.
#include "config/ConfigurationPanel.h"

#include "config/ConfigSection.h"
#include "config/QuantityEdit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
SimulationSpec sampleSpec() {
    SimulationSpec spec;
    spec.platform.dimensions = {DimensionSpec{BlockKind::Ring, 8, 50e9, 500}};
    spec.system.preferredDatasetSplits = 4;
    spec.system.allReduce = {AlgorithmSpec{AlgorithmKind::Ring, 0}};
    spec.system.endpointDelayNs = 10;
    spec.system.localMemBandwidthGBps = 50;
    spec.workload.kind = WorkloadSource::Kind::Microbenchmark;
    spec.workload.microbenchmark.sizeBytes = 1 << 20;
    return spec;
}

// Applies every requested edit to `spec` and shows it again, as the application does.
struct Harness {
    ConfigurationPanel panel;
    SimulationSpec spec = sampleSpec();
    int edits = 0;
    Harness() {
        QObject::connect(&panel, &ConfigurationPanel::editRequested, [this](const SpecEdit& e) {
            e.apply(spec);
            ++edits;
            panel.setSpec(spec);
        });
        panel.setSpec(spec);
    }
};
} // namespace

TEST(ConfigurationPanel, ShowsTheSpecAndFindsFieldsByKeyPath) {
    Harness h;
    auto* splits = qobject_cast<QSpinBox*>(h.panel.editorForKey(QStringLiteral("system.chunks")));
    ASSERT_NE(splits, nullptr);
    EXPECT_EQ(splits->value(), 4);
    // ASTRA-sim's key, a nested project path and an indexed path all find their fields.
    EXPECT_EQ(h.panel.editorForKey(QStringLiteral("preferred-dataset-splits")), splits);
    EXPECT_NE(h.panel.editorForKey(QStringLiteral("project.system.all-reduce[1]")), nullptr);
    EXPECT_EQ(h.panel.editorForKey(QStringLiteral("platform.dimensions[0].size")), nullptr);
    auto* ar =
        qobject_cast<QLineEdit*>(h.panel.editorForKey(QStringLiteral("all-reduce-implementation")));
    ASSERT_NE(ar, nullptr);
    EXPECT_EQ(ar->text(), QStringLiteral("ring"));
    auto* size = qobject_cast<QuantityEdit*>(
        h.panel.editorForKey(QStringLiteral("workload.microbenchmark.size")));
    ASSERT_NE(size, nullptr);
    EXPECT_EQ(size->text(), QStringLiteral("1 MiB"));
    EXPECT_TRUE(size->isEnabled());
    // The quick start gives no peak compute: "not set", not a GPU of 0.0 TFLOP/s.
    auto* peak =
        qobject_cast<QDoubleSpinBox*>(h.panel.editorForKey(QStringLiteral("system.peak-perf")));
    ASSERT_NE(peak, nullptr);
    EXPECT_EQ(peak->text(), QStringLiteral("not set"));
    EXPECT_FALSE(h.panel.editorForKey(QStringLiteral("workload.trace"))->isEnabled())
        << "the trace prefix does not apply to a microbenchmark";
    EXPECT_FALSE(h.panel.editorForKey(QStringLiteral("memory.latency"))->isEnabled())
        << "no remote memory, so its latency is disabled";
    EXPECT_FALSE(h.panel.focusKey(QStringLiteral("nonsense.key")));
}

TEST(ConfigurationPanel, EveryFieldExplainsItself) {
    ConfigurationPanel panel;
    int fields = 0;
    for (ConfigSection* section : panel.sections())
        for (QLabel* label : section->findChildren<QLabel*>()) {
            QWidget* editor = label->buddy();
            if (!editor)
                continue;
            ++fields;
            EXPECT_GT(editor->toolTip().size(), 40) << label->text().toStdString();
        }
    EXPECT_GE(fields, 25);
    const QString endpoint = panel.editorForKey(QStringLiteral("endpoint-delay"))->toolTip();
    EXPECT_TRUE(endpoint.contains(QStringLiteral("every message"))) << endpoint.toStdString();
    const QString active =
        panel.editorForKey(QStringLiteral("active-chunks-per-dimension"))->toolTip();
    EXPECT_TRUE(active.contains(QStringLiteral("at the same time"))) << active.toStdString();
}

TEST(ConfigurationPanel, TypingValidatesAndRequestsEdits) {
    Harness h;
    auto* ar = qobject_cast<QLineEdit*>(h.panel.editorForKey(QStringLiteral("system.all-reduce")));
    ASSERT_NE(ar, nullptr);
    ar->selectAll();
    QTest::keyClicks(ar, QStringLiteral("ring, direct4"));
    ASSERT_EQ(h.spec.system.allReduce.size(), 2u);
    EXPECT_EQ(h.spec.system.allReduce[1], (AlgorithmSpec{AlgorithmKind::Direct, 4}));
    EXPECT_EQ(ar->text(), QStringLiteral("ring, direct4")) << "text being typed is kept";

    const int before = h.edits;
    ar->selectAll();
    QTest::keyClicks(ar, QStringLiteral("ring, warp"));
    // "ring, " was the last valid text typed; "ring, w..." never reached the spec.
    EXPECT_EQ(h.spec.system.allReduce, std::vector<AlgorithmSpec>{AlgorithmSpec{}});
    EXPECT_EQ(ar->text(), QStringLiteral("ring, warp"));
    EXPECT_TRUE(ar->property("invalid").toBool());
    EXPECT_EQ(h.panel.invalidFields(), QStringList{QStringLiteral("All-reduce")});
    EXPECT_GT(h.edits, before); // the valid prefixes "ring" and "ring, " were edits
    QLabel* message = h.panel.sections()[1]->messageLabel(ar);
    ASSERT_NE(message, nullptr);
    EXPECT_FALSE(message->text().isEmpty());

    // Editing another field keeps the text being fixed; undoing to another value replaces it.
    auto* chunks = qobject_cast<QSpinBox*>(h.panel.editorForKey(QStringLiteral("system.chunks")));
    chunks->setValue(8);
    EXPECT_EQ(ar->text(), QStringLiteral("ring, warp"));
    h.spec.system.allReduce = {AlgorithmSpec{AlgorithmKind::HalvingDoubling, 0}};
    h.panel.setSpec(h.spec);
    EXPECT_EQ(ar->text(), QStringLiteral("halvingDoubling"));
    EXPECT_TRUE(h.panel.invalidFields().isEmpty());

    auto* endpoint =
        qobject_cast<QuantityEdit*>(h.panel.editorForKey(QStringLiteral("system.endpoint-delay")));
    endpoint->setTextAsTyped(QStringLiteral("2.5 ns"));
    EXPECT_EQ(h.spec.system.endpointDelayNs, 10) << "fractional cycles are rejected";
    EXPECT_TRUE(endpoint->errorMessage().contains(QStringLiteral("whole nanoseconds")));
    endpoint->setTextAsTyped(QStringLiteral("2 us"));
    EXPECT_EQ(h.spec.system.endpointDelayNs, 2000);
    EXPECT_TRUE(endpoint->isValid());

    auto* memType = qobject_cast<QComboBox*>(h.panel.editorForKey(QStringLiteral("memory-type")));
    emit memType->activated(3); // memory pool
    EXPECT_EQ(h.spec.memory.type, RemoteMemoryType::MemoryPool);
    EXPECT_TRUE(h.panel.editorForKey(QStringLiteral("memory.latency"))->isEnabled());
    EXPECT_FALSE(h.panel.editorForKey(QStringLiteral("memory.num-nodes"))->isEnabled())
        << "nodes apply to per-node memory only";
}

TEST(ConfigurationPanel, MarksSettingsChangedSinceTheLastRun) {
    Harness h;
    const SimulationSpec lastRun = h.spec;
    h.panel.setBaseline(&lastRun);
    EXPECT_TRUE(h.panel.changedFields().isEmpty());
    auto* roofline =
        qobject_cast<QCheckBox*>(h.panel.editorForKey(QStringLiteral("roofline-enabled")));
    roofline->click();
    auto* splits = qobject_cast<QSpinBox*>(h.panel.editorForKey(QStringLiteral("system.chunks")));
    splits->setValue(16);
    EXPECT_EQ(h.panel.changedFields(), (QStringList{QStringLiteral("Chunks per collective"),
                                                    QStringLiteral("Roofline compute model")}));
    QLabel* label = nullptr;
    for (QLabel* l : h.panel.findChildren<QLabel*>())
        if (l->buddy() == splits)
            label = l;
    ASSERT_NE(label, nullptr);
    EXPECT_TRUE(label->text().startsWith(QStringLiteral("\u25CF ")));
    EXPECT_TRUE(label->font().bold());
    EXPECT_TRUE(label->toolTip().contains(QStringLiteral("was 4")));
    splits->setValue(4); // back to the run's value: no longer marked
    EXPECT_EQ(h.panel.changedFields(), QStringList{QStringLiteral("Roofline compute model")});
    h.panel.setBaseline(nullptr);
    EXPECT_TRUE(h.panel.changedFields().isEmpty());
}

TEST(ConfigurationPanel, AServingProjectSaysItsWorkloadIsNotUsed) {
    Harness h;
    h.spec.serving.enabled = true;
    h.spec.workload.microbenchmark.sizeBytes = 0; // what a serving project reads as
    h.panel.setSpec(h.spec);
    QWidget* kind = h.panel.editorForKey(QStringLiteral("workload.kind"));
    ASSERT_NE(kind, nullptr);
    QLabel* note = h.panel.sections()[0]->messageLabel(kind);
    ASSERT_NE(note, nullptr);
    EXPECT_FALSE(note->isHidden());
    EXPECT_TRUE(note->text().contains(QStringLiteral("serves LLM requests")))
        << note->text().toStdString();
    EXPECT_FALSE(h.panel.sections()[0]->isInvalid(kind)) << "a note, not an error";
    for (const char* key :
         {"workload.microbenchmark.collective", "workload.microbenchmark.size", "workload.trace"})
        EXPECT_FALSE(h.panel.editorForKey(QString::fromLatin1(key))->isEnabled()) << key;

    // A collective size makes it a training project again: the note goes, the fields return.
    h.spec.workload.microbenchmark.sizeBytes = 1 << 20;
    h.panel.setSpec(h.spec);
    EXPECT_TRUE(note->isHidden() || note->text().isEmpty());
    EXPECT_TRUE(h.panel.editorForKey(QStringLiteral("workload.microbenchmark.size"))->isEnabled());
    EXPECT_FALSE(h.panel.editorForKey(QStringLiteral("workload.trace"))->isEnabled());
}
