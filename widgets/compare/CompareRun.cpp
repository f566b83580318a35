#include "compare/CompareRun.h"

#include "core/Units.h"

namespace astrolabe::widgets {

QString formatNs(double ns) {
    const double ps = ns * 1e3;
    return QString::fromStdString(
        units::formatScaled(ps, units::timeScale(ps, units::TimeSpelling::MicroSign)));
}

} // namespace astrolabe::widgets
