#include "topology/TopologyDocument.h"

#include "spec/LogicalDimensions.h"
#include "topology/MemoryEditCommand.h"
#include "topology/MemoryTierMath.h"
#include "topology/PlatformEditCommand.h"

#include <QStringList>
#include <QUndoStack>
#include <algorithm>

namespace astrolabe::widgets {

TopologyDocument::TopologyDocument(QObject* parent)
    : QObject(parent)
    , m_undoStack(new QUndoStack(this)) {}

TopologyDocument::TopologyDocument(QUndoStack* sharedUndoStack, QObject* parent)
    : QObject(parent)
    , m_undoStack(sharedUndoStack) {}

void TopologyDocument::resetPlatform(const PlatformSpec& platform) {
    m_undoStack->clear();
    applyPlatform(platform);
    setSelectedDimension(-1);
}

void TopologyDocument::showPlatform(const PlatformSpec& platform) {
    if (platform != m_platform)
        applyPlatform(platform);
}

void TopologyDocument::setSelectedDimension(int dimension) {
    const int count = static_cast<int>(m_platform.dimensions.size());
    if (dimension < -1 || dimension >= count)
        dimension = -1;
    if (dimension >= 0)
        setMemorySelected(false);
    if (dimension == m_selected)
        return;
    m_selected = dimension;
    emit selectionChanged(m_selected);
}

void TopologyDocument::showMemory(const RemoteMemoryConfig& memory) {
    if (memory != m_memory)
        applyMemory(memory);
}

void TopologyDocument::setMemorySelected(bool selected) {
    selected = selected && hasMemoryTier(m_memory);
    if (selected)
        setSelectedDimension(-1);
    if (selected == m_memorySelected)
        return;
    m_memorySelected = selected;
    emit memorySelectionChanged(selected);
}

void TopologyDocument::applyMemory(const RemoteMemoryConfig& memory) {
    m_memory = memory;
    if (!hasMemoryTier(m_memory))
        setMemorySelected(false);
    emit memoryChanged();
}

void TopologyDocument::editMemory(const RemoteMemoryConfig& memory, const QString& text,
                                  int mergeKey) {
    if (memory == m_memory)
        return;
    m_undoStack->push(new MemoryEditCommand(this, m_memory, memory, text, mergeKey));
}

void TopologyDocument::applyPlatform(const PlatformSpec& platform) {
    const std::string source = m_platform.sourceFile;
    m_platform = platform;
    if (m_platform.sourceFile.empty())
        m_platform.sourceFile = source;
    if (m_selected >= static_cast<int>(m_platform.dimensions.size()))
        setSelectedDimension(static_cast<int>(m_platform.dimensions.size()) - 1);
    emit platformChanged();
}

void TopologyDocument::replacePlatform(const PlatformSpec& platform, const QString& text) {
    if (platform == m_platform)
        return;
    m_undoStack->push(new PlatformEditCommand(this, m_platform, platform, text));
}

void TopologyDocument::insertDimensions(int index, const std::vector<DimensionSpec>& dimensions) {
    if (dimensions.empty())
        return;
    PlatformSpec next = m_platform;
    index = std::clamp(index, 0, static_cast<int>(next.dimensions.size()));
    next.dimensions.insert(next.dimensions.begin() + index, dimensions.begin(), dimensions.end());
    const QString text =
        dimensions.size() == 1
            ? tr("Add %1 dimension").arg(QLatin1String(blockKindName(dimensions[0].kind)))
            : tr("Add %1 dimensions").arg(dimensions.size());
    m_undoStack->push(new PlatformEditCommand(this, m_platform, next, text, -1, index));
}

void TopologyDocument::removeDimension(int index) {
    if (index < 0 || index >= static_cast<int>(m_platform.dimensions.size()))
        return;
    PlatformSpec next = m_platform;
    next.dimensions.erase(next.dimensions.begin() + index);
    const int select = std::min(index, static_cast<int>(next.dimensions.size()) - 1);
    m_undoStack->push(new PlatformEditCommand(this, m_platform, next,
                                              tr("Remove dimension %1").arg(index), -1, select));
}

void TopologyDocument::moveDimension(int from, int insertionIndex) {
    const int count = static_cast<int>(m_platform.dimensions.size());
    if (from < 0 || from >= count)
        return;
    const int to =
        std::clamp(insertionIndex > from ? insertionIndex - 1 : insertionIndex, 0, count - 1);
    if (to == from)
        return;
    PlatformSpec next = m_platform;
    const DimensionSpec moved = next.dimensions[from];
    next.dimensions.erase(next.dimensions.begin() + from);
    next.dimensions.insert(next.dimensions.begin() + to, moved);
    m_undoStack->push(new PlatformEditCommand(
        this, m_platform, next, tr("Move dimension %1 to %2").arg(from).arg(to), -1, to));
}

void TopologyDocument::editDimension(int index, const DimensionSpec& dimension,
                                     DimensionField field) {
    if (index < 0 || index >= static_cast<int>(m_platform.dimensions.size()))
        return;
    if (m_platform.dimensions[index] == dimension)
        return;
    PlatformSpec next = m_platform;
    next.dimensions[index] = dimension;
    static const char* const names[] = {"", "kind", "size", "bandwidth", "latency"};
    const QString text = tr("Change %1 of dimension %2")
                             .arg(QLatin1String(names[static_cast<int>(field)]))
                             .arg(index);
    const int mergeKey = index * 8 + static_cast<int>(field);
    m_undoStack->push(new PlatformEditCommand(this, m_platform, next, text, mergeKey, index));
}

void TopologyDocument::editGraph(const GraphSpec& graph, const QString& text, int mergeKey) {
    if (!m_platform.graph || graph == *m_platform.graph)
        return;
    PlatformSpec next = m_platform;
    const bool defaultLogical =
        next.dimensions.size() == 1 && next.dimensions[0] == graphDimension(*m_platform.graph);
    next.graph = graph;
    if (defaultLogical || next.npuCount() != graph.npus)
        next.dimensions = {graphDimension(graph)};
    m_undoStack->push(new PlatformEditCommand(this, m_platform, next, text, mergeKey));
}

void TopologyDocument::editLogicalDimensions(const std::vector<int64_t>& sizes) {
    if (!m_platform.graph || !logicalDimensionsProblem(sizes, m_platform.graph->npus).empty())
        return;
    PlatformSpec next = m_platform;
    next.dimensions = logicalDimensions(*m_platform.graph, sizes);
    if (next == m_platform)
        return;
    QStringList text;
    for (int64_t size : sizes)
        text << QString::number(size);
    m_undoStack->push(new PlatformEditCommand(
        this, m_platform, next, tr("Logical dimensions %1").arg(text.join(QStringLiteral(" × "))),
        -1));
}

} // namespace astrolabe::widgets
