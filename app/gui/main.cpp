#include "gui/MainWindow.h"

#include "core/Version.h"

#include <QApplication>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Astrolabe"));
    QApplication::setApplicationName(QStringLiteral("Astrolabe"));
    QApplication::setApplicationVersion(QString::fromLatin1(astrolabe::engineVersion()));
    astrolabe::gui::MainWindow window;
    window.show();
    return QApplication::exec();
}
