#pragma once
// Where every NPU, group and switch of a platform sits in the drawing (scene units; an NPU is a
// disk of radius kNodeRadius). Built once per platform in O(sum of sizes); positions are derived
// on demand, so a 4,096-NPU platform costs a few kilobytes, not one object per NPU.
//
// Levels: a level-0 group is one NPU; a level-l group (l >= 1) holds size(d) groups of level
// l - 1, arranged by dimension d = l - 1's block: NPUs on a circle (rings, fully connected
// blocks and switches, whose hub sits at the centre); groups of groups on a circle when there
// are 3 to 6 of them, else on a grid in snake order so that ring neighbours stay side by side
// (a switch's hub then sits above the grid). The whole platform is the top group,
// centred on (0, 0). Child i of a group holds coordinate a_d = i (dimension 0 fastest), so the
// first NPU of child i is firstId + i * npusPerGroup(l - 1).
//
// Tori: when dimensions 0 and 1 are both rings, their NPUs sit on one grid, as a torus is drawn
// on paper: NPU (x, y) in column x and row y, at kGridPitch in both directions. Level 1 is a row
// (a ring of dimension 0), level 2 the rows stacked (the rings of dimension 1 are its columns).
// Links join adjacent cells; a ring's wrap-around link, which would run across its whole row or
// column, is drawn as two stubs pointing out of the grid at both ends (wrapStubs). Higher
// dimensions group whole grids as above.
#include "spec/PlatformSpec.h"

#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <array>
#include <cstdint>
#include <vector>

namespace astrolabe::widgets {

class NetworkLayout {
public:
    static constexpr double kNodeRadius = 6.0;
    /// Larger platforms are not drawn (the figures still are).
    static constexpr int kMaxDrawableNpus = 1 << 16;
    /// Distance between neighbouring NPUs of a torus grid, along x and along y.
    static constexpr double kGridPitch = 4 * kNodeRadius;
    /// How far a wrap-around stub reaches from its NPU's centre.
    static constexpr double kWrapStubLength = 0.95 * kGridPitch;

    /// How a level places its children.
    enum class Arrangement : uint8_t {
        Circle,  ///< on a circle (a switch's hub at its centre)
        Tiles,   ///< groups on a grid in snake order (a switch's hub above it)
        GridRow, ///< NPUs on a line along x: a ring of dimension 0 in a torus grid
        Grid,    ///< GridRows stacked along y: the torus grid of dimensions 0 and 1
    };

    struct Level {
        BlockKind kind = BlockKind::Ring; ///< block of dimension level - 1
        Arrangement arrangement = Arrangement::Circle;
        int childCount = 1;
        int npusPerGroup = 1; ///< NPUs inside one group of this level
        bool circular = true; ///< a disk of radius halfWidth; else a rounded rectangle
        double halfWidth = kNodeRadius;
        double halfHeight = kNodeRadius;
        std::vector<QPointF> childOffsets; ///< child centres relative to the group centre
        bool hasHub = false;               ///< a switch drawn at hubOffset
        QPointF hubOffset;
        double hubHalf = 0;
        double boundRadius() const;
    };

    struct Hit {
        int level = -1; ///< -1 nothing, 0 an NPU, l >= 1 a group of that level
        int firstId = -1;
        bool operator==(const Hit&) const = default;
    };

    /// A link of a torus grid between NPUs from and to. A wrap link joins the last NPU of its row
    /// or column (from) to the first (to).
    struct GridLink {
        int from = 0;
        int to = 0;
        int dimension = 0; ///< 0 along a row, 1 along a column
        bool wrap = false;
        QLineF line; ///< centre of from to centre of to
    };

    NetworkLayout() = default;
    explicit NetworkLayout(const PlatformSpec& platform);

    bool drawable() const { return m_drawable; }
    int npuCount() const { return m_npuCount; }
    int dimensionCount() const { return static_cast<int>(m_levels.size()) - 1; }
    /// Levels 0 (an NPU) to dimensionCount() (the whole platform).
    const Level& level(int l) const { return m_levels.at(static_cast<size_t>(l)); }
    int topLevel() const { return dimensionCount(); }

    QRectF bounds() const { return groupRect(topLevel(), QPointF()); }
    QRectF groupRect(int level, QPointF centre) const;
    bool groupContains(int level, QPointF centre, QPointF point) const;

    std::vector<int> coordinates(int id) const;
    /// Centre of the level-l group that contains NPU id (l = 0: the NPU itself).
    QPointF groupCentre(int level, int id) const;
    QPointF npuPosition(int id) const { return groupCentre(0, id); }
    /// Whether dimensions 0 and 1 form a torus grid (levels 1 and 2 are GridRow and Grid).
    bool hasTorusGrid() const;
    /// The links of dimensions 0 and 1 of the grid centred on centre whose first NPU is firstId,
    /// those that may show in visible (scene units), appended to out. O(NPUs of the grid).
    void appendGridLinks(QPointF centre, int firstId, const QRectF& visible,
                         std::vector<GridLink>& out) const;
    /// Every link of the grid that holds NPU id.
    std::vector<GridLink> gridLinks(int id) const;
    /// The two stubs standing for a wrap link from last to first: one out of each NPU, pointing
    /// away from the other, kWrapStubLength long.
    static std::array<QLineF, 2> wrapStubs(QPointF last, QPointF first);

    /// The deepest group under point, not below stopLevel (groups drawn as tiles stop there).
    Hit hitTest(QPointF point, int stopLevel = 0) const;

private:
    std::vector<Level> m_levels;
    int m_npuCount = 0;
    bool m_drawable = false;
};

} // namespace astrolabe::widgets
