#pragma once
// Paints a NetworkLayout at a given zoom with level of detail, culling and batching, so that a
// 4,096-NPU platform draws in a few milliseconds:
//   - only groups whose rectangle meets the viewport are visited (recursive culling);
//   - groups smaller than a few pixels collapse into one filled tile (the "collapse level");
//   - primitives are gathered per level and drawn in batches (drawLines, drawRects), with one
//     pen and brush per batch; small NPUs are squares without antialiasing.
// Edges of dimension d >= 1 join the centres of its child groups (a bundle standing for the
// parallel links between corresponding NPUs), except in a torus grid, whose two dimensions are
// drawn NPU to NPU with wrap-around stubs; hovering an NPU draws its actual links.
#include "spec/PlatformSpec.h"
#include "topology/NetworkLayout.h"

#include <QPointF>

class QColor;
class QPainter;

namespace astrolabe::widgets {

struct NetworkViewState {
    double scale = 1; ///< pixels per scene unit
    QPointF offset;   ///< widget position of scene (0, 0)
    int collapseLevel = 0;
    int selectedDimension = -1;
    NetworkLayout::Hit selectedGroup;
    NetworkLayout::Hit hovered;
};

struct NetworkPaintStats {
    int groupsVisited = 0;
    int tiles = 0;
    int nodes = 0;
    int lines = 0;
};

class NetworkPainter {
public:
    NetworkPainter(const NetworkLayout& layout, const PlatformSpec& platform);

    /// The lowest level still drawn in detail at this scale: 0 draws every NPU, l >= 1 draws
    /// level-l groups as tiles.
    static int collapseLevelFor(const NetworkLayout& layout, double scale);

    NetworkPaintStats paint(QPainter& painter, const QRectF& widgetRect,
                            const NetworkViewState& state) const;

    /// NPU ids `id` reaches in one hop of dimension d: ring neighbours, fully connected peers,
    /// or the NPUs on the same switch.
    std::vector<int> neighbours(int id, int dimension) const;

private:
    void paintHoveredNpu(QPainter& painter, const NetworkViewState& state) const;
    void paintOutline(QPainter& painter, const NetworkLayout::Hit& hit, const QColor& color,
                      double width) const;

    const NetworkLayout& m_layout;
    const PlatformSpec& m_platform;
};

} // namespace astrolabe::widgets
