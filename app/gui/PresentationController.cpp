#include "gui/PresentationController.h"

#include "common/InterfaceScale.h"
#include "gui/LayoutController.h"
#include "gui/ScaledStyle.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLayout>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPixmapCache>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QToolBar>
#include <algorithm>
#include <cmath>
#include <iterator>

namespace astrolabe::gui {

namespace {

using widgets::InterfaceScale;

const QString kScaleKey = QStringLiteral("view/scale");
const QString kContrastKey = QStringLiteral("view/highContrast");
constexpr int kDockSeparator = 12; ///< room for a dock's separator and frame, px

/// The step nearest to `factor` (a hand-edited settings file may hold anything).
double nearestStep(double factor) {
    const auto& steps = InterfaceScale::kSteps;
    return *std::min_element(std::begin(steps), std::end(steps), [factor](double a, double b) {
        return std::abs(a - factor) < std::abs(b - factor);
    });
}

QFont scaledFont(QFont font, double factor) {
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(static_cast<int>(std::lround(font.pixelSize() * factor)));
    return font;
}

} // namespace

PresentationController::PresentationController(QMainWindow* window, QTabWidget* tabs,
                                               LayoutController* layout)
    : QObject(window)
    , m_window(window)
    , m_tabs(tabs)
    , m_layout(layout) {
    ScaledStyle::install(); // first: a new style may bring its own palette
    m_baseFont = QApplication::font();
    m_basePalette = QApplication::palette();
    m_zoomIn = new QAction(tr("Zoom &In"), this);
    // Ctrl+= is Ctrl++ without Shift on most keyboards; both are offered.
    m_zoomIn->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
    m_zoomIn->setToolTip(tr("Make the whole interface larger (presentation mode)"));
    connect(m_zoomIn, &QAction::triggered, this, &PresentationController::zoomIn);
    m_zoomOut = new QAction(tr("Zoom &Out"), this);
    m_zoomOut->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Minus));
    connect(m_zoomOut, &QAction::triggered, this, &PresentationController::zoomOut);
    m_resetZoom = new QAction(tr("&Actual Size"), this);
    m_resetZoom->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(m_resetZoom, &QAction::triggered, this, &PresentationController::resetZoom);
    m_contrast = new QAction(tr("&High Contrast"), this);
    m_contrast->setCheckable(true);
    m_contrast->setToolTip(tr("Black on white, strong colours and thicker lines, for projectors"));
    connect(m_contrast, &QAction::toggled, this, &PresentationController::setHighContrast);
    m_fullScreenAction = new QAction(tr("&Full Screen Tab"), this);
    m_fullScreenAction->setCheckable(true);
    m_fullScreenAction->setShortcut(QKeySequence(Qt::Key_F11));
    connect(m_fullScreenAction, &QAction::toggled, this, &PresentationController::setTabFullScreen);
    // Esc leaves full screen; the action is enabled only there, so Esc keeps its other uses.
    m_leaveFullScreen = new QAction(this);
    m_leaveFullScreen->setShortcut(QKeySequence(Qt::Key_Escape));
    m_leaveFullScreen->setEnabled(false);
    connect(m_leaveFullScreen, &QAction::triggered, this, [this] { setTabFullScreen(false); });
    window->addActions({m_zoomIn, m_zoomOut, m_resetZoom, m_fullScreenAction, m_leaveFullScreen});

    auto settings = m_layout->settings();
    InterfaceScale::instance().setFactor(nearestStep(settings->value(kScaleKey, 1.0).toDouble()));
    InterfaceScale::instance().setHighContrast(settings->value(kContrastKey, false).toBool());
    m_contrast->setChecked(InterfaceScale::highContrast());
    apply();
}

PresentationController::~PresentationController() {
    InterfaceScale::instance().setFactor(1.0);
    InterfaceScale::instance().setHighContrast(false);
    QApplication::setFont(m_baseFont);
    QApplication::setPalette(m_basePalette);
}

void PresentationController::attachViewMenu(QMenu* view) {
    view->addActions({m_zoomIn, m_zoomOut, m_resetZoom});
    view->addSeparator();
    view->addActions({m_contrast, m_fullScreenAction});
}

double PresentationController::scale() const {
    return InterfaceScale::factor();
}

void PresentationController::setScale(double factor) {
    InterfaceScale::instance().setFactor(nearestStep(factor));
    m_layout->settings()->setValue(kScaleKey, InterfaceScale::factor());
    apply();
}

void PresentationController::zoomIn() {
    for (double step : InterfaceScale::kSteps)
        if (step > scale() + 1e-9) {
            setScale(step);
            return;
        }
}

