#pragma once
// Colours of the timeline, by colour key (see ColorKey.h), and its legend.
//
// Activity kinds use the Okabe–Ito colours (Okabe & Ito 2008, "Color Universal Design"), which
// stay apart for the common forms of colour blindness. Sixteen kinds need more than its seven
// hues: the rarer kinds use lightness and chroma variants of those hues (and two greys), picked
// so that every pair of legend entries, the critical-path outline included, is at least
// CIEDE2000 15 apart in normal vision and 7.5 apart under the Machado et al. (2009) deuteranopia
// and protanopia simulations; tests/widgets/timeline/TimelinePaletteTest.cpp checks it.
//
// A colour means one thing: the critical path is a black outline around the bar, not a fill,
// and a collective's phases are drawn in the colour of what the phase does.

#include <QColor>
#include <QString>
#include <cstdint>
#include <span>
#include <vector>

namespace astrolabe::widgets {

class TimelinePalette {
public:
    static QColor color(uint8_t key);
    static QColor idle() { return QColor(0xe6, 0xe6, 0xe6); }
    /// Dimension hues of the utilization charts (not used on the timeline's bars).
    static QColor dimension(int dimension);
    static QColor criticalOutline() { return QColor(0x00, 0x00, 0x00); }
    static QColor searchOutline() { return QColor(0x11, 0x11, 0x11); }
    static QColor selection() { return QColor(0x00, 0x00, 0x00); }
    /// The local-memory counter line over NPU rows (a purple no bar uses).
    static QColor memoryLine() { return QColor(0x7b, 0x1f, 0xa2); }

    struct LegendEntry {
        QString label;
        QColor color;
        bool outline = false; ///< drawn as an outline around a bar (the critical path)
    };
    /// Entries for the colour keys present (any order, repeats allowed), in a fixed order; idle
    /// and the critical path are added when asked for. Keys drawn alike share one entry.
    static std::vector<LegendEntry> legend(std::span<const uint8_t> presentKeys, bool withIdle,
                                           bool withCriticalPath);
    /// The legend as one line of rich text: a swatch and a label per entry, then the search
    /// outline (when `searching`) and how collapsed groups are shaded (when `groups`).
    static QString legendHtml(const std::vector<LegendEntry>& entries, bool searching = false,
                              bool groups = false);
    /// Every entry a legend can show: what the distance tests iterate over.
    static std::vector<LegendEntry> allEntries();
};

} // namespace astrolabe::widgets
