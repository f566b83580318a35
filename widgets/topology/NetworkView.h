#pragma once
// The drawing of the platform's network: NPUs and switches as nodes, links as edges, rings as
// circles, switches as hubs, higher dimensions as groups of tiles. Wheel zooms around the
// cursor, a left drag pans, a click selects a group (clicking again selects the enclosing one)
// and its dimension (so does a click on a legend line), double-click fits. The memory tier, when
// the project has one, is drawn under the NPUs (MemoryTierLayout); a click on it or on its
// legend line selects it. Hovering an NPU shows
// its id, coordinates and links. Painting is custom (NetworkPainter) rather than one QGraphicsItem
// per NPU: at 4,096 NPUs the per-item overhead would dominate, while culled batches stay within a
// frame.
//
// A graph platform (docs/graph-platforms.md) is drawn as its graph (GraphDrawing: the editor's
// arrangement, NPUs and switches with their links), its legend lists the logical dimensions the
// collectives use, and hovering names a device and its neighbours; the memory tier and group
// selection belong to dimension stacks.
#include "spec/MemoryConfig.h"
#include "spec/PlatformSpec.h"
#include "topology/GraphDrawing.h"
#include "topology/MemoryTierLayout.h"
#include "topology/NetworkLayout.h"
#include "topology/NetworkPainter.h"

#include <QRect>
#include <QStringList>
#include <QWidget>
#include <vector>

namespace astrolabe::widgets {

class NetworkView;

/// Something drawn over the network after it (in widget coordinates), e.g. the chunks of
/// "Watch a collective". Not owned by the view.
class NetworkOverlay {
public:
    virtual ~NetworkOverlay() = default;
    virtual void paint(QPainter& painter, const NetworkView& view) const = 0;
};

class NetworkView : public QWidget {
    Q_OBJECT
public:
    explicit NetworkView(QWidget* parent = nullptr);

    void setPlatform(const PlatformSpec& platform);
    const NetworkLayout& networkLayout() const { return m_layout; }
    /// The graph drawn instead of the stack's layout (null for a dimension stack).
    const GraphDrawing* graphDrawing() const { return m_graph.empty() ? nullptr : &m_graph; }
    /// The memory tier drawn under the NPUs (type none: nothing).
    void setMemory(const RemoteMemoryConfig& memory);
    const MemoryTierLayout& memoryTier() const { return m_tier; }
    void setMemorySelected(bool selected);
    bool memorySelected() const { return m_memorySelected; }
    MemoryTierLayout::Hit memoryHovered() const { return m_memoryHovered; }
    /// Memory boxes (or per-NPU boxes and tile bars) the last paint drew.
    int lastMemoryBoxes() const { return m_memoryBoxes; }
    /// The drawing's bounds in scene units: the network and its memory tier.
    QRectF drawingBounds() const;
    void setSelectedDimension(int dimension);
    int selectedDimension() const { return m_state.selectedDimension; }
    NetworkLayout::Hit selectedGroup() const { return m_state.selectedGroup; }
    NetworkLayout::Hit hovered() const { return m_state.hovered; }
    /// Graph platforms: the device under the mouse (-1: none).
    int hoveredDevice() const { return m_hoveredDevice; }

    /// Where the legend's box is (top-left, in widget coordinates).
    QRect legendRect() const { return legendBox(legendText(), font()); }
    double scale() const { return m_state.scale; }
    QPointF offset() const { return m_state.offset; }
    int collapseLevel() const { return m_state.collapseLevel; }
    void fitToView();
    /// How far fitting may enlarge a small platform (4 by default; the Watch tab allows more,
    /// so that an 8-NPU ring fills a projector's screen).
    void setMaxFitScale(double scale);
    void zoomBy(double factor, QPointF anchor);
    void panBy(QPointF delta);
    QPointF widgetToScene(QPointF pos) const;
    QPointF sceneToWidget(QPointF pos) const;

    /// "NPU 21 at (1, 1, 2)" and one line per dimension naming its links.
    QString describeNpu(int id) const;
    QString describeGroup(const NetworkLayout::Hit& group) const;
    NetworkPaintStats lastPaintStats() const { return m_stats; }
    /// Draws `overlay` (may be null) over the network from the next paint on.
    void setOverlay(const NetworkOverlay* overlay);

    QSize sizeHint() const override { return QSize(640, 480); }
    QSize minimumSizeHint() const override { return QSize(200, 160); }

signals:
    /// A click selected a group of this dimension (-1: the click cleared the selection).
    void dimensionClicked(int dimension);
    /// A click selected the memory tier (a box, the fabric or its legend line).
    void memoryClicked();
    void hoveredChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void updateCollapseLevel();
    void setHover(QPointF widgetPos);
    void selectAt(QPointF widgetPos);
    double fitScale() const;
    QRectF fitArea() const;
    /// The legend's lines (dimensions first, then the memory tier) and its footer.
    struct LegendText {
        QStringList lines;
        int dimensionLines = 0;
        QString footer;
    };
    LegendText legendText() const;
    static int legendTextWidth(const LegendText& text, const QFont& font);
    /// Where the legend's box is drawn (top-left) in `font`.
    static QRect legendBox(const LegendText& text, const QFont& font);
    void paintLegend(QPainter& painter);
    void paintInfo(QPainter& painter, const QString& text) const;

    PlatformSpec m_platform;
    NetworkLayout m_layout;
    GraphDrawing m_graph;
    int m_hoveredDevice = -1;
    NetworkViewState m_state;
    NetworkPaintStats m_stats;
    double m_maxFitScale = 4.0; ///< small platforms are not blown up to fill the view
    bool m_userMoved = false;   ///< once the user zooms or pans, resizes keep the view
    bool m_dragging = false;
    QPointF m_pressPos;
    QPointF m_lastPos;
    const NetworkOverlay* m_overlay = nullptr;
    std::vector<QRect> m_legendRows; ///< where each dimension's legend line was painted
    QRect m_memoryLegendRow;         ///< where the memory tier's legend line was painted
    MemoryTierLayout m_tier;
    bool m_memorySelected = false;
    MemoryTierLayout::Hit m_memoryHovered;
    int m_memoryBoxes = 0;
};

} // namespace astrolabe::widgets
