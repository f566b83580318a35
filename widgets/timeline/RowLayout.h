#pragma once
// The timeline's rows: one per NPU, grouped by dimension coordinates. Dimension 0 varies fastest
// in NPU ids, so the NPUs sharing every coordinate above dimension k form a contiguous id range
// of size d0 * ... * d(k-1): a group is (level k, first NPU). Level 1 groups are "nodes", level 2
// "pods" (when there are three or more dimensions). A collapsed group is one row that aggregates
// its NPUs. Pure (no Qt), unit-tested.

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe::widgets {

struct DisplayRow {
    enum class Kind : uint8_t { Npu, Group };
    Kind kind = Kind::Npu;
    int level = 0; ///< dimension of a group; 0 for an NPU
    int depth = 0; ///< indentation
    int firstNpu = 0;
    int npuCount = 1;
    int coordinate = 0; ///< the group's coordinate in its dimension, or the NPU id
    bool collapsed = false;
    int top = 0; ///< pixels from the top of the row area
    int height = 0;
};

class RowLayout {
public:
    static constexpr int kNpuRowHeight = 26;
    static constexpr int kGroupRowHeight = 20;
    static constexpr int kCollapsedGroupRowHeight = 26;

    /// Row heights are the k*RowHeight constants times `scale` (presentation mode), rounded.
    void setScale(double scale);
    double scale() const { return m_scale; }
    int npuRowHeight() const;

    /// Dimension sizes (dim 0 first). When their product differs from npuCount, rows are flat.
    void setDimensions(const std::vector<int>& sizes, int npuCount);
    const std::vector<int>& dimensions() const { return m_sizes; }
    int npuCount() const { return m_npuCount; }

    const std::vector<DisplayRow>& rows() const { return m_rows; }
    int totalHeight() const { return m_totalHeight; }
    /// The display row at y (pixels from the top), or -1.
    int rowAt(int y) const;
    /// The display row showing `npu` (its collapsed group if hidden), or -1.
    int rowOfNpu(int npu) const;
    std::string label(const DisplayRow& row) const;

    bool isCollapsed(int level, int firstNpu) const;
    void setCollapsed(int level, int firstNpu, bool collapsed);
    void toggle(int displayRow);
    /// Collapses (or expands) every group of a level; level 0 means all levels.
    void setAllCollapsed(bool collapsed, int level = 0);
    /// Expands the groups that hide `npu`.
    void reveal(int npu);
    /// Changes whenever rows() changes.
    uint64_t version() const { return m_version; }

private:
    void rebuild();
    void addGroup(int level, int firstNpu, int depth);
    int groupSize(int level) const;

    std::vector<int> m_sizes;
    int m_npuCount = 0;
    std::set<std::pair<int, int>> m_collapsed; ///< (level, first NPU)
    std::vector<DisplayRow> m_rows;
    int m_totalHeight = 0;
    double m_scale = 1.0;
    uint64_t m_version = 0;
};

} // namespace astrolabe::widgets
