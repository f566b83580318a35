#include "gui/About.h"

#include "core/Version.h"

#include <QCoreApplication>

namespace astrolabe::gui {

QString aboutText() {
    return QCoreApplication::translate(
               "MainWindow",
               "<h3>Astrolabe %1</h3>"
               "<p>A laboratory for designing distributed AI training platforms: "
               "multi-dimensional networks, Chakra workloads, collectives, and a timeline that "
               "explains the result.</p>"
               "<p>Reads ASTRA-sim 2.x inputs and reproduces its analytical results.</p>")
        .arg(QString::fromLatin1(engineVersion()));
}

} // namespace astrolabe::gui
