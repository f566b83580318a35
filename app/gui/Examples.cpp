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
        if (const auto match = name.match(QString::fromUtf8(file.read(100'000)));
            match.hasMatch()) {
            QString value = match.captured(1).trimmed();
            const QChar quote = value.isEmpty() ? QChar() : value.front();
            if ((quote == u'"' || quote == u'\'') && value.size() >= 2) {
                const qsizetype close = value.indexOf(quote, 1);
                value = value.mid(1, close < 0 ? -1 : close - 1);
                if (quote == u'"')
                    value.replace(QStringLiteral("\\\""), QStringLiteral("\""));
            } else if (const qsizetype comment = value.indexOf(QStringLiteral(" #"));
                       comment >= 0) {
                value = value.left(comment).trimmed();
            }
            if (!value.isEmpty())
                return value;
        }
    return QFileInfo(path).completeBaseName();
}

QString groupTitle(const QString& directory, const QString& path) {
    const QString relative = QDir(directory).relativeFilePath(path);
    const QString folder = relative.section(u'/', 0, 0);
    if (folder == QLatin1String("case-studies"))
        return QApplication::translate("Examples", "Case studies");
    if (folder == QLatin1String("libra"))
        return QApplication::translate("Examples", "LIBRA bandwidth allocation");
    if (folder == QLatin1String("serving"))
        return QApplication::translate("Examples", "Serving");
    if (folder == QLatin1String("validation"))
        return QApplication::translate("Examples", "Validation against measurements");
    QString words = folder;
    words.replace(u'-', u' ');
    return words.isEmpty() ? words : words.front().toUpper() + words.mid(1);
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
