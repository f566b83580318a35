#include "topology/BlockPalette.h"

#include "common/InterfaceScale.h"
#include "topology/BlockMime.h"
#include "topology/DimensionColors.h"
#include "topology/TopologyPresets.h"

#include <QEvent>
#include <QMimeData>
#include <QPainter>
#include <QtMath>
#include <algorithm>
#include <cmath>
#include <iterator>

namespace astrolabe::widgets {

namespace {
constexpr int kDimsRole = Qt::UserRole + 1;

// Small drawings of each block so the palette reads without its labels. Drawn in a 40-unit
// square at the largest interface scale: a QIcon shrinks a pixmap but never enlarges it, so a
// 40-pixel drawing stayed 40 pixels in a 100-pixel slot at 250 %.
QIcon blockIcon(const std::vector<DimensionSpec>& dims, bool torus) {
    constexpr double kScale = InterfaceScale::kSteps[std::size(InterfaceScale::kSteps) - 1];
    const int side = static_cast<int>(std::ceil(40 * kScale));
    QPixmap pm(side, side);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(kScale, kScale);
    const QColor c0 = dimensionColor(0);
    if (dims.size() == 1) {
        const int n = 6;
        QPointF pts[n];
        for (int i = 0; i < n; ++i) {
            const double a = -M_PI / 2 + 2 * M_PI * i / n;
            pts[i] = QPointF(20 + 14 * std::cos(a), 20 + 14 * std::sin(a));
        }
        p.setPen(QPen(c0, 1.5));
        if (dims[0].kind == BlockKind::Ring) {
            p.drawPolygon(pts, n);
        } else if (dims[0].kind == BlockKind::FullyConnected) {
            for (int i = 0; i < n; ++i)
                for (int j = i + 1; j < n; ++j)
                    p.drawLine(pts[i], pts[j]);
        } else {
            for (const QPointF& q : pts)
                p.drawLine(QPointF(20, 20), q);
            p.setBrush(c0.darker(130));
            p.drawRect(QRectF(15, 15, 10, 10));
        }
        p.setBrush(c0);
        p.setPen(Qt::NoPen);
        for (const QPointF& q : pts)
            p.drawEllipse(q, 3.5, 3.5);
        return QIcon(pm);
    }
    // Grids for the multi-dimensional presets; tori show their wrap-around links.
    const int k = 3;
    p.setPen(QPen(dimensionColor(0), 1.5));
    for (int r = 0; r < k; ++r)
        p.drawLine(QPointF(8, 8 + 12 * r), QPointF(32, 8 + 12 * r));
    p.setPen(QPen(dimensionColor(1), 1.5));
    for (int c = 0; c < k; ++c)
        p.drawLine(QPointF(8 + 12 * c, 8), QPointF(8 + 12 * c, 32));
    if (torus) {
        p.setPen(QPen(dimensionColor(dims.size() == 3 ? 2 : 0), 1, Qt::DashLine));
        p.drawRoundedRect(QRectF(3, 3, 34, 34), 6, 6);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0x44, 0x44, 0x44));
    for (int r = 0; r < k; ++r)
        for (int c = 0; c < k; ++c)
            p.drawEllipse(QPointF(8 + 12 * c, 8 + 12 * r), 3, 3);
    return QIcon(pm);
}
} // namespace

