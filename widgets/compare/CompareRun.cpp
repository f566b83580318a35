#include "compare/CompareRun.h"

#include "core/Units.h"

#include <QStringList>

namespace astrolabe::widgets {

QString headerName(const QString& name, int lineChars) {
    QString out, line;
    for (const QString& word : name.split(u' ', Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > lineChars) {
            out += line + u'\n';
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    return out + line;
}

QString formatNs(double ns) {
    const double ps = ns * 1e3;
    return QString::fromStdString(
        units::formatScaled(ps, units::timeScale(ps, units::TimeSpelling::MicroSign)));
}

} // namespace astrolabe::widgets
