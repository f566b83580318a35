#include "core/Version.h"
#include "gui/MainWindow.h"
#include "gui/ProcessMemory.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv) {
    astrolabe::gui::configureHeap();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Astrolabe"));
    QApplication::setApplicationName(QStringLiteral("Astrolabe"));
    QApplication::setApplicationVersion(QString::fromLatin1(astrolabe::engineVersion()));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Astrolabe: design, simulate and understand distributed AI training "
                       "platforms."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("project"),
                                 QStringLiteral("A project file (.yaml) to open."),
                                 QStringLiteral("[PROJECT.yaml]"));
    parser.process(app);

    astrolabe::gui::MainWindow window;
    window.show();
    const QStringList args = parser.positionalArguments();
    if (!args.isEmpty())
        window.openProject(args.first());
    return QApplication::exec();
}
