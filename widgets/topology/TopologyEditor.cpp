#include "topology/TopologyEditor.h"

#include "core/Error.h"
#include "core/Units.h"
#include "topology/AstraYamlExport.h"
#include "topology/BlockMime.h"
#include "topology/BlockPalette.h"
#include "topology/DimensionStack.h"
#include "topology/GraphEditor.h"
#include "topology/MemoryTierMath.h"
#include "topology/MemoryTierPanel.h"
#include "topology/NetworkView.h"
#include "topology/Topology.h"
#include "topology/TopologyDocument.h"
#include "topology/TopologyFigures.h"
#include "topology/TopologyMath.h"
#include "topology/TopologyPresets.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QLabel>
#include <QMenu>
#include <QMimeData>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

namespace astrolabe::widgets {

TopologyEditor::TopologyEditor(QWidget* parent)
    : QWidget(parent)
    , m_document(new TopologyDocument(this))
    , m_palette(new BlockPalette(this))
    , m_stack(new DimensionStack(m_document, this))
    , m_view(new NetworkView(this))
    , m_figures(new TopologyFigures(this))
    , m_presets(new QComboBox(this))
    , m_graphEditor(new GraphEditor(m_document, this)) {
    setUp(true);
}

TopologyEditor::TopologyEditor(QUndoStack* sharedUndoStack, QWidget* parent)
    : QWidget(parent)
    , m_document(new TopologyDocument(sharedUndoStack, this))
    , m_palette(new BlockPalette(this))
    , m_stack(new DimensionStack(m_document, this))
    , m_view(new NetworkView(this))
    , m_figures(new TopologyFigures(this))
    , m_presets(new QComboBox(this))
    , m_graphEditor(new GraphEditor(m_document, this)) {
    setUp(false);
}

void TopologyEditor::setUp(bool ownsUndoShortcuts) {
    createActions(ownsUndoShortcuts);
    m_memoryPanel = new MemoryTierPanel(m_document, m_addMemory, m_removeMemory, this);
    connect(m_memoryPanel, &MemoryTierPanel::sweepRequested, this, &TopologyEditor::sweepRequested);

    m_presets->addItem(tr("Presets\u2026"));
    for (const TopologyPreset& p : topologyPresets()) {
        m_presets->addItem(p.name);
        m_presets->setItemData(m_presets->count() - 1, p.description, Qt::ToolTipRole);
    }
    connect(m_presets, &QComboBox::activated, this, [this](int index) {
        if (index > 0)
            applyPreset(m_presets->itemText(index));
        m_presets->setCurrentIndex(0);
    });

    // Two tool bars, one above the other when the page is too narrow for both (a large
    // interface scale), so that no button goes into an overflow menu.
    auto* edits = new QToolBar(this);
    edits->setToolButtonStyle(Qt::ToolButtonTextOnly);
    edits->addWidget(m_presets);
    edits->addSeparator();
    edits->addAction(m_undo);
    edits->addAction(m_redo);
    auto* views = new QToolBar(this);
    views->setToolButtonStyle(Qt::ToolButtonTextOnly);
    views->addAction(m_copyYaml);
    views->addAction(m_fit);
    views->addAction(m_editAsGraph);
    m_toolBars = new QBoxLayout(QBoxLayout::LeftToRight);
    m_toolBars->setSpacing(0);
    m_toolBars->addWidget(edits);
    m_toolBars->addWidget(views, 1);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(createLeftPanel());
    splitter->addWidget(m_view);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({380, 820});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(m_toolBars);
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(splitter);
    m_pages->addWidget(m_graphEditor);
    layout->addWidget(m_pages, 1);

    connect(m_document, &TopologyDocument::platformChanged, this,
            &TopologyEditor::onPlatformChanged);
    connect(m_document, &TopologyDocument::selectionChanged, m_view,
            &NetworkView::setSelectedDimension);
    connect(m_view, &NetworkView::dimensionClicked, m_document, [this](int dimension) {
        m_document->setSelectedDimension(dimension);
        if (dimension < 0) // a click on the background clears the tier's selection too
            m_document->setMemorySelected(false);
    });
    connect(m_document, &TopologyDocument::memoryChanged, this, &TopologyEditor::onMemoryChanged);
    connect(m_document, &TopologyDocument::memorySelectionChanged, m_view,
            &NetworkView::setMemorySelected);
    connect(m_view, &NetworkView::memoryClicked, m_document,
            [this] { m_document->setMemorySelected(true); });
    connect(m_palette, &BlockPalette::blockActivated, this,
            [this](const std::vector<DimensionSpec>& dims) {
                m_document->insertDimensions(
                    static_cast<int>(m_document->platform().dimensions.size()), dims);
            });
    connect(m_stack, &DimensionStack::contextMenuRequested, this, &TopologyEditor::showStackMenu);
    auto* zoomIn = new QAction(tr("Zoom in (+)"), m_view);
    auto* zoomOut = new QAction(tr("Zoom out (\u2212)"), m_view);
    const auto centre = [this] { return QPointF(m_view->width() / 2.0, m_view->height() / 2.0); };
    connect(zoomIn, &QAction::triggered, m_view,
            [this, centre] { m_view->zoomBy(1.25, centre()); });
    connect(zoomOut, &QAction::triggered, m_view,
            [this, centre] { m_view->zoomBy(0.8, centre()); });
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* separator = new QAction(m_view);
    separator->setSeparator(true);
    m_view->addActions(
        {zoomIn, zoomOut, m_fit, m_copyYaml, separator, m_addMemory, m_removeMemory});
    onPlatformChanged();
    onMemoryChanged();
}

void TopologyEditor::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    reflowToolBars();
}