void PresentationController::zoomOut() {
    const auto& steps = InterfaceScale::kSteps;
    for (auto it = std::rbegin(steps); it != std::rend(steps); ++it)
        if (*it < scale() - 1e-9) {
            setScale(*it);
            return;
        }
}

bool PresentationController::highContrast() const {
    return InterfaceScale::highContrast();
}

void PresentationController::setHighContrast(bool on) {
    InterfaceScale::instance().setHighContrast(on);
    m_contrast->setChecked(on);
    m_layout->settings()->setValue(kContrastKey, on);
    apply();
}

QPalette PresentationController::highContrastPalette(const QPalette& base) {
    QPalette p = base;
    const QColor black(Qt::black), white(Qt::white), blue(0x00, 0x3c, 0xc8);
    for (QPalette::ColorGroup group : {QPalette::Active, QPalette::Inactive}) {
        p.setColor(group, QPalette::Window, white);
        p.setColor(group, QPalette::WindowText, black);
        p.setColor(group, QPalette::Base, white);
        p.setColor(group, QPalette::AlternateBase, QColor(0xe8, 0xe8, 0xe8));
        p.setColor(group, QPalette::Text, black);
        p.setColor(group, QPalette::Button, QColor(0xf0, 0xf0, 0xf0));
        p.setColor(group, QPalette::ButtonText, black);
        p.setColor(group, QPalette::Highlight, blue);
        p.setColor(group, QPalette::HighlightedText, white);
        p.setColor(group, QPalette::Link, blue);
        p.setColor(group, QPalette::ToolTipBase, white);
        p.setColor(group, QPalette::ToolTipText, black);
        p.setColor(group, QPalette::PlaceholderText, QColor(0x40, 0x40, 0x40));
        p.setColor(group, QPalette::Mid, black);
        p.setColor(group, QPalette::Dark, black);
        p.setColor(group, QPalette::Shadow, black);
    }
    // Disabled text stays readable on a projector: dark grey, not the usual light grey.
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x50, 0x50, 0x50));
    return p;
}

void PresentationController::apply() {
    // The new font's minimums reach the window's layout before fitToScreen lowers the tabs' to
    // what the screen holds. Passed on to the window manager in between, they would make it
    // drop a maximized window's state and stretch the window past the screen's bottom: the
    // window's minimum is held (explicitly, so its layout does not set it) until the end, and
    // then left to the layout again.
    m_window->setMinimumSize(1, 1);
    struct Release {
        QMainWindow* window;
        ~Release() {
            window->setMinimumSize(0, 0); // no explicit minimum: the layout's own
            if (window->layout())
                window->layout()->activate();
        }
    } release{m_window};
    const QFont font = scaledFont(m_baseFont, scale());
    const bool fontChanged = font != QApplication::font();
    QApplication::setFont(font);
    // A dock's title has a font of its own, taken once from the platform theme, unless the dock
    // has a font that differs from the application's: a bold one, its contents in the plain one.
    QFont title = font, plain = font;
    title.setBold(true);
    plain.setBold(false); // explicitly: the dock's bold is not passed on
    const bool scaled = scale() != 1.0;
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        dock->setFont(scaled ? title : QFont());
        if (dock->widget())
            dock->widget()->setFont(scaled ? plain : QFont());
    }
    // Qt passes the new fonts on to the widgets by posted events: deliver them now, so that what
    // follows (headers' minimum sizes, the tests) sees every widget in its new font. (Only on a
    // change: the window's constructor applies the saved scale, often 100 %.)
    if (fontChanged)
        QCoreApplication::sendPostedEvents();
    QApplication::setPalette(highContrast() ? highContrastPalette(m_basePalette) : m_basePalette);
    // What the application font does not reach: sizes set in pixels when a table or dock was
    // made, at the scale of that moment (m_applied), grow by the ratio.
    const double previous = m_applied;
    const double ratio = scale() / previous;
    m_applied = scale();
    // What the style drew and cached at the old scale (frames, gradients, the docks' button
    // icons, which each restoreState makes anew) is never drawn again: let it go, rather than
    // keep it until Qt's pixmap cache fills.
    if (ratio != 1.0)
        QPixmapCache::clear();
    const auto times = [ratio](int pixels) {
        return static_cast<int>(std::lround(pixels * ratio));
    };
    for (QWidget* widget : QApplication::allWidgets()) {
        if (auto* header = qobject_cast<QHeaderView*>(widget); header && ratio != 1.0) {
            // Rows: the default height. (On a horizontal header that would reset every column.)
            // The minimum is worked out again from the new font (-1), as the smaller rows need.
            if (header->orientation() == Qt::Vertical) {
                header->setMinimumSectionSize(-1);
                header->setDefaultSectionSize(times(header->defaultSectionSize()));
            } else {
                for (int i = 0; i < header->count(); ++i)
                    if (header->sectionResizeMode(i) == QHeaderView::Interactive ||
                        header->sectionResizeMode(i) == QHeaderView::Fixed)
                        header->resizeSection(i, times(header->sectionSize(i)));
            }
        }
        // Drawings that read the scale at paint time repaint with it.
        widget->update();
    }
    // Back at 100 %: the docks exactly as they were before the zoom (their sizes, hence the
    // lesson's line breaks), not the scaled-down sizes of the larger scales.
    if (scale() == 1.0 && ratio != 1.0 && !m_state100.isEmpty()) {
        fitTabBar();
        // The tabs' smaller minimum first, or the docks are laid out against the larger one.
        refreshLayouts();
        // The window too, if the larger scale's minimum widths made it grow.
        if (!m_window->isMaximized() && !m_window->isFullScreen())
            m_window->resize(m_size100);
        m_window->restoreState(m_state100);
        restoreDockSizes();
        return;
    }
    if (ratio != 1.0 && previous == 1.0) {
        m_state100 = m_window->saveState();
        m_size100 = m_window->size();
        m_sizes100.clear();
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>())
            if (!dock->isFloating() && dock->isVisible())
                m_sizes100.insert(dock, dock->size());
    }
    if (ratio != 1.0)
        refreshLayouts(); // the docks' minimums at the new font, for fitTabBar
    fitTabBar();
    if (ratio != 1.0)
        fitDocks(ratio);
    fitToScreen();
}

