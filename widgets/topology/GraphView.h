#pragma once
// The drawing of a graph platform in the graph editor: NPUs as disks, switches as squares, links
// as lines (a torus' wrap-around links as two stubs) whose thickness and shade grow with bandwidth
// (log scale between the graph's lowest and highest), problem links red and dashed; a tooltip on
// every item names it, and a link's tooltip gives its bandwidth and latency. One QGraphicsItem per
// device and link: graphs are edited up to about a thousand devices, where the items cost a few
// milliseconds.
//
// Mouse: drag from one device to another to ask for a link between them (linkDragged);
// Shift+drag moves a device (deviceMoved: a place in the drawing only, not in the project); a click
// selects a device or link, Ctrl+click adds to the selection, a drag on the background selects
// everything in its rubber band; a double-click on a link selects it and asks for it to be
// edited where it is (linkDoubleClicked); the wheel zooms.
//
// The project's memory tier hangs under the graph as under a dimension stack's drawing
// (MemoryTierLayout): its boxes, fabric and links in one item under the devices, the tier's
// summary under it, a tooltip on each part.
#include "spec/GraphSpec.h"
#include "spec/MemoryConfig.h"

#include <QGraphicsView>
#include <set>
#include <vector>

class QGraphicsLineItem;

namespace astrolabe::widgets {

class MemoryTierLayout;
class MemoryTierItem;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    /// Larger graphs are not drawn (a message says so): their items would take seconds.
    static constexpr int kMaxDrawnDevices = 8192;
    static constexpr size_t kMaxDrawnLinks = 32768;

    explicit GraphView(QWidget* parent = nullptr);
    /// Quiets the scene first: its items, deleted with it, would report a selection change.
    ~GraphView() override;

    /// Rebuilds the items, keeping the selection. Links flagged in `wrap` (wrapLinks()) are drawn
    /// as two stubs out of their devices.
    void setGraph(const GraphSpec& graph, const std::vector<QPointF>& positions,
                  const std::set<int>& problemLinks, const std::vector<char>& wrap = {});
    /// The same with the memory tier to hang under it: the tier is built once, for this graph
    /// (setMemory then setGraph built it a first time under the graph being replaced).
    void setGraph(const GraphSpec& graph, const std::vector<QPointF>& positions,
                  const std::set<int>& problemLinks, const std::vector<char>& wrap,
                  const RemoteMemoryConfig& memory);
    /// The memory tier under the graph (none for memory type none); kept across setGraph.
    void setMemory(const RemoteMemoryConfig& memory);
    /// The tier drawn (null without a graph or a tier): for tests.
    const MemoryTierLayout* memoryTier() const;
    std::set<int> selectedDevices() const;
    std::set<int> selectedLinks() const;
    void select(const std::set<int>& devices, const std::set<int>& links);
    /// The item of a device or link (null if none): for tests and screenshots.
    QGraphicsItem* deviceItem(int device) const;
    QGraphicsItem* linkItem(int link) const;
    void fit();

signals:
    void linkDragged(int from, int to);
    void deviceMoved(int device, QPointF scenePos);
    void selectionChanged();
    /// A double-click on link `link` at `viewPos` (viewport coordinates); it is now selected.
    void linkDoubleClicked(int link, QPoint viewPos);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    int deviceAt(QPoint viewPos) const;
    /// The link drawn within a few pixels of viewPos (-1 if none).
    int linkAt(QPoint viewPos) const;
    void showSelection();
    /// (Re)places the memory tier's item under the devices drawn at m_positions.
    void placeMemoryTier();
    void fitSceneRect();

    std::vector<QGraphicsItem*> m_devices;
    std::vector<QGraphicsItem*> m_links;
    int m_dragFrom = -1;
    bool m_moving = false; ///< the drag from m_dragFrom moves it (Shift) rather than links
    QGraphicsLineItem* m_rubberLink = nullptr;
    bool m_userZoomed = false;
    RemoteMemoryConfig m_memory;
    std::vector<QPointF> m_positions; ///< of the graph drawn
    int m_npus = 0;
    MemoryTierItem* m_tier = nullptr;
    QGraphicsItem* m_tierSummary = nullptr;
};

} // namespace astrolabe::widgets
