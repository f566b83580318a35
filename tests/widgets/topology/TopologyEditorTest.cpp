// The topology editor driven as a student would: blocks dragged from the palette onto the
// dimension stack, edited in place, reordered, undone and redone, with keyboard shortcuts.
//
// Drag and drop, headless: QDrag::exec() hands the drag to the platform, and the offscreen
// platform ends it at once (no nested loop, no drop). So each drag is tested in two halves:
//   1. the source: a real QTest press/move on the palette item starts a drag (BlockPalette
//      records the payload it handed to QDrag);
//   2. the target: the same payload is delivered to the stack as the QDragEnter/QDragMove/QDrop
//      sequence the platform would send, at the release position.
#include "topology/TopologyEditor.h"

#include "topology/BlockMime.h"
#include "topology/BlockPalette.h"
#include "topology/DimensionRow.h"
#include "topology/DimensionStack.h"
#include "topology/NetworkView.h"
#include "topology/TopologyDocument.h"
#include "topology/TopologyFigures.h"
#include "topology/TopologyPresets.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDoubleSpinBox>
#include <QLayout>
#include <QMenu>
#include <QMimeData>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <gtest/gtest.h>
#include <memory>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
constexpr double kGiB = 1073741824.0;

void deliverDrop(QWidget* target, QPoint pos, const QMimeData* mime) {
    const Qt::DropActions actions = Qt::CopyAction | Qt::MoveAction;
    QDragEnterEvent enter(pos, actions, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    QDragMoveEvent move(pos, actions, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &move);
    QDropEvent drop(QPointF(pos), actions, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
}

void settle(QWidget* w) {
    QCoreApplication::processEvents();
    if (w->layout())
        w->layout()->activate();
}

// Gap positions in the stack: above row i (i < count) or below the last row.
QPoint gapPos(DimensionStack* stack, int index) {
    settle(stack);
    if (stack->rowCount() == 0)
        return QPoint(stack->width() / 2, 20);
    if (index < stack->rowCount())
        return QPoint(stack->width() / 2, stack->row(index)->geometry().top() + 2);
    return QPoint(stack->width() / 2, stack->row(stack->rowCount() - 1)->geometry().bottom() + 3);
}

std::vector<BlockKind> kinds(const PlatformSpec& p) {
    std::vector<BlockKind> k;
    for (const DimensionSpec& d : p.dimensions)
        k.push_back(d.kind);
    return k;
}

struct EditorFixture : ::testing::Test {
    void SetUp() override {
        editor = std::make_unique<TopologyEditor>();
        editor->resize(1200, 800);
        editor->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(editor.get()));
    }
    std::unique_ptr<QMimeData> paletteMime(const QString& label) {
        QListWidgetItem* item = editor->palette()->findBlock(label);
        EXPECT_NE(item, nullptr) << label.toStdString();
        return std::unique_ptr<QMimeData>(makeBlockMimeData(editor->palette()->dimensionsOf(item)));
    }
    std::unique_ptr<TopologyEditor> editor;
};
} // namespace

TEST_F(EditorFixture, DropsFromThePaletteBuildAnEightByFourPlatformAndUndoRedo) {
    DimensionStack* stack = editor->dimensionStack();
    QSignalSpy changed(editor.get(), &TopologyEditor::platformChanged);
    EXPECT_TRUE(editor->platform().dimensions.empty());

    deliverDrop(stack, gapPos(stack, 0), paletteMime(QStringLiteral("Ring")).get());
    deliverDrop(stack, gapPos(stack, 1), paletteMime(QStringLiteral("Switch")).get());
    // Dropped above the first row, FullyConnected becomes dimension 0.
    deliverDrop(stack, gapPos(stack, 0), paletteMime(QStringLiteral("Fully connected")).get());
    EXPECT_EQ(
        kinds(editor->platform()),
        (std::vector<BlockKind>{BlockKind::FullyConnected, BlockKind::Ring, BlockKind::Switch}));
    EXPECT_EQ(changed.count(), 3);
    EXPECT_EQ(stack->rowCount(), 3);

    // Make it 8 x 4: remove FC, set the ring to 8 and the switch to 4 through the spin boxes.
    editor->document()->setSelectedDimension(0);
    editor->removeSelectedDimension();
    stack->row(0)->sizeSpin()->setValue(8);
    stack->row(1)->sizeSpin()->setValue(4);
    EXPECT_EQ(editor->platform().npuCount(), 32);
    EXPECT_EQ(editor->platform().dimensions[0].size, 8);
    EXPECT_EQ(editor->platform().dimensions[1].size, 4);
    EXPECT_EQ(editor->networkView()->networkLayout().npuCount(), 32);

    QUndoStack* undo = editor->undoStack();
    EXPECT_EQ(undo->count(), 6); // 3 drops, 1 removal, 2 edits
    undo->undo();                // switch back to 8
    EXPECT_EQ(editor->platform().dimensions[1].size, 8);
    EXPECT_EQ(stack->row(1)->sizeSpin()->value(), 8) << "the row follows the model";
    undo->undo();
    undo->undo();
    EXPECT_EQ(kinds(editor->platform()).size(), 3u) << "the removed FC is back";
    undo->undo();
    EXPECT_EQ(kinds(editor->platform()),
              (std::vector<BlockKind>{BlockKind::Ring, BlockKind::Switch}));
    for (int i = 0; i < 4; ++i)
        undo->redo();
    EXPECT_EQ(editor->platform().npuCount(), 32);
}