void PresentationController::fitToScreen() {
    // Scaled up with a lesson beside the project, the tabs' and the docks' minimums can add up to
    // more than the screen. The tabs give up what is missing (their bar scrolls, their pages are
    // laid out tighter), so the window, its Log and its status bar stay on the screen.
    const QScreen* screen = m_window->screen();
    if (screen == nullptr || m_window->isFullScreen() || scale() == 1.0)
        return;
    // The docks' and pages' minimums at the new font reach the window's layout by posted
    // events; what the window needs is known once they are delivered.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    const QSize frame = m_window->frameGeometry().size() - m_window->size();
    // A window the user made larger than the screen at 100 % (across two screens) stays as large.
    const QSize room = (screen->availableGeometry().size() - frame).expandedTo(m_size100);
    const QSize needed = m_window->minimumSizeHint();
    constexpr int kLeast = 240; // the tabs keep room for a page
    if (needed.width() > room.width())
        m_tabs->setMinimumWidth(
            std::max(kLeast, m_tabs->minimumWidth() - (needed.width() - room.width())));
    if (needed.height() > room.height())
        m_tabs->setMinimumHeight(std::max(kLeast, m_tabs->minimumSizeHint().height() -
                                                      (needed.height() - room.height())));
    // The smaller minimums reach the window's own, through the layouts between, before it is
    // resized (a window is never made smaller than its minimum).
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    m_window->layout()->activate();
    if (!m_window->isMaximized() &&
        (m_window->width() > room.width() || m_window->height() > room.height()))
        m_window->resize(std::min(m_window->width(), room.width()),
                         std::min(m_window->height(), room.height()));
}

void PresentationController::refreshLayouts() {
    // Hidden pages' layouts still hold their sizes at the previous font (a layout caches its
    // widgets' sizes until they call updateGeometry, which a hidden widget's font change does not
    // pass on), and the tabs' minimum is the largest of the pages'; the docks are laid out
    // against it.
    for (QWidget* widget : m_window->findChildren<QWidget*>()) {
        // A combo box that adjusts to its contents keeps the minimum size hint it had when it
        // was empty (Qt caches it and resets only the size hint): its current text whole, with
        // room for the frame and the arrow (about as wide as the box is high), is the minimum.
        if (auto* box = qobject_cast<QComboBox*>(widget);
            box && box->sizeAdjustPolicy() == QComboBox::AdjustToContents)
            box->setMinimumWidth(box->fontMetrics().horizontalAdvance(box->currentText()) +
                                 2 * box->sizeHint().height());
        widget->updateGeometry();
    }
    for (QLayout* layout : m_window->findChildren<QLayout*>())
        layout->invalidate();
    m_window->layout()->activate();
}

void PresentationController::restoreDockSizes() {
    QList<QDockWidget*> sideDocks, bottomDocks;
    QList<int> widths, heights;
    for (auto it = m_sizes100.cbegin(); it != m_sizes100.cend(); ++it) {
        QDockWidget* dock = it.key();
        if (!m_window->findChildren<QDockWidget*>().contains(dock) || dock->isFloating() ||
            !dock->isVisible())
            continue;
        const Qt::DockWidgetArea area = m_window->dockWidgetArea(dock);
        if (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea) {
            sideDocks << dock;
            widths << it.value().width();
        } else {
            bottomDocks << dock;
            heights << it.value().height();
        }
    }
    if (!sideDocks.isEmpty())
        m_window->resizeDocks(sideDocks, widths, Qt::Horizontal);
    if (!bottomDocks.isEmpty())
        m_window->resizeDocks(bottomDocks, heights, Qt::Vertical);
}

