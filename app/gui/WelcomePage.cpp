#include "gui/WelcomePage.h"

#include "common/InterfaceScale.h"
#include "gui/LayoutController.h"

#include <QCommandLinkButton>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QVBoxLayout>

namespace astrolabe::gui {

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent)
    , m_recent(new QListWidget(this)) {
    // In a scroll area: at a large interface scale in a small window the page scrolls rather
    // than squeezing its text.
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    auto* page = new QVBoxLayout(this);
    page->setContentsMargins(0, 0, 0, 0);
    page->addWidget(scroll);
    auto* outer = new QHBoxLayout(content);
    auto* column = new QVBoxLayout;
    outer->addStretch(1);
    outer->addLayout(column, 2);
    outer->addStretch(1);

    auto* title = new QLabel(tr("<h1>Astrolabe</h1><p>Design a platform for distributed AI "
                                "training, pick a workload, run it, and see why it is as fast "
                                "or as slow as it is.</p>"),
                             this);
    title->setWordWrap(true);
    column->addStretch(1);
    column->addWidget(title);

    auto* quick = new QCommandLinkButton(
        tr("Quick start"),
        tr("8 NPUs on a ring run one 1 MiB all-reduce. Press Run and read the result."), this);
    quick->setObjectName(QStringLiteral("quickStartButton"));
    auto* create = new QCommandLinkButton(
        tr("New project\u2026"),
        tr("Start from a preset or an example project, chosen from a gallery."), this);
    auto* open =
        new QCommandLinkButton(tr("Open project\u2026"), tr("Open a project file (.yaml)."), this);
    column->addWidget(quick);
    column->addWidget(create);
    column->addWidget(open);
    // Qt draws a command link's text at 9 points unless the button has a size of its own: the
    // interface scale (presentation mode) gives it one.
    const auto scaleLinks = [links = QList<QCommandLinkButton*>{quick, create, open}] {
        QFont font;
        font.setPointSizeF(9.0 * widgets::InterfaceScale::factor());
        for (QCommandLinkButton* link : links)
            link->setFont(font);
    };
    scaleLinks();
    connect(&widgets::InterfaceScale::instance(), &widgets::InterfaceScale::changed, this,
            scaleLinks);
    auto* recentTitle = new QLabel(tr("<b>Recent projects</b>"), this);
    column->addWidget(recentTitle);
    column->addWidget(m_recent);
    m_recent->setMaximumHeight(140);
    column->addStretch(2);

    connect(quick, &QAbstractButton::clicked, this, &WelcomePage::quickStartRequested);
    connect(create, &QAbstractButton::clicked, this, &WelcomePage::newProjectRequested);
    connect(open, &QAbstractButton::clicked, this, &WelcomePage::openRequested);
    connect(m_recent, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit recentRequested(item->data(Qt::UserRole).toString());
    });
    setRecentProjects({});
}

void WelcomePage::setRecentProjects(const QStringList& paths) {
    m_recent->clear();
    for (const QString& p : paths) {
        auto* item = new QListWidgetItem(LayoutController::recentProjectText(p), m_recent);
        item->setToolTip(p);
        item->setData(Qt::UserRole, p);
    }
    if (paths.isEmpty()) {
        auto* none = new QListWidgetItem(tr("(none yet)"), m_recent);
        none->setFlags(Qt::NoItemFlags);
    }
}

} // namespace astrolabe::gui