TEST_F(EditorFixture, RealPressAndMoveOnThePaletteStartsADragWithTheBlock) {
    BlockPalette* palette = editor->palette();
    QListWidgetItem* item = palette->findBlock(QStringLiteral("2-D torus"));
    ASSERT_NE(item, nullptr);
    const QPoint start = palette->visualItemRect(item).center();
    QWidget* viewport = palette->viewport();
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, start);
    // QAbstractItemView starts the drag once the move exceeds startDragDistance.
    for (int step = 1; step <= 4; ++step) {
        const QPoint p = start + QPoint(step * 10, step * 6);
        QMouseEvent move(QEvent::MouseMove, QPointF(p), QPointF(viewport->mapToGlobal(p)),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &move);
    }
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, start + QPoint(40, 24));
    ASSERT_FALSE(palette->lastDragPayload().isEmpty()) << "the press/move did not start a drag";

    // Deliver what QDrag carried to the stack, where the mouse was released.
    QMimeData mime;
    mime.setData(QString::fromLatin1(kBlockMimeType), palette->lastDragPayload());
    deliverDrop(editor->dimensionStack(), gapPos(editor->dimensionStack(), 0), &mime);
    EXPECT_EQ(kinds(editor->platform()),
              (std::vector<BlockKind>{BlockKind::Ring, BlockKind::Ring}));
    EXPECT_EQ(editor->platform().npuCount(), 16);
    editor->undoStack()->undo();
    EXPECT_TRUE(editor->platform().dimensions.empty()) << "a preset block is one undo step";
}

