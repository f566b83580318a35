#pragma once
// Colours of the timeline and utilization views, by colour key (see ColorKey.h). Chosen from a
// colour-blind-safe categorical palette; phases use the dimension's hue, lighter for odd phases.

#include <QColor>
#include <QString>
#include <vector>

namespace astrolabe::widgets {

class TimelinePalette {
public:
    static QColor color(uint8_t key);
    static QColor idle() { return QColor(0xe6, 0xe6, 0xe6); }
    static QColor dimension(int dimension);
    static QColor criticalOutline() { return QColor(0xd6, 0x27, 0x28); }
    static QColor searchOutline() { return QColor(0x11, 0x11, 0x11); }
    static QColor selection() { return QColor(0x00, 0x00, 0x00); }

    struct LegendEntry {
        QString label;
        QColor color;
    };
    /// Entries for the keys in use (pass the keys seen; empty = the common ones).
    static std::vector<LegendEntry> legend();
};

} // namespace astrolabe::widgets