BlockPalette::BlockPalette(QWidget* parent)
    : QListWidget(parent) {
    setSelectionMode(QAbstractItemView::SingleSelection);
    setViewMode(QListView::IconMode);
    setFlow(QListView::LeftToRight);
    setWrapping(true);
    setResizeMode(QListView::Adjust);
    // setMovement(Static) turns dragging off, so drag support is enabled after it.
    setMovement(QListView::Static);
    setDragEnabled(true);
    setDragDropMode(QAbstractItemView::DragOnly);
    setDefaultDropAction(Qt::CopyAction);
    fitGrid();
    connect(&InterfaceScale::instance(), &InterfaceScale::changed, this, &BlockPalette::fitGrid);
    setSizePolicy(sizePolicy().horizontalPolicy(), QSizePolicy::Maximum);
    setWordWrap(true);
    setSpacing(2);
    setToolTip(tr("Drag a block onto the dimension stack (or double-click to append it)"));

    using K = BlockKind;
    const auto dim = [](K kind, int size) { return astraDimension(kind, size, 50, 500); };
    addBlock(tr("Ring"), tr("Bidirectional ring: each NPU links to two neighbours"),
             {dim(K::Ring, 4)});
    addBlock(tr("Fully connected"),
             tr("FullyConnected: a dedicated link between every pair of NPUs"),
             {dim(K::FullyConnected, 4)});
    addBlock(tr("Switch"), tr("Every NPU links once to a non-blocking switch"),
             {dim(K::Switch, 8)});
    addBlock(tr("2-D mesh 3\u00d73"),
             tr("ASTRA-sim has no mesh block: a mesh is modelled as Ring \u00d7 Ring (its "
                "wrap-around links make it a torus in the simulation)"),
             {dim(K::Ring, 3), dim(K::Ring, 3)}, false);
    addBlock(tr("2-D torus 4\u00d74"), tr("Ring \u00d7 Ring"), {dim(K::Ring, 4), dim(K::Ring, 4)});
    addBlock(tr("3-D torus 4\u00d74\u00d74"), tr("Ring \u00d7 Ring \u00d7 Ring"),
             {dim(K::Ring, 4), dim(K::Ring, 4), dim(K::Ring, 4)});

    connect(this, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit blockActivated(dimensionsOf(item)); });
}

void BlockPalette::addBlock(const QString& label, const QString& tip,
                            std::vector<DimensionSpec> dims, bool torus) {
    auto* item = new QListWidgetItem(blockIcon(dims, torus), label, this);
    item->setToolTip(tip);
    item->setData(kDimsRole, encodeDimensions(dims));
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
}

void BlockPalette::fitGrid() {
    // A cell holds the drawing and two lines of its label ("Fully / connected") in the font of
    // the moment, so no label runs past its cell at any interface scale.
    const int icon = InterfaceScale::px(40);
    setIconSize(QSize(icon, icon));
    const int lines = 2 * fontMetrics().lineSpacing();
    setGridSize(QSize(std::max(InterfaceScale::px(96),
                               fontMetrics().horizontalAdvance(QStringLiteral("connected")) +
                                   InterfaceScale::px(12)),
                      icon + lines + InterfaceScale::px(10)));
    updateGeometry();
}

QSize BlockPalette::sizeHint() const {
    // Two rows of cells (the six blocks in three columns at the usual width); more scroll.
    return {QListWidget::sizeHint().width(), 2 * gridSize().height() + 2 * frameWidth() + 4};
}

QSize BlockPalette::minimumSizeHint() const {
    // One row where the window has no room for two (a large interface scale).
    return {QListWidget::minimumSizeHint().width(), gridSize().height() + 2 * frameWidth() + 4};
}

void BlockPalette::changeEvent(QEvent* event) {
    QListWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitGrid();
}

std::vector<DimensionSpec> BlockPalette::dimensionsOf(const QListWidgetItem* item) const {
    return item ? decodeDimensions(item->data(kDimsRole).toByteArray())
                : std::vector<DimensionSpec>{};
}

QListWidgetItem* BlockPalette::findBlock(const QString& label) const {
    for (int i = 0; i < count(); ++i)
        if (item(i)->text().startsWith(label))
            return item(i);
    return nullptr;
}

QStringList BlockPalette::mimeTypes() const {
    return {QString::fromLatin1(kBlockMimeType)};
}

QMimeData* BlockPalette::mimeData(const QList<QListWidgetItem*>& items) const {
    std::vector<DimensionSpec> dims;
    for (const QListWidgetItem* item : items) {
        const std::vector<DimensionSpec> more = dimensionsOf(item);
        dims.insert(dims.end(), more.begin(), more.end());
    }
    return makeBlockMimeData(dims);
}

void BlockPalette::startDrag(Qt::DropActions supportedActions) {
    m_lastDragPayload = encodeDimensions(dimensionsOf(currentItem()));
    QListWidget::startDrag(supportedActions);
}

} // namespace astrolabe::widgets
