#include "gui/HelpWindow.h"

#include "common/InterfaceScale.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QFile>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QScreen>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTreeWidget>

namespace astrolabe::gui {

namespace {

constexpr int kSlugRole = Qt::UserRole;

/// Every heading block of the document with its level, in order.
std::vector<std::pair<QTextBlock, int>> headings(const QTextDocument* document) {
    std::vector<std::pair<QTextBlock, int>> out;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
        if (const int level = block.blockFormat().headingLevel(); level > 0)
            out.emplace_back(block, level);
    return out;
}

} // namespace

HelpWindow::HelpWindow(QWidget* parent)
    : QWidget(parent, Qt::Window)
    , m_contents(new QTreeWidget(this))
    , m_browser(new QTextBrowser(this)) {
    setObjectName(QStringLiteral("helpWindow"));
    setWindowTitle(tr("Astrolabe User Guide"));
    m_contents->setHeaderHidden(true);
    m_contents->setObjectName(QStringLiteral("helpContents"));
    m_browser->setObjectName(QStringLiteral("helpBrowser"));
    m_browser->setOpenLinks(false);
    m_browser->setMarkdown(guideMarkdown());
    // Wide enough to read, narrow enough for the line length of a book.
    m_browser->document()->setDocumentMargin(16);
    auto* splitter = new QSplitter(this);
    splitter->addWidget(m_contents);
    splitter->addWidget(m_browser);
    splitter->setStretchFactor(1, 1);
    // At the presentation scale, and never larger than the screen.
    const int contentsWidth = widgets::InterfaceScale::px(260);
    splitter->setSizes({contentsWidth, widgets::InterfaceScale::px(700)});
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    buildContents();
    connect(m_contents, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item) { showSection(item->data(0, kSlugRole).toString()); });
    connect(m_contents, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem* item) { showSection(item->data(0, kSlugRole).toString()); });
    connect(m_browser, &QTextBrowser::anchorClicked, this, &HelpWindow::followLink);
    QSize size(widgets::InterfaceScale::px(1000), widgets::InterfaceScale::px(720));
    if (const QScreen* screen = parent ? parent->screen() : QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableSize());
    resize(size);
}

QString HelpWindow::guideMarkdown() {
    QFile file(QStringLiteral(":/help/user-guide.md"));
    if (!file.open(QIODevice::ReadOnly))
        return tr("# User guide\n\nThe guide is missing from this build (docs/user-guide.md).");
    return QString::fromUtf8(file.readAll());
}

QString HelpWindow::slug(const QString& heading) {
    QString out;
    for (const QChar c : heading.trimmed().toLower()) {
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_'))
            out += c;
        else if (c == QLatin1Char(' '))
            out += QLatin1Char('-');
    }
    return out;
}

void HelpWindow::buildContents() {
    m_contents->clear();
    std::vector<QTreeWidgetItem*> parents; // the last item seen at each level
    for (const auto& [block, level] : headings(m_browser->document())) {
        const QString text = block.text();
        QTreeWidgetItem* parent = nullptr;
        for (int l = level - 1; l >= 1 && !parent; --l)
            if (static_cast<size_t>(l) <= parents.size())
                parent = parents[static_cast<size_t>(l) - 1];
        auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_contents);
        item->setText(0, text);
        item->setData(0, kSlugRole, slug(text));
        parents.resize(static_cast<size_t>(level), nullptr);
        parents[static_cast<size_t>(level) - 1] = item;
    }
    m_contents->expandAll();
}

QStringList HelpWindow::sections() const {
    QStringList out;
    for (const auto& [block, level] : headings(m_browser->document()))
        out << slug(block.text());
    return out;
}

bool HelpWindow::showSection(const QString& name) {
    for (const auto& [block, level] : headings(m_browser->document())) {
        if (slug(block.text()) != name)
            continue;
        m_current = name;
        const QRectF rect = m_browser->document()->documentLayout()->blockBoundingRect(block);
        m_browser->verticalScrollBar()->setValue(static_cast<int>(rect.top()));
        QTextCursor cursor(block);
        m_browser->setTextCursor(cursor);
        for (QTreeWidgetItemIterator it(m_contents); *it; ++it)
            if ((*it)->data(0, kSlugRole).toString() == name) {
                const QSignalBlocker blocker(m_contents);
                m_contents->setCurrentItem(*it);
            }
        // setTextCursor may scroll to keep the cursor visible: the heading goes to the top.
        m_browser->verticalScrollBar()->setValue(static_cast<int>(rect.top()));
        return true;
    }
    m_browser->verticalScrollBar()->setValue(0);
    return false;
}

bool HelpWindow::showDocument(const QString& name) {
    if (name == m_document)
        return true;
    QFile file(QStringLiteral(":/help/") + name);
    if (name.contains(QLatin1Char('/')) || !file.open(QIODevice::ReadOnly))
        return false;
    QString markdown = QString::fromUtf8(file.readAll());
    // The way back, on every document but the guide.
    if (name != QLatin1String("user-guide.md"))
        markdown.prepend(tr("[\u2190 User guide](user-guide.md)\n\n"));
    m_document = name;
    m_browser->setMarkdown(markdown);
    buildContents();
    setWindowTitle(name == QLatin1String("user-guide.md") ? tr("Astrolabe User Guide")
                                                          : tr("Astrolabe \u2014 %1").arg(name));
    return true;
}

void HelpWindow::followLink(const QUrl& url) {
    if (url.scheme().isEmpty() && url.path().isEmpty() && url.hasFragment()) {
        showSection(url.fragment());
        return;
    }
    // A link to another document of docs/ ("planner.md#...", "docs/planner.md") opens here;
    // a browser would be handed a relative path it cannot open.
    if (url.scheme().isEmpty() && url.path().endsWith(QLatin1String(".md"))) {
        const QString name = url.path().section(QLatin1Char('/'), -1);
        if (showDocument(name)) {
            if (url.hasFragment())
                showSection(url.fragment());
            else
                showSection(sections().value(0));
            return;
        }
    }
    QDesktopServices::openUrl(url);
}

} // namespace astrolabe::gui
