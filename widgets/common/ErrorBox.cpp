#include "common/ErrorBox.h"

#include <QMessageBox>
#include <QStringList>

namespace astrolabe::widgets {

QString elideErrorLine(const QString& line) {
    return line.size() > kErrorLineChars ? line.left(kErrorLineChars - 3) + QStringLiteral("...")
                                         : line;
}

ErrorText splitErrorText(const QString& message) {
    const QString trimmed = message.trimmed();
    const QStringList lines = trimmed.split(u'\n');
    bool fits = lines.size() <= kErrorSummaryLines && trimmed.size() <= kErrorSummaryChars;
    for (const QString& line : lines)
        fits = fits && line.size() <= kErrorLineChars;
    if (fits)
        return {trimmed, {}};
    QStringList shown;
    int chars = 0;
    for (const QString& line : lines) {
        if (shown.size() == kErrorSummaryLines - 1 || chars >= kErrorSummaryChars)
            break;
        const QString cut = elideErrorLine(line);
        shown << cut;
        chars += static_cast<int>(cut.size());
    }
    const qsizetype rest = lines.size() - shown.size();
    if (rest > 0)
        shown << (rest == 1
                      ? QObject::tr("... and 1 more line: Show Details has the whole message.")
                      : QObject::tr("... and %1 more lines: Show Details has the whole "
                                    "message.")
                            .arg(rest));
    else
        shown << QObject::tr("Show Details has the whole message.");
    return {shown.join(u'\n'), trimmed};
}

QMessageBox* createErrorBox(QWidget* parent, const QString& title, const QString& message) {
    const ErrorText text = splitErrorText(message);
    auto* box = new QMessageBox(QMessageBox::Warning, title, text.summary, QMessageBox::Ok, parent);
    box->setObjectName(QStringLiteral("errorBox"));
    box->setTextFormat(Qt::PlainText); // file names with '<' are not markup
    box->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    if (!text.details.isEmpty())
        box->setDetailedText(text.details); // a read-only, scrollable, selectable text area
    return box;
}

} // namespace astrolabe::widgets
