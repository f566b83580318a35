#include "timeline/TimelinePalette.h"

#include "timeline/ColorKey.h"

namespace astrolabe::widgets {

namespace {
// Tableau 10: distinguishable for the common forms of colour blindness.
const QColor kCategorical[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
                               QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2),
                               QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
                               QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7),
                               QColor(0x9c, 0x75, 0x5f), QColor(0xba, 0xb0, 0xac)};
} // namespace

QColor TimelinePalette::dimension(int dimension) {
    static const QColor hues[] = {QColor(0x1b, 0x9e, 0x77), QColor(0xd9, 0x5f, 0x02),
                                  QColor(0x75, 0x70, 0xb3), QColor(0xe7, 0x29, 0x8a),
                                  QColor(0x66, 0xa6, 0x1e), QColor(0xe6, 0xab, 0x02),
                                  QColor(0xa6, 0x76, 0x1d)};
    if (dimension < 0)
        return QColor(0x66, 0x66, 0x66);
    return hues[dimension % 7];
}

QColor TimelinePalette::color(uint8_t key) {
    using namespace colorkey;
    switch (key) {
    case Compute:
        return kCategorical[0];
    case Memory:
        return kCategorical[3];
    case Cpu:
        return kCategorical[6];
    case Other:
        return kCategorical[9];
    case SendRecv:
        return kCategorical[7];
    case CommUnknown:
        return kCategorical[8];
    case Critical:
        return criticalOutline();
    case SearchMatch:
        return searchOutline();
    default:
        break;
    }
    if (key >= CollectiveBase && key < CollectiveBase + 10) {
        static const QColor collectives[] = {
            kCategorical[1],          // all-reduce
            QColor(0xc4, 0x4e, 0x52), // reduce
            kCategorical[4],          // all-gather
            QColor(0x8c, 0xd1, 0x7d), // gather
            QColor(0xd4, 0xa6, 0xc8), // scatter
            kCategorical[8],          // broadcast
            kCategorical[5],          // all-to-all
            kCategorical[2],          // reduce-scatter
            QColor(0xff, 0xbe, 0x7d), // reduce-scatter block
            QColor(0x79, 0x70, 0x6e), // barrier
        };
        return collectives[key - CollectiveBase];
    }
    if (key >= PhaseBase && key <= PhaseLast) {
        const int offset = key - PhaseBase;
        const QColor hue = dimension(offset / 4 - 1);
        return (offset % 2) ? hue.lighter(140) : hue;
    }
    return kCategorical[9];
}

std::vector<TimelinePalette::LegendEntry> TimelinePalette::legend() {
    using namespace colorkey;
    return {{QStringLiteral("compute"), color(Compute)},
            {QStringLiteral("memory"), color(Memory)},
            {QStringLiteral("cpu"), color(Cpu)},
            {QStringLiteral("all-reduce"), color(forCollective(CollectiveType::AllReduce))},
            {QStringLiteral("reduce-scatter"), color(forCollective(CollectiveType::ReduceScatter))},
            {QStringLiteral("all-gather"), color(forCollective(CollectiveType::AllGather))},
            {QStringLiteral("all-to-all"), color(forCollective(CollectiveType::AllToAll))},
            {QStringLiteral("send/recv"), color(SendRecv)},
            {QStringLiteral("idle"), idle()},
            {QStringLiteral("phase dim 0"), dimension(0)},
            {QStringLiteral("phase dim 1"), dimension(1)},
            {QStringLiteral("phase dim 2"), dimension(2)}};
}

} // namespace astrolabe::widgets