void TopologyEditor::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) // the interface scale changed the buttons' widths
        QTimer::singleShot(0, this, &TopologyEditor::reflowToolBars);
}

void TopologyEditor::reflowToolBars() {
    int sideBySide = 0;
    for (int i = 0; i < m_toolBars->count(); ++i)
        if (QWidget* bar = m_toolBars->itemAt(i)->widget())
            sideBySide += bar->sizeHint().width();
    const auto direction =
        sideBySide <= width() ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_toolBars->direction() != direction)
        m_toolBars->setDirection(direction);
}

QWidget* TopologyEditor::createLeftPanel() {
    auto* panel = new QWidget(this);
    auto* column = new QVBoxLayout(panel);
    column->setContentsMargins(6, 6, 6, 6);
    auto* blocks = new QLabel(tr("<b>Building blocks</b> \u2014 drag onto the stack"), panel);
    column->addWidget(blocks);
    column->addWidget(m_palette);
    column->addWidget(
        new QLabel(tr("<b>Dimensions</b> \u2014 d0 first (varies fastest in NPU ids)"), panel));
    auto* scroll = new QScrollArea(panel);
    scroll->setWidgetResizable(true);
    // Sideways only when the stack's rows are wider than the panel (large interface scale).
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    scroll->setWidget(m_stack);
    scroll->setMinimumWidth(340);
    column->addWidget(scroll, 1);
    column->addWidget(m_memoryPanel);
    column->addWidget(m_figures);
    return panel;
}

