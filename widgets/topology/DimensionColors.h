#pragma once
// One colour per dimension, shared by the dimension stack, the drawing and its legend, so a
// student can match a row to its links at a glance.
#include <QColor>

namespace astrolabe::widgets {

inline QColor dimensionColor(int dimension) {
    static const QColor colors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xe6, 0x7e, 0x22),
                                    QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                                    QColor(0x8c, 0x56, 0x4b), QColor(0x17, 0xbe, 0xcf)};
    const int count = static_cast<int>(sizeof colors / sizeof colors[0]);
    return colors[(dimension % count + count) % count];
}

/// An opaque tint of c: amount 0 is white, 1 is c itself.
inline QColor tint(const QColor& c, double amount) {
    const auto mix = [amount](int v) { return static_cast<int>(255 - (255 - v) * amount); };
    return QColor(mix(c.red()), mix(c.green()), mix(c.blue()));
}

} // namespace astrolabe::widgets
