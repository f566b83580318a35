#include "gui/Examples.h"

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace astrolabe::gui::examples {

QString dataDirectory(const QString& name, const QString& sourceTree) {
    const QString installed = QDir(QApplication::applicationDirPath())
                                  .filePath(QStringLiteral("../share/astrolabe/") + name);
    if (QFileInfo(installed).isDir())
        return QDir::cleanPath(installed);
    if (!sourceTree.isEmpty() && QFileInfo(sourceTree).isDir())
        return sourceTree;
    return {};
}

QString directory() {
#ifdef ASTROLABE_PROJECTS_DIR
    return dataDirectory(QStringLiteral("projects"), QStringLiteral(ASTROLABE_PROJECTS_DIR));
#else
    return dataDirectory(QStringLiteral("projects"), {});
#endif
}

QStringList projects(const QString& directory) {
    QStringList out;
    if (directory.isEmpty())
        return out;
    static const QRegularExpression platform(QStringLiteral("^platform:"),
                                             QRegularExpression::MultilineOption);
    QDirIterator it(directory, {QStringLiteral("*.yaml")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        // Projects declare a platform; sweep files name a project instead.
        if (file.size() < 1'000'000 && file.open(QIODevice::ReadOnly) &&
            platform.match(QString::fromUtf8(file.readAll())).hasMatch())
            out << path;
    }
    out.sort();
    return out;
}

QString title(const QString& path) {
    QFile file(path);
    static const QRegularExpression name(QStringLiteral("^name:\\s*(.+)$"),
                                         QRegularExpression::MultilineOption);
    if (file.open(QIODevice::ReadOnly))
        if (const auto match = name.match(QString::fromUtf8(file.read(100'000))); match.hasMatch())
            return match.captured(1).trimmed();
    return QFileInfo(path).completeBaseName();
}

QString description(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList lines;
    while (!file.atEnd() && lines.size() < 12) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (!line.startsWith(QLatin1Char('#')))
            break;
        lines << line.mid(1).trimmed();
    }
    return lines.join(QLatin1Char(' ')).trimmed();
}

} // namespace astrolabe::gui::examples