void TopologyEditor::createActions(bool ownsUndoShortcuts) {
    const auto make = [this](const QString& text, const QList<QKeySequence>& keys) {
        auto* action = new QAction(text, this);
        action->setShortcuts(keys);
        // Shortcuts act inside the editor only: the main window has its own Delete and Ctrl+Z.
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(action);
        return action;
    };
    QUndoStack* stack = m_document->undoStack();
    m_undo = stack->createUndoAction(this, tr("Undo"));
    m_redo = stack->createRedoAction(this, tr("Redo"));
    // The toolbar's buttons say "Undo" and "Redo", what they would undo in their tooltips: "Undo
    // Preset DGX cluster (Switch 8 x Switch 16)" as a button would push the toolbar's last
    // buttons into its overflow menu at 1280 px. Connected after the stack's own text update,
    // so this one wins.
    const auto shortText = [](QAction* action, const QString& verb) {
        return [action, verb](const QString& what) {
            action->setText(verb);
            action->setToolTip(what.isEmpty() ? verb : verb + QLatin1Char(' ') + what);
        };
    };
    const auto undoText = shortText(m_undo, tr("Undo")), redoText = shortText(m_redo, tr("Redo"));
    connect(stack, &QUndoStack::undoTextChanged, m_undo, undoText);
    connect(stack, &QUndoStack::redoTextChanged, m_redo, redoText);
    undoText(stack->undoText());
    redoText(stack->redoText());
    if (ownsUndoShortcuts) {
        m_undo->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Z)});
        m_redo->setShortcuts(
            {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
        for (QAction* a : {m_undo, m_redo}) {
            a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
            addAction(a);
        }
    }
    m_delete = make(tr("Remove dimension"), {QKeySequence::Delete});
    m_copy = make(tr("Copy dimension"), {QKeySequence::Copy});
    m_paste = make(tr("Paste dimension"), {QKeySequence::Paste});
    m_moveUp = make(tr("Move up (lower dimension)"), {QKeySequence(Qt::ALT | Qt::Key_Up)});
    m_moveDown = make(tr("Move down (higher dimension)"), {QKeySequence(Qt::ALT | Qt::Key_Down)});
    m_copyYaml = make(tr("Copy as ASTRA-sim YAML"), {});
    m_fit = make(tr("Fit drawing"), {});
    m_editAsGraph = make(tr("Edit as graph"), {});
    m_editAsGraph->setToolTip(tr("Turn the dimension stack into the same network as a graph of "
                                 "NPUs, switches and links, to edit link by link"));
    connect(m_editAsGraph, &QAction::triggered, this, &TopologyEditor::editAsGraph);
    m_addMemory = make(tr("Add memory tier"), {});
    m_addMemory->setToolTip(tr("Remote memory under the NPUs (the project's memory: section): "
                               "per NPU at 100 GB/s to start with; pick per node, a shared pool "
                               "or pooled memory groups in its settings"));
    m_removeMemory = make(tr("Remove memory tier"), {});
    m_removeMemory->setToolTip(tr("No remote memory (memory type none)"));
    connect(m_addMemory, &QAction::triggered, this, &TopologyEditor::addMemoryTier);
    connect(m_removeMemory, &QAction::triggered, this, &TopologyEditor::removeMemoryTier);
    connect(m_delete, &QAction::triggered, this, [this] {
        if (platform().graph)
            m_graphEditor->deleteSelection(); // the devices and links selected in the drawing
        else
            removeSelectedDimension();
    });
    connect(m_copy, &QAction::triggered, this, &TopologyEditor::copySelectedDimension);
    connect(m_paste, &QAction::triggered, this, &TopologyEditor::pasteDimension);
    connect(m_moveUp, &QAction::triggered, this, [this] { moveSelectedDimension(-1); });
    connect(m_moveDown, &QAction::triggered, this, [this] { moveSelectedDimension(+1); });
    connect(m_copyYaml, &QAction::triggered, this, &TopologyEditor::copyYamlToClipboard);
    connect(m_fit, &QAction::triggered, m_view, &NetworkView::fitToView);
}

const PlatformSpec& TopologyEditor::platform() const {
    return m_document->platform();
}

const RemoteMemoryConfig& TopologyEditor::memory() const {
    return m_document->memory();
}

void TopologyEditor::setMemory(const RemoteMemoryConfig& memory) {
    m_document->showMemory(memory);
}

void TopologyEditor::addMemoryTier() {
    if (hasMemoryTier(memory()))
        return;
    RemoteMemoryConfig tier = memory(); // keeps where it came from
    tier.type = RemoteMemoryType::PerNpuMemoryExpansion;
    m_document->editMemory(withMemoryDefaults(tier, platform().npuCount()), tr("Add memory tier"));
}

void TopologyEditor::removeMemoryTier() {
    if (!hasMemoryTier(memory()))
        return;
    RemoteMemoryConfig none;
    none.sourceFile = memory().sourceFile;
    m_document->editMemory(none, tr("Remove memory tier"));
}

void TopologyEditor::onMemoryChanged() {
    const RemoteMemoryConfig& m = m_document->memory();
    m_addMemory->setEnabled(!hasMemoryTier(m));
    m_removeMemory->setEnabled(hasMemoryTier(m));
    m_view->setMemory(m);
    m_view->setMemorySelected(m_document->memorySelected());
    m_figures->setPlatform(m_document->platform(), m);
    emit memoryChanged();
}

void TopologyEditor::setPlatform(const PlatformSpec& platform) {
    m_document->resetPlatform(platform);
}

void TopologyEditor::showPlatform(const PlatformSpec& platform) {
    m_document->showPlatform(platform);
}

bool TopologyEditor::applyPreset(const QString& name) {
    const TopologyPreset* preset = findTopologyPreset(name);
    if (!preset)
        return false;
    m_document->replacePlatform(preset->platform, tr("Preset %1").arg(name));
    return true;
}

QUndoStack* TopologyEditor::undoStack() const {
    return m_document->undoStack();
}

