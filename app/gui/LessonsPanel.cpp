#include "gui/LessonsPanel.h"

#include <QComboBox>
#include <QLabel>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace astrolabe::gui {

namespace {

/// A block of lines indented as Markdown code (shown in a fixed-width font).
QString codeBlock(const QStringList& lines) {
    QString out;
    for (const QString& line : lines)
        out += QStringLiteral("    ") + line + QLatin1Char('\n');
    return out;
}

/// Markdown quoted ("> ") line by line: the revealed answer.
QString quoted(const QString& text) {
    QString out;
    for (const QString& line : text.trimmed().split(QLatin1Char('\n')))
        out += QStringLiteral("> ") + line + QLatin1Char('\n');
    return out;
}

} // namespace

LessonsPanel::LessonsPanel(QWidget* parent)
    : QWidget(parent)
    , m_chooser(new QComboBox(this))
    , m_text(new QTextBrowser(this))
    , m_status(new QLabel(this)) {
    setObjectName(QStringLiteral("lessonsPanel"));
    m_chooser->setObjectName(QStringLiteral("lessonChooser"));
    m_chooser->setSizeAdjustPolicy(QComboBox::AdjustToContents); // titles whole at any scale
    m_text->setObjectName(QStringLiteral("lessonText"));
    m_text->setOpenLinks(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_chooser);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_status);
    // Readable lines however the docks were dragged (and at any interface scale).
    m_text->setMinimumWidth(m_text->fontMetrics().averageCharWidth() * 32);
    connect(m_chooser, &QComboBox::activated, this, [this](int index) {
        if (index >= 0 && index < m_paths.size())
            emit lessonChosen(m_paths[index]);
    });
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        bool ok = false;
        const int index = url.path().toInt(&ok);
        if (!ok)
            return;
        if (url.scheme() == QLatin1String("try"))
            emit tryRequested(index);
        else if (url.scheme() == QLatin1String("answer"))
            revealAnswer(index);
        else if (url.scheme() == QLatin1String("hide"))
            hideAnswer(index);
    });
}

void LessonsPanel::setLessons(const QStringList& titles, const QStringList& paths) {
    const QSignalBlocker block(m_chooser);
    m_chooser->clear();
    m_chooser->addItems(titles);
    m_paths = paths;
    m_chooser->setCurrentIndex(-1);
    m_chooser->setPlaceholderText(titles.isEmpty() ? tr("No lessons installed")
                                                   : tr("Choose a lesson…"));
}

void LessonsPanel::showLesson(const Lesson& lesson) {
    m_lesson = lesson;
    m_revealed.clear();
    m_ran.clear();
    const QSignalBlocker block(m_chooser);
    m_chooser->setCurrentIndex(
        static_cast<int>(m_paths.indexOf(QString::fromStdString(lesson.file))));
    setStatus({});
    render();
    m_text->verticalScrollBar()->setValue(0);
}

void LessonsPanel::setStatus(const QString& text) {
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

QString LessonsPanel::status() const {
    return m_status->text();
}

void LessonsPanel::revealAnswer(int index) {
    m_revealed.insert(index);
    render();
}

void LessonsPanel::hideAnswer(int index) {
    m_revealed.erase(index);
    render();
}

void LessonsPanel::markStepRun(int step) {
    if (m_ran.insert(step).second)
        render();
}

void LessonsPanel::selectLesson(const QString& path) {
    const QSignalBlocker block(m_chooser);
    m_chooser->setCurrentIndex(static_cast<int>(m_paths.indexOf(path)));
}

QString LessonsPanel::markdown() const {
    QString out;
    int question = 0;
    int lastStep = -1; // the numbers in a text are those of the step before it
    // A step's numbers, or what to do to see them.
    const auto shown = [this, &lastStep](const std::string& markdown) {
        if (lastStep < 0 || m_ran.count(lastStep))
            return QString::fromStdString(lessonDisplayText(markdown));
        return QString::fromStdString(
            lessonHiddenText(markdown, tr("*(run step %1)*").arg(lastStep + 1).toStdString()));
    };
    for (const LessonBlock& block : m_lesson.blocks) {
        switch (block.kind) {
        case LessonBlock::Kind::Text:
            out += shown(block.markdown) + QLatin1Char('\n');
            break;
        case LessonBlock::Kind::Try: {
            QStringList lines;
            for (const LessonSetting& s : block.settings)
                lines << QStringLiteral("set %1 = %2")
                             .arg(QString::fromStdString(s.path), QString::fromStdString(s.value));
            out += tr("**Try it — step %1**").arg(block.step + 1) + QStringLiteral("\n\n");
            if (!lines.isEmpty())
                out += codeBlock(lines) + QLatin1Char('\n');
            out += QStringLiteral("[▶ %1](try:%2)\n\n")
                       .arg(lines.isEmpty() ? tr("Run") : tr("Apply and run"))
                       .arg(block.step);
            lastStep = block.step;
            break;
        }
        case LessonBlock::Kind::Question:
            out += tr("**Question.** ") + shown(block.markdown).trimmed() + QStringLiteral("\n\n");
            out +=
                m_revealed.count(question)
                    ? quoted(QString::fromStdString(lessonDisplayText(block.answer))) +
                          QStringLiteral("\n[%1](hide:%2)\n").arg(tr("Hide answer")).arg(question)
                    : QStringLiteral("[%1](answer:%2)\n").arg(tr("Show answer")).arg(question);
            out += QLatin1Char('\n');
            ++question;
            break;
        }
    }
    return out;
}

void LessonsPanel::render() {
    const int scroll = m_text->verticalScrollBar()->value(); // the reader stays where they are
    m_text->setMarkdown(markdown());
    m_text->verticalScrollBar()->setValue(scroll);
}

} // namespace astrolabe::gui
