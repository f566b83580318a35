#pragma once
// The user guide (docs/user-guide.md, bundled as the resource :/help/user-guide.md), rendered
// from Markdown beside a table of contents made of its headings. Sections are named by their
// heading's slug, as GitHub names them ("## The Timeline tab" is "the-timeline-tab"), so a link
// "[Timeline](#the-timeline-tab)" in the guide and context help (F1) find the same place.

#include <QWidget>

class QTextBrowser;
class QTreeWidget;
class QUrl;

namespace astrolabe::gui {

class HelpWindow : public QWidget {
    Q_OBJECT
public:
    explicit HelpWindow(QWidget* parent = nullptr);

    /// The guide's Markdown as bundled.
    static QString guideMarkdown();
    /// Shows a bundled document of docs/ ("user-guide.md", "planner.md"): the guide's links
    /// to the other documents open here. False (nothing changes) when none has that name.
    bool showDocument(const QString& name);
    /// The document shown ("user-guide.md" at first).
    QString currentDocument() const { return m_document; }
    /// GitHub's anchor for a heading: lower case, spaces to '-', punctuation dropped.
    static QString slug(const QString& heading);

    /// Scrolls the guide so that the section's heading is at the top; false when no heading
    /// has this slug (the guide is then shown from its top).
    bool showSection(const QString& slug);
    /// The slug of the heading last shown by showSection() or the contents.
    QString currentSection() const { return m_current; }
    /// The slugs of every heading, in order.
    QStringList sections() const;

    QTextBrowser* browser() const { return m_browser; }
    QTreeWidget* contents() const { return m_contents; }

private:
    void buildContents();
    void followLink(const QUrl& url);

    QTreeWidget* m_contents;
    QTextBrowser* m_browser;
    QString m_current;
    QString m_document = QStringLiteral("user-guide.md");
};

} // namespace astrolabe::gui
