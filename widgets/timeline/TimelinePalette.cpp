#include "timeline/TimelinePalette.h"

#include "core/Collectives.h"
#include "timeline/ColorKey.h"

#include <algorithm>
#include <array>

namespace astrolabe::widgets {

namespace {
using CT = CollectiveType;

constexpr const char* nameOf(CollectiveType type) {
    return kCollectives[static_cast<size_t>(type)].name;
}

struct KindColor {
    const char* label;
    QRgb rgb;
};

// Legend order: work lane first, then communication from the most to the least common. The
// first seven are Okabe–Ito as published; the rest are variants of its hues chosen by a search
// that maximised the smallest CIEDE2000 distance to everything above (normal vision and the
// deuteranopia / protanopia simulations), with lightness kept in L* 38..88 so that the black
// critical-path outline stands out on every fill.
enum Kind {
    KCompute,
    KMemory,
    KCpu,
    KOther, // also communication without a known collective
    KAllReduce,
    KAllGather,
    KReduceScatter,
    KAllToAll,
    KSendRecv,
    KReduce,
    KGather,
    KScatter,
    KBroadcast,
    KReduceScatterBlock,
    KBarrier,
    KKindCount
};
constexpr std::array<KindColor, KKindCount> kKinds = {{
    {"compute", qRgb(0x00, 0x72, 0xb2)},                      // Okabe–Ito blue
    {"memory", qRgb(0xf0, 0xe4, 0x42)},                       // Okabe–Ito yellow
    {"cpu", qRgb(0xd8, 0xb5, 0xc6)},                          // light reddish purple
    {"other", qRgb(0x86, 0x86, 0x86)},                        // mid grey
    {nameOf(CT::AllReduce), qRgb(0xe6, 0x9f, 0x00)},          // Okabe–Ito orange
    {nameOf(CT::AllGather), qRgb(0x56, 0xb4, 0xe9)},          // Okabe–Ito sky blue
    {nameOf(CT::ReduceScatter), qRgb(0xd5, 0x5e, 0x00)},      // Okabe–Ito vermillion
    {nameOf(CT::AllToAll), qRgb(0xcc, 0x79, 0xa7)},           // Okabe–Ito reddish purple
    {"send/recv", qRgb(0x00, 0x9e, 0x73)},                    // Okabe–Ito bluish green
    {nameOf(CT::Reduce), qRgb(0x86, 0x67, 0x77)},             // dark greyed reddish purple
    {nameOf(CT::Gather), qRgb(0xfc, 0xa8, 0x77)},             // light vermillion
    {nameOf(CT::Scatter), qRgb(0x93, 0x8b, 0x46)},            // dark greyed yellow (olive)
    {nameOf(CT::Broadcast), qRgb(0x58, 0xd6, 0xa7)},          // light bluish green
    {nameOf(CT::ReduceScatterBlock), qRgb(0x73, 0x56, 0x2a)}, // dark orange (brown)
    {nameOf(CT::Barrier), qRgb(0x59, 0x59, 0x59)},            // dark grey
}};

Kind kindOfCollective(uint8_t type) {
    static constexpr Kind kinds[] = {
        KAllReduce, KReduce,        KAllGather,          KGather, KScatter, KBroadcast,
        KAllToAll,  KReduceScatter, KReduceScatterBlock, KBarrier};
    return type < 10 ? kinds[type] : KOther;
}

/// The legend entry a colour key is drawn as.
Kind kindOf(uint8_t key) {
    using namespace colorkey;
    switch (key) {
    case Compute:
        return KCompute;
    case Memory:
        return KMemory;
    case Cpu:
        return KCpu;
    case SendRecv:
        return KSendRecv;
    case Other:
    case CommUnknown:
        return KOther;
    default:
        break;
    }
    if (key >= CollectiveBase && key < CollectiveBase + 10)
        return kindOfCollective(static_cast<uint8_t>(key - CollectiveBase));
    if (key >= PhaseBase && key <= PhaseLast)
        return kindOf(collectiveOfPhase(key));
    return KOther;
}

TimelinePalette::LegendEntry entry(Kind kind) {
    return {QString::fromLatin1(kKinds[kind].label), QColor(kKinds[kind].rgb), false};
}
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
    switch (key) {
    case colorkey::Critical:
        return criticalOutline();
    case colorkey::SearchMatch:
        return searchOutline();
    default:
        return QColor(kKinds[kindOf(key)].rgb);
    }
}

std::vector<TimelinePalette::LegendEntry>
TimelinePalette::legend(std::span<const uint8_t> presentKeys, bool withIdle,
                        bool withCriticalPath) {
    std::array<bool, KKindCount> present{};
    for (uint8_t key : presentKeys)
        if (key != colorkey::Critical && key != colorkey::SearchMatch)
            present[kindOf(key)] = true;
    std::vector<LegendEntry> entries;
    for (int kind = 0; kind < KKindCount; ++kind)
        if (present[kind])
            entries.push_back(entry(static_cast<Kind>(kind)));
    if (withIdle)
        entries.push_back({QStringLiteral("idle"), idle(), false});
    if (withCriticalPath)
        entries.push_back({QStringLiteral("critical path"), criticalOutline(), true});
    return entries;
}

std::vector<TimelinePalette::LegendEntry> TimelinePalette::allEntries() {
    std::vector<LegendEntry> entries;
    for (int kind = 0; kind < KKindCount; ++kind)
        entries.push_back(entry(static_cast<Kind>(kind)));
    entries.push_back({QStringLiteral("idle"), idle(), false});
    entries.push_back({QStringLiteral("critical path"), criticalOutline(), true});
    return entries;
}

QString TimelinePalette::legendHtml(const std::vector<LegendEntry>& entries, bool searching,
                                    bool groups) {
    QString html;
    for (const LegendEntry& entry : entries)
        html += QStringLiteral("<span style='color:%1'>%2</span>&nbsp;%3&nbsp;&nbsp; ")
                    .arg(entry.color.name(),
                         entry.outline ? QStringLiteral("&#9635;") : QStringLiteral("&#9632;"),
                         entry.outline ? entry.label + QStringLiteral(" (outline)") : entry.label);
    if (searching)
        html += QStringLiteral("<span style='color:%1'>&#9633;</span>&nbsp;search match "
                               "(dotted outline)&nbsp;&nbsp; ")
                    .arg(searchOutline().name());
    if (groups)
        html += QStringLiteral("collapsed groups: shade = busy share of the group's NPUs "
                               "(compute above, communication below)");
    return html;
}

} // namespace astrolabe::widgets