TEST_F(EditorFixture, DraggingARowReordersDimensions) {
    editor->applyPreset(QStringLiteral("Conv-3D (Ring 16 x FC 8 x Switch 4)"));
    DimensionStack* stack = editor->dimensionStack();
    ASSERT_EQ(stack->rowCount(), 3);
    // Row 0 (Ring) dropped below the last row becomes dimension 2.
    std::unique_ptr<QMimeData> mime(stack->mimeDataForRow(0));
    deliverDrop(stack, gapPos(stack, 3), mime.get());
    EXPECT_EQ(
        kinds(editor->platform()),
        (std::vector<BlockKind>{BlockKind::FullyConnected, BlockKind::Switch, BlockKind::Ring}));
    EXPECT_EQ(editor->document()->selectedDimension(), 2);
    editor->undoStack()->undo();
    EXPECT_EQ(
        kinds(editor->platform()),
        (std::vector<BlockKind>{BlockKind::Ring, BlockKind::FullyConnected, BlockKind::Switch}));
    // A real press/move on a row asks for a drag (the offscreen platform ends it at once).
    QSignalSpy dragRequested(stack->row(1), &DimensionRow::dragRequested);
    QTest::mousePress(stack->row(1), Qt::LeftButton, Qt::NoModifier, QPoint(8, 8));
    QMouseEvent move(QEvent::MouseMove, QPointF(40, 40),
                     QPointF(stack->row(1)->mapToGlobal(QPoint(40, 40))), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(stack->row(1), &move);
    EXPECT_EQ(dragRequested.count(), 1);
    EXPECT_EQ(dragRequested.at(0).at(0).toInt(), 1);
}

TEST_F(EditorFixture, InvalidValuesAreShownNotAccepted) {
    editor->applyPreset(QStringLiteral("HGX-H100 (Switch 8)"));
    DimensionRow* row = editor->dimensionStack()->row(0);
    EXPECT_TRUE(row->problem().isEmpty());
    row->sizeSpin()->setValue(1);
    EXPECT_EQ(editor->platform().dimensions[0].size, 1) << "kept as typed, not corrected";
    EXPECT_TRUE(row->problem().contains(QStringLiteral("size: expected 2 or more NPUs, found")));
    EXPECT_TRUE(editor->figures()->showsProblems());
    QString error;
    EXPECT_TRUE(editor->astraNetworkYaml(&error).isEmpty());
    EXPECT_TRUE(error.contains(QStringLiteral("size: expected 2 or more NPUs, found")));
    row->bandwidthSpin()->setValue(0);
    EXPECT_TRUE(
        row->problem().contains(QStringLiteral("bandwidth: expected 1000 B/s or more, found 0")));
    editor->undoStack()->undo();
    editor->undoStack()->undo();
    EXPECT_TRUE(row->problem().isEmpty());
    EXPECT_FALSE(editor->figures()->showsProblems());
    EXPECT_TRUE(editor->astraNetworkYaml().contains(QStringLiteral("bandwidth: [ 400 ]")));
}

TEST_F(EditorFixture, UnitsChangeTheDisplayNotTheValue) {
    editor->applyPreset(QStringLiteral("HGX-H100 (Switch 8)"));
    DimensionRow* row = editor->dimensionStack()->row(0);
    EXPECT_EQ(row->bandwidthUnitCombo()->currentText(), QStringLiteral("GiB/s"));
    EXPECT_DOUBLE_EQ(row->bandwidthSpin()->value(), 400);
    const int undoCount = editor->undoStack()->count();
    row->bandwidthUnitCombo()->setCurrentIndex(2); // Gbps: 400 GiB/s = 3435.974 Gbps
    EXPECT_NEAR(row->bandwidthSpin()->value(), 400 * kGiB * 8 / 1e9, 1e-3);
    EXPECT_EQ(editor->undoStack()->count(), undoCount);
    EXPECT_DOUBLE_EQ(editor->platform().dimensions[0].bandwidthBytesPerSecond, 400 * kGiB);
    row->bandwidthUnitCombo()->setCurrentIndex(0); // GB/s = 10^9 B/s
    row->bandwidthSpin()->setValue(100);
    EXPECT_DOUBLE_EQ(editor->platform().dimensions[0].bandwidthBytesPerSecond, 100e9);
    row->latencyUnitCombo()->setCurrentIndex(1); // us
    row->latencySpin()->setValue(2);
    EXPECT_DOUBLE_EQ(editor->platform().dimensions[0].latencyNs, 2000);
}

TEST_F(EditorFixture, KeyboardShortcutsDeleteCopyPasteUndoRedo) {
    editor->applyPreset(QStringLiteral("Conv-3D (Ring 16 x FC 8 x Switch 4)"));
    editor->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(editor.get()));
    NetworkView* view = editor->networkView();
    view->setFocus();
    editor->document()->setSelectedDimension(1);

    QTest::keyClick(view, Qt::Key_Delete);
    EXPECT_EQ(kinds(editor->platform()),
              (std::vector<BlockKind>{BlockKind::Ring, BlockKind::Switch}));
    QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(editor->platform().dimensions.size(), 3u);
    QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(editor->platform().dimensions.size(), 2u);
    QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier);

    editor->document()->setSelectedDimension(0);
    QTest::keyClick(view, Qt::Key_C, Qt::ControlModifier);
    EXPECT_EQ(dimensionsFromMimeData(QApplication::clipboard()->mimeData()).size(), 1u);
    QTest::keyClick(view, Qt::Key_V, Qt::ControlModifier);
    // Pasted after the selection: Ring 16, Ring 16, FC 8, Switch 4 = 16 * 16 * 8 * 4 NPUs.
    EXPECT_EQ(kinds(editor->platform()),
              (std::vector<BlockKind>{BlockKind::Ring, BlockKind::Ring, BlockKind::FullyConnected,
                                      BlockKind::Switch}));
    EXPECT_EQ(editor->platform().npuCount(), 16 * 16 * 8 * 4);
    EXPECT_EQ(editor->document()->selectedDimension(), 1);
}

TEST_F(EditorFixture, ClickingTheDrawingSelectsTheDimensionRow) {
    editor->applyPreset(QStringLiteral("HGX-H100 (Switch 8)"));
    NetworkView* view = editor->networkView();
    const QPoint npu = view->sceneToWidget(view->networkLayout().npuPosition(3)).toPoint();
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, npu);
    EXPECT_EQ(editor->document()->selectedDimension(), 0);
    EXPECT_TRUE(editor->dimensionStack()->row(0)->isSelected());
}

