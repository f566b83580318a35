#pragma once
// Where the memory tier (the project's `memory:` section, docs/memory-tiers.md) sits in the
// drawing of the platform, in NetworkLayout's scene units. Built once per platform and tier.
//
//   per-npu   a small box under each NPU (npuMemoryRect); where NPUs collapse into tiles, one
//             bar along the bottom of each tile (tileMemoryRect): the boxes aggregate as the
//             NPUs do;
//   per-node  a band under the platform with one box per node, linked to the node's NPUs;
//   pool      one box under the platform, linked to every NPU;
//   pooled    the in-node pooled fabric as a bar under the platform, each NPU's port a link
//             into it, and the memory groups as boxes under the fabric.
// At most kMaxDrawnBoxes boxes are drawn: beyond that each box stands for `per` consecutive
// devices (nodes k..k+per-1, groups g..g+per-1). At most kMaxNpuLinks NPUs are linked one by
// one; a larger platform gets kMaxNpuLinks links from NPUs spread evenly over its ids to a pool,
// one link from the centre of its NPUs to each per-node box, and a comb of 64 port lines across
// the platform's width into the pooled fabric, so the drawing stays legible and cheap.
// Links are drawn under the network: the groups' backgrounds hide them inside the platform and
// they leave it at its edge. The same tier hangs under a dimension stack's drawing
// (NetworkLayout) and under a graph platform's (the graph editor's positions): both are given
// to it as NpuSites.
#include "spec/MemoryConfig.h"
#include "topology/NetworkLayout.h"

#include <QLineF>
#include <QRectF>
#include <functional>
#include <vector>

namespace astrolabe::widgets {

/// Where a drawing puts a platform's NPUs: how many, the drawing's bounds and each NPU's centre
/// (scene units).
struct NpuSites {
    int64_t count = 0;
    QRectF bounds;
    std::function<QPointF(int64_t)> at;

    /// The stack drawing's NPUs (none when it is not drawable); refers to `layout`.
    static NpuSites of(const NetworkLayout& layout);
    /// The first `npus` of `positions` (a graph's devices: NPUs first); bounds as given, or
    /// those of every position when empty. Copies the positions.
    static NpuSites of(const std::vector<QPointF>& positions, int64_t npus, QRectF bounds = {});
};

class MemoryTierLayout {
public:
    static constexpr int kMaxDrawnBoxes = 32;
    static constexpr int kMaxNpuLinks = 256;

    /// One box: devices first .. first + count - 1.
    struct Box {
        QRectF rect;
        int64_t first = 0;
        int64_t count = 1;
    };

    struct Hit {
        enum class Part : uint8_t { None, Box, Fabric, NpuMemory };
        Part part = Part::None;
        int64_t index = -1; ///< the box's index, or the NPU whose memory box was hit
        bool operator==(const Hit&) const = default;
    };

    MemoryTierLayout() = default;
    MemoryTierLayout(const NpuSites& sites, const RemoteMemoryConfig& memory);
    MemoryTierLayout(const NetworkLayout& layout, const RemoteMemoryConfig& memory)
        : MemoryTierLayout(NpuSites::of(layout), memory) {}

    bool present() const { return m_present; }
    const RemoteMemoryConfig& memory() const { return m_memory; }
    /// Devices the tier has (memoryDeviceCount), not boxes drawn.
    int64_t deviceCount() const { return m_deviceCount; }
    /// The boxes under the platform (per-node, pool, pooled); none for per-npu.
    const std::vector<Box>& boxes() const { return m_boxes; }
    /// Devices per box (1 when every device has its own box).
    int64_t devicesPerBox() const { return m_perBox; }
    /// Pooled: the in-node pooled fabric; empty otherwise.
    QRectF fabric() const { return m_fabric; }
    /// The band under the platform holding the fabric and the boxes; per-npu: the strip of
    /// memory boxes under the platform's lowest NPUs.
    QRectF band() const { return m_band; }
    /// NPU-to-box, NPU-to-fabric and box-to-fabric links (scene units).
    const std::vector<QLineF>& links() const { return m_links; }
    /// The drawing's bounds with the tier: the platform's and the band's.
    QRectF bounds() const;

    static QRectF npuMemoryRect(QPointF npuCentre);
    static QRectF tileMemoryRect(const QRectF& tile);

    /// What of the tier is at `point`: a box, the fabric or, per-npu at NPU detail
    /// (collapseLevel 0), the memory box of an NPU.
    Hit hitTest(const NetworkLayout& layout, QPointF point, int collapseLevel) const;
    /// The same for NPUs drawn at `sites` (always at detail).
    Hit hitTest(const NpuSites& sites, QPointF point) const;

private:
    void placeBoxes(const QRectF& platform, double top, double width);
    void linkNpus(const NpuSites& sites);
    /// A box or the fabric at `point`.
    Hit hitBand(QPointF point) const;

    RemoteMemoryConfig m_memory;
    QRectF m_platform;
    bool m_present = false;
    int64_t m_deviceCount = 0;
    int64_t m_perBox = 1;
    std::vector<Box> m_boxes;
    QRectF m_fabric;
    QRectF m_band;
    std::vector<QLineF> m_links;
};

} // namespace astrolabe::widgets
