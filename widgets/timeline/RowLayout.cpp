#include "timeline/RowLayout.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

void RowLayout::setDimensions(const std::vector<int>& sizes, int npuCount) {
    int64_t product = sizes.empty() ? 0 : 1;
    for (int size : sizes)
        product *= std::max(size, 1);
    m_sizes = product == npuCount ? sizes : std::vector<int>{npuCount};
    m_npuCount = npuCount;
    m_collapsed.clear();
    rebuild();
}

int RowLayout::groupSize(int level) const {
    int size = 1;
    for (int k = 0; k < level && k < static_cast<int>(m_sizes.size()); ++k)
        size *= m_sizes[k];
    return size;
}

void RowLayout::rebuild() {
    m_rows.clear();
    const int levels = static_cast<int>(m_sizes.size());
    if (levels <= 1) {
        for (int npu = 0; npu < m_npuCount; ++npu)
            m_rows.push_back({DisplayRow::Kind::Npu, 0, 0, npu, 1, npu, false, 0, 0});
    } else {
        const int top = levels - 1;
        const int size = groupSize(top);
        for (int first = 0; first < m_npuCount; first += size)
            addGroup(top, first, 0);
    }
    int y = 0;
    for (DisplayRow& row : m_rows) {
        row.top = y;
        const int base = row.kind == DisplayRow::Kind::Npu ? kNpuRowHeight
                         : row.collapsed                   ? kCollapsedGroupRowHeight
                                                           : kGroupRowHeight;
        row.height = static_cast<int>(std::lround(base * m_scale));
        y += row.height;
    }
    m_totalHeight = y;
    ++m_version;
}

void RowLayout::setScale(double scale) {
    if (scale == m_scale)
        return;
    m_scale = scale;
    rebuild();
}

int RowLayout::npuRowHeight() const {
    return static_cast<int>(std::lround(kNpuRowHeight * m_scale));
}

void RowLayout::addGroup(int level, int firstNpu, int depth) {
    const int size = groupSize(level);
    const bool collapsed = isCollapsed(level, firstNpu);
    m_rows.push_back({DisplayRow::Kind::Group, level, depth, firstNpu,
                      std::min(size, m_npuCount - firstNpu), firstNpu / size % m_sizes[level],
                      collapsed, 0, 0});
    if (collapsed)
        return;
    const int end = std::min(firstNpu + size, m_npuCount);
    if (level == 1) {
        for (int npu = firstNpu; npu < end; ++npu)
            m_rows.push_back({DisplayRow::Kind::Npu, 0, depth + 1, npu, 1, npu, false, 0, 0});
        return;
    }
    const int childSize = groupSize(level - 1);
    for (int child = firstNpu; child < end; child += childSize)
        addGroup(level - 1, child, depth + 1);
}

int RowLayout::rowAt(int y) const {
    if (y < 0 || y >= m_totalHeight)
        return -1;
    const auto it =
        std::upper_bound(m_rows.begin(), m_rows.end(), y,
                         [](int value, const DisplayRow& row) { return value < row.top; });
    return static_cast<int>(it - m_rows.begin()) - 1;
}

int RowLayout::rowOfNpu(int npu) const {
    // Rows are in NPU order; the last row starting at or before npu either is it or contains it.
    const auto it =
        std::upper_bound(m_rows.begin(), m_rows.end(), npu,
                         [](int value, const DisplayRow& row) { return value < row.firstNpu; });
    for (auto row = it; row != m_rows.begin();) {
        --row;
        if (npu >= row->firstNpu && npu < row->firstNpu + row->npuCount &&
            (row->kind == DisplayRow::Kind::Npu || row->collapsed))
            return static_cast<int>(row - m_rows.begin());
        if (row->firstNpu + row->npuCount <= npu && row->kind == DisplayRow::Kind::Group)
            break;
    }
    return -1;
}

std::string RowLayout::label(const DisplayRow& row) const {
    if (row.kind == DisplayRow::Kind::Npu)
        return "NPU " + std::to_string(row.firstNpu);
    std::string name = row.level == 1   ? std::string("node ")
                       : row.level == 2 ? std::string("pod ")
                                        : "dim" + std::to_string(row.level) + " ";
    name += std::to_string(row.coordinate);
    name += " (" + std::to_string(row.npuCount) + " NPUs)";
    return name;
}

bool RowLayout::isCollapsed(int level, int firstNpu) const {
    return m_collapsed.count({level, firstNpu}) != 0;
}

void RowLayout::setCollapsed(int level, int firstNpu, bool collapsed) {
    if (collapsed)
        m_collapsed.insert({level, firstNpu});
    else
        m_collapsed.erase({level, firstNpu});
    rebuild();
}

void RowLayout::toggle(int displayRow) {
    if (displayRow < 0 || displayRow >= static_cast<int>(m_rows.size()))
        return;
    const DisplayRow row = m_rows[displayRow];
    if (row.kind == DisplayRow::Kind::Group)
        setCollapsed(row.level, row.firstNpu, !row.collapsed);
}

void RowLayout::setAllCollapsed(bool collapsed, int level) {
    m_collapsed.clear();
    if (collapsed) {
        for (int k = 1; k < static_cast<int>(m_sizes.size()); ++k) {
            if (level != 0 && k != level)
                continue;
            const int size = groupSize(k);
            for (int first = 0; first < m_npuCount; first += size)
                m_collapsed.insert({k, first});
        }
    }
    rebuild();
}

void RowLayout::reveal(int npu) {
    bool changed = false;
    for (int k = 1; k < static_cast<int>(m_sizes.size()); ++k) {
        const int size = groupSize(k);
        changed |= m_collapsed.erase({k, npu / size * size}) != 0;
    }
    if (changed)
        rebuild();
}

} // namespace astrolabe::widgets