TEST_F(EditorFixture, PresetsHaveThePublishedShapes) {
    struct Expect {
        const char* name;
        int npus;
        std::vector<double> astraGBps;
    };
    const std::vector<Expect> expected{
        {"HGX-H100 (Switch 8)", 8, {400}},
        {"DGX cluster (Switch 8 x Switch 16)", 128, {400, 50}},
        {"TPU-style 2-D torus (Ring 32 x Ring 32)", 1024, {50, 50}},
        {"TPU-style 3-D torus (Ring 16 x Ring 16 x Ring 16)", 4096, {50, 50, 50}},
        {"W-1D (Switch 512)", 512, {350}},
        {"W-2D (Switch 32 x Switch 16)", 512, {250, 250}},
        {"Conv-3D (Ring 16 x FC 8 x Switch 4)", 512, {200, 100, 50}},
        {"Conv-4D (Ring 2 x FC 8 x Ring 8 x Switch 4)", 512, {250, 200, 100, 50}},
    };
    EXPECT_EQ(editor->presetCombo()->count(), static_cast<int>(expected.size()) + 1);
    for (const Expect& e : expected) {
        ASSERT_TRUE(editor->applyPreset(QString::fromLatin1(e.name))) << e.name;
        const PlatformSpec& p = editor->platform();
        EXPECT_EQ(p.npuCount(), e.npus) << e.name;
        ASSERT_EQ(p.dimensions.size(), e.astraGBps.size()) << e.name;
        for (size_t i = 0; i < e.astraGBps.size(); ++i)
            EXPECT_DOUBLE_EQ(p.dimensions[i].bandwidthBytesPerSecond, e.astraGBps[i] * kGiB);
    }
    EXPECT_FALSE(editor->applyPreset(QStringLiteral("no such preset")));
}

TEST_F(EditorFixture, ClickingARowOrALegendLineSelectsItsDimension) {
    editor->applyPreset(QStringLiteral("Conv-3D (Ring 16 x FC 8 x Switch 4)"));
    DimensionStack* stack = editor->dimensionStack();
    settle(stack);
    QTest::mouseClick(stack->row(2), Qt::LeftButton, Qt::NoModifier, QPoint(6, 6));
    EXPECT_EQ(editor->document()->selectedDimension(), 2);
    EXPECT_TRUE(stack->row(2)->isSelected());
    EXPECT_EQ(editor->networkView()->selectedDimension(), 2) << "the drawing follows";
    // The legend lists d0, d1, d2 from the top-left corner of the drawing.
    NetworkView* view = editor->networkView();
    view->grab(); // paint once so the legend has its place
    const QFontMetrics fm(view->font());
    const int lineH = fm.height() + 2;
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, QPoint(40, 8 + 6 + lineH + lineH / 2));
    EXPECT_EQ(editor->document()->selectedDimension(), 1);
    EXPECT_TRUE(stack->row(1)->isSelected());
}

TEST_F(EditorFixture, UndoShowsARestoredValueInItsNaturalUnit) {
    editor->applyPreset(QStringLiteral("HGX-H100 (Switch 8)"));
    DimensionRow* row = editor->dimensionStack()->row(0);
    row->bandwidthUnitCombo()->setCurrentIndex(0); // GB/s
    row->bandwidthSpin()->setValue(100);           // 100e9 B/s, typed in GB/s
    EXPECT_EQ(row->bandwidthUnitCombo()->currentText(), QStringLiteral("GB/s"));
    editor->undoStack()->undo(); // back to 400 * 2^30 B/s: shown as 400 GiB/s again
    EXPECT_EQ(row->bandwidthUnitCombo()->currentText(), QStringLiteral("GiB/s"));
    EXPECT_DOUBLE_EQ(row->bandwidthSpin()->value(), 400);
}

TEST_F(EditorFixture, RightClickOnARowSelectsItAndOffersItsEdits) {
    editor->applyPreset(QStringLiteral("Conv-3D (Ring 16 x FC 8 x Switch 4)"));
    DimensionStack* stack = editor->dimensionStack();
    settle(stack);
    QStringList offered;
    // The menu runs its own loop: read it and close it from inside that loop.
    QTimer::singleShot(50, [&offered] {
        if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
            for (QAction* a : menu->actions())
                if (!a->isSeparator() && a->isEnabled())
                    offered << a->text();
            menu->close();
        }
    });
    const QPoint pos = stack->row(1)->geometry().center();
    QContextMenuEvent event(QContextMenuEvent::Mouse, pos, stack->mapToGlobal(pos));
    QApplication::sendEvent(stack, &event);
    EXPECT_EQ(editor->document()->selectedDimension(), 1);
    EXPECT_TRUE(offered.contains(QStringLiteral("Remove dimension")))
        << offered.join(',').toStdString();
    EXPECT_TRUE(offered.contains(QStringLiteral("Copy dimension")));
    EXPECT_TRUE(offered.contains(QStringLiteral("Copy as ASTRA-sim YAML")));
}