void PresentationController::fitDocks(double ratio) {
    const auto times = [ratio](int pixels) {
        return static_cast<int>(std::lround(pixels * ratio));
    };
    QList<QDockWidget*> sideDocks, bottomDocks;
    QList<int> widths, heights;
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        if (dock->isFloating() || !dock->isVisible())
            continue;
        const Qt::DockWidgetArea area = m_window->dockWidgetArea(dock);
        if (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea) {
            sideDocks << dock;
            widths << times(dock->width());
        } else if (area == Qt::BottomDockWidgetArea || area == Qt::TopDockWidgetArea) {
            bottomDocks << dock; // at most a third of the window, whatever the scale
            heights << std::min(times(dock->height()), m_window->height() / 3);
        }
    }
    // The side docks share what the central tabs leave, in proportion to their widths, so that
    // the tabs' minimum width does not squeeze one dock to nothing.
    int wanted = 0;
    for (int w : widths)
        wanted += w;
    const int room =
        m_window->width() - m_tabs->minimumWidth() - kDockSeparator * int(sideDocks.size());
    if (wanted > room && room > 0)
        for (int i = 0; i < widths.size(); ++i)
            widths[i] =
                std::max(widths[i] * room / wanted, sideDocks[i]->minimumSizeHint().width());
    if (!sideDocks.isEmpty())
        m_window->resizeDocks(sideDocks, widths, Qt::Horizontal);
    if (!bottomDocks.isEmpty())
        m_window->resizeDocks(bottomDocks, heights, Qt::Vertical);
}

void PresentationController::fitTabBar() {
    // Scaled up, the central tabs need more room than the window gave them at 100 %: the last
    // ones went behind the tab bar's scroll arrows. Where a tab has a short name (its tab data,
    // the full one stays its tool tip) and the full names do not fit beside the side docks at
    // their narrowest, the short ones are shown; the tab widget asks for the whole width of its
    // tabs, and the docks beside it give way (fitDocks).
    QTabBar* bar = m_tabs->tabBar();
    for (int i = 0; i < bar->count(); ++i) {
        if (m_fullTexts.size() <= i)
            m_fullTexts << bar->tabText(i);
        bar->setTabText(i, m_fullTexts.at(i));
    }
    m_tabs->setMinimumHeight(0); // fitToScreen's, at a larger scale
    if (scale() == 1.0) {
        m_tabs->setMinimumWidth(0);
        return;
    }
    const int frame = m_tabs->style()->pixelMetric(QStyle::PM_DefaultFrameWidth) * 2 + 2;
    int sideDocks = 0; // the side docks at their narrowest
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        const Qt::DockWidgetArea area = m_window->dockWidgetArea(dock);
        if (!dock->isFloating() && dock->isVisible() &&
            (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea))
            sideDocks += dock->minimumSizeHint().width() + kDockSeparator;
    }
    if (bar->sizeHint().width() + frame > m_window->width() - sideDocks)
        for (int i = 0; i < bar->count(); ++i) {
            const QString compact = bar->tabData(i).toString();
            if (compact.isEmpty())
                continue;
            if (bar->tabToolTip(i).isEmpty())
                bar->setTabToolTip(i, m_fullTexts.at(i));
            bar->setTabText(i, compact);
        }
    m_tabs->setMinimumWidth(bar->sizeHint().width() + frame);
}

void PresentationController::setTabFullScreen(bool on) {
    if (on == m_fullScreen)
        return;
    m_fullScreen = on;
    m_fullScreenAction->setChecked(on);
    m_leaveFullScreen->setEnabled(on);
    if (on) {
        m_wasMaximized = m_window->isMaximized();
        m_hidden.clear();
        QList<QWidget*> chrome{m_window->menuBar(), m_window->statusBar(), m_tabs->tabBar()};
        for (QToolBar* bar : m_window->findChildren<QToolBar*>())
            chrome << bar;
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>())
            chrome << dock;
        for (QWidget* widget : chrome)
            if (widget->isVisible()) {
                widget->hide();
                m_hidden << widget;
            }
        m_window->showFullScreen();
    } else {
        for (QWidget* widget : std::as_const(m_hidden))
            widget->show();
        m_hidden.clear();
        if (m_wasMaximized)
            m_window->showMaximized();
        else
            m_window->showNormal();
    }
}

} // namespace astrolabe::gui
