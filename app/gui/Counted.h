#pragma once
// "1 NPU", "8 NPUs": English plurals without a translator installed (tr("%n NPU(s)") would
// show the "(s)" literally).

#include <QString>

namespace astrolabe::gui {

inline QString counted(long long n, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

} // namespace astrolabe::gui