QString TopologyEditor::astraNetworkYaml(QString* error) const {
    try {
        return QString::fromStdString(widgets::astraNetworkYaml(platform()));
    } catch (const Error& e) {
        if (error)
            *error = QString::fromStdString(e.message());
        return {};
    }
}

void TopologyEditor::editAsGraph() {
    const PlatformSpec& p = m_document->platform();
    if (p.graph || !platformProblems(p).empty())
        return;
    m_document->replacePlatform(stackAsGraph(p), tr("Edit as graph"));
}

void TopologyEditor::onPlatformChanged() {
    const PlatformSpec& p = m_document->platform();
    m_pages->setCurrentIndex(p.graph ? 1 : 0);
    m_editAsGraph->setEnabled(!p.graph && platformProblems(p).empty());
    if (p.graph)
        m_graphEditor->showGraph();
    else
        m_view->setPlatform(p);
    m_view->setSelectedDimension(m_document->selectedDimension());
    m_figures->setPlatform(p, m_document->memory());
    m_copyYaml->setEnabled(platformProblems(p).empty());
    emit platformChanged();
}

void TopologyEditor::copySelectedDimension() {
    const int i = m_document->selectedDimension();
    if (i < 0)
        return;
    QApplication::clipboard()->setMimeData(
        makeBlockMimeData({m_document->platform().dimensions[static_cast<size_t>(i)]}));
}

void TopologyEditor::pasteDimension() {
    const std::vector<DimensionSpec> dims =
        dimensionsFromMimeData(QApplication::clipboard()->mimeData());
    const int selected = m_document->selectedDimension();
    const int at =
        selected >= 0 ? selected + 1 : static_cast<int>(m_document->platform().dimensions.size());
    m_document->insertDimensions(at, dims);
}

void TopologyEditor::removeSelectedDimension() {
    m_document->removeDimension(m_document->selectedDimension());
}

void TopologyEditor::moveSelectedDimension(int delta) {
    const int i = m_document->selectedDimension();
    if (i < 0)
        return;
    // moveDimension takes the gap to drop into: below the next row, or above the previous one.
    m_document->moveDimension(i, delta > 0 ? i + 2 : i - 1);
}

void TopologyEditor::showStackMenu(QPoint globalPos) {
    const bool hasSelection = m_document->selectedDimension() >= 0;
    m_delete->setEnabled(hasSelection);
    m_copy->setEnabled(hasSelection);
    m_moveUp->setEnabled(hasSelection);
    m_moveDown->setEnabled(hasSelection);
    m_paste->setEnabled(!dimensionsFromMimeData(QApplication::clipboard()->mimeData()).empty());
    QMenu menu(this);
    menu.addActions({m_undo, m_redo});
    menu.addSeparator();
    menu.addActions({m_copy, m_paste, m_delete});
    menu.addSeparator();
    menu.addActions({m_moveUp, m_moveDown});
    menu.addSeparator();
    if (hasSelection) {
        const int i = m_document->selectedDimension();
        const DimensionSpec& d = m_document->platform().dimensions.at(static_cast<size_t>(i));
        const QString values[] = {
            QString::number(d.size),
            QString::fromStdString(units::formatBandwidth(d.bandwidthBytesPerSecond)),
            QString::fromStdString(units::formatTime(SimTime::fromNsRounded(d.latencyNs)))};
        const char* fields[] = {"size", "bandwidth", "latency"};
        QMenu* sweep = menu.addMenu(tr("Sweep d%1").arg(i));
        for (int f = 0; f < 3; ++f)
            sweep->addAction(tr("%1…").arg(QString::fromLatin1(fields[f])), this, [=, this] {
                emit sweepRequested(QStringLiteral("platform.dimensions.%1.%2")
                                        .arg(i)
                                        .arg(QString::fromLatin1(fields[f])),
                                    tr("d%1 %2").arg(i).arg(QString::fromLatin1(fields[f])),
                                    values[f]);
            });
        menu.addSeparator();
    }
    menu.addAction(m_copyYaml);
    menu.addSeparator();
    menu.addActions({m_addMemory, m_removeMemory});
    menu.exec(globalPos);
    for (QAction* a : {m_delete, m_copy, m_moveUp, m_moveDown, m_paste})
        a->setEnabled(true);
}

void TopologyEditor::copyYamlToClipboard() {
    QString error;
    const QString yaml = astraNetworkYaml(&error);
    if (!yaml.isEmpty())
        QApplication::clipboard()->setText(yaml);
}

} // namespace astrolabe::widgets
