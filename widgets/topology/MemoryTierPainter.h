#pragma once
// Paints the memory tier of a MemoryTierLayout with the network drawing, in passes: links
// before the network (its groups' backgrounds hide them inside the platform), boxes and fabric
// after it, then labels (a thumbnail leaves them out). Bandwidths and latencies are written by
// core/Units (so View > Units applies), in the legend's style.
#include "spec/MemoryConfig.h"
#include "topology/MemoryTierLayout.h"
#include "topology/NetworkPainter.h"

#include <QColor>
#include <QString>

class QPainter;

namespace astrolabe::widgets {

/// The tier's colour in the drawing, the legend and the stack panel.
QColor memoryTierColor();

/// "Pooled (HierMem): 16 groups × 100 GB/s, ports 256 GB/s, 1 µs" (the legend's line).
QString memoryTierSummary(const RemoteMemoryConfig& memory, int64_t npus);
/// The hover text of a box, the fabric or an NPU's memory box.
QString describeMemoryHit(const MemoryTierLayout& tier, const MemoryTierLayout::Hit& hit,
                          int64_t npus);
/// "memory: group 3 (3 mod 16)": the line an NPU's hover text adds; empty without a tier.
QString describeNpuMemory(const RemoteMemoryConfig& memory, int64_t npus, int npu);

/// Links of the tier (scene to widget by state); call before painting the network.
void paintMemoryLinks(QPainter& p, const MemoryTierLayout& tier, const NetworkViewState& state);
/// Boxes, fabric and per-NPU boxes (culled to widgetRect, aggregated as the NPUs are at
/// state.collapseLevel); returns the number of boxes drawn. Labels: paintMemoryTierLabels.
int paintMemoryTier(QPainter& p, const NetworkLayout& layout, const MemoryTierLayout& tier,
                    const NetworkViewState& state, const QRectF& widgetRect, bool selected,
                    const MemoryTierLayout::Hit& hovered);
/// The same under NPUs drawn at `sites` (a graph platform), one box per NPU for per-npu.
int paintMemoryTier(QPainter& p, const NpuSites& sites, const MemoryTierLayout& tier,
                    const NetworkViewState& state, const QRectF& widgetRect, bool selected,
                    const MemoryTierLayout::Hit& hovered);
/// The boxes' names where they fit and the lines under the band, at the legend's size.
void paintMemoryTierLabels(QPainter& p, const MemoryTierLayout& tier, int64_t npus,
                           const NetworkViewState& state, const QRectF& widgetRect);

} // namespace astrolabe::widgets