TEST_F(EditorFixture, SteppingASpinBoxIsOneUndoStep) {
    editor->applyPreset(QStringLiteral("HGX-H100 (Switch 8)"));
    const int before = editor->undoStack()->count();
    QSpinBox* size = editor->dimensionStack()->row(0)->sizeSpin();
    for (int i = 0; i < 5; ++i)
        size->stepUp();
    EXPECT_EQ(editor->platform().dimensions[0].size, 13);
    EXPECT_EQ(editor->undoStack()->count(), before + 1);
    editor->undoStack()->undo();
    EXPECT_EQ(editor->platform().dimensions[0].size, 8);
}

// The figures line wraps between figures, never inside one: at every width from 120 to 600
// pixels no line of it ends in a number or a unit's slash ("1.8 TB/" above "s" was seen at the
// default window size).
TEST(TopologyFiguresLayout, AFigureIsNeverSplitAcrossLines) {
    PlatformSpec platform;
    DimensionSpec d;
    d.kind = BlockKind::Switch;
    d.size = 8;
    d.bandwidthBytesPerSecond = 450e9;
    d.latencyNs = 1000;
    platform.dimensions.push_back(d);
    TopologyFigures figures;
    figures.setPlatform(platform, RemoteMemoryConfig{});
    QTextDocument document; // laid out as a word-wrapping QLabel lays out rich text
    document.setDefaultFont(figures.font());
    QTextOption option = document.defaultTextOption();
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    document.setDefaultTextOption(option);
    document.setHtml(figures.text());
    ASSERT_TRUE(document.toPlainText().contains(QStringLiteral("TB/")))
        << document.toPlainText().toStdString();
    for (int width = 120; width <= 600; width += 4) {
        document.setTextWidth(width);
        (void)document.size(); // lays the document out
        for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
            const QTextLayout* layout = block.layout();
            for (int i = 0; i + 1 < layout->lineCount(); ++i) {
                const QTextLine line = layout->lineAt(i);
                const QString text =
                    block.text().mid(line.textStart(), line.textLength()).trimmed();
                ASSERT_FALSE(text.isEmpty());
                const QChar last = text.back();
                EXPECT_FALSE(last == QLatin1Char('/') || last.isDigit())
                    << "width " << width << ": a line ends in \"" << text.toStdString() << "\"";
            }
        }
    }
}

// The palette's drawings fill their slot at every interface scale: a QIcon never enlarges its
// pixmap, and a 40-pixel drawing stayed 40 pixels in the 100-pixel slot of 250 %.
TEST(BlockPaletteIcons, AreLargeEnoughForTheLargestScale) {
    BlockPalette palette;
    ASSERT_GT(palette.count(), 0);
    for (int i = 0; i < palette.count(); ++i) {
        const QIcon icon = palette.item(i)->icon();
        EXPECT_EQ(icon.actualSize(QSize(100, 100)), QSize(100, 100)) << i;
        EXPECT_EQ(icon.actualSize(QSize(40, 40)), QSize(40, 40)) << i;
    }
}

// The editor's page in a maximised 1280 x 800 window is about 1,010 px wide. "Undo Preset DGX
// cluster (Switch 8 x Switch 16)" as the Undo button's text pushed "Edit as graph" into the tool
// bar's overflow menu there: the buttons say Undo and Redo, what they undo is their tooltip.
TEST_F(EditorFixture, UndoSaysWhatInItsTooltipAndEveryToolButtonStaysInSight) {
    editor->resize(1010, 520);
    editor->applyPreset(QStringLiteral("DGX cluster (Switch 8 x Switch 16)"));
    settle(editor.get());
    QAction* undo = nullptr;
    for (QToolBar* bar : editor->findChildren<QToolBar*>())
        for (QAction* action : bar->actions()) {
            if (action->text() == QStringLiteral("Undo"))
                undo = action;
            if (QWidget* button = bar->widgetForAction(action)) {
                EXPECT_TRUE(button->isVisible())
                    << action->text().toStdString() << " is in the overflow menu";
            }
        }
    ASSERT_NE(undo, nullptr);
    EXPECT_EQ(undo->toolTip(), QStringLiteral("Undo Preset DGX cluster (Switch 8 x Switch 16)"));
    editor->undoStack()->undo();
    EXPECT_EQ(undo->toolTip(), QStringLiteral("Undo"));
}
