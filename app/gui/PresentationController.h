#pragma once
// Presentation mode, for a teacher in front of a projector:
//   View > Zoom In / Zoom Out / Actual Size (Ctrl+=, Ctrl+-, Ctrl+0) walk the interface scale
//     through widgets::InterfaceScale::kSteps: the application font and every custom drawing
//     (topology, timeline, utilization, charts) grow together, at once, without a restart;
//   View > High Contrast: black on white, strong colours and thicker lines;
//   View > Full Screen Tab (F11): only the current tab, full screen; F11 or Esc goes back.
// The scale and the theme are remembered in the LayoutController's settings.

#include <QByteArray>
#include <QFont>
#include <QHash>
#include <QObject>
#include <QPalette>
#include <QSize>
#include <QStringList>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QTabWidget;

namespace astrolabe::gui {

class LayoutController;

class PresentationController : public QObject {
    Q_OBJECT
public:
    /// Applies the saved scale and theme to the application. `tabs`: the tab shown alone by
    /// Full Screen Tab.
    PresentationController(QMainWindow* window, QTabWidget* tabs, LayoutController* layout);
    /// Gives the application back its font, palette and 100 % scale.
    ~PresentationController() override;

    /// Adds the zoom, contrast and full-screen actions to `view` (and to the window, so their
    /// shortcuts work while the menu bar is hidden in full screen).
    void attachViewMenu(QMenu* view);

    double scale() const;
    /// Sets the nearest step, applies and saves it.
    void setScale(double factor);
    void zoomIn();
    void zoomOut();
    void resetZoom() { setScale(1.0); }

    bool highContrast() const;
    void setHighContrast(bool on);

    bool isTabFullScreen() const { return m_fullScreen; }
    void setTabFullScreen(bool on);

    /// The font and palette the application had before presentation mode touched them.
    const QFont& baseFont() const { return m_baseFont; }
    const QPalette& basePalette() const { return m_basePalette; }

    QAction* zoomInAction() const { return m_zoomIn; }
    QAction* zoomOutAction() const { return m_zoomOut; }
    QAction* resetZoomAction() const { return m_resetZoom; }
    QAction* highContrastAction() const { return m_contrast; }
    QAction* fullScreenAction() const { return m_fullScreenAction; }

    /// The high-contrast palette: black text on white, a strong blue selection.
    static QPalette highContrastPalette(const QPalette& base);

private:
    void apply();
    /// At a scale above 100 %, the tab widget at least as wide as all its tabs (their short
    /// names, a tab's data, where the full ones leave too little room for the side docks).
    void fitTabBar();
    /// Past what the screen holds (a lesson beside the project at 250 %), the tabs give way.
    void fitToScreen();
    /// Docks grown by `ratio`, the side ones within what the central tabs leave.
    void fitDocks(double ratio);
    /// Every layout of the window worked out again from its widgets' present sizes.
    void refreshLayouts();
    /// The docks back at their sizes at 100 % (m_sizes100).
    void restoreDockSizes();

    QMainWindow* m_window;
    QTabWidget* m_tabs;
    LayoutController* m_layout;
    QFont m_baseFont;
    QPalette m_basePalette;
    double m_applied = 1.0; ///< the scale the pixel sizes of tables and docks were made for
    bool m_fullScreen = false;
    bool m_wasMaximized = false;
    QList<QWidget*> m_hidden; ///< what full screen hid, shown again after it
    QByteArray m_state100;    ///< the docks at 100 %, put back on the way back to 100 %
    QSize m_size100;          ///< the window at 100 %
    QHash<QDockWidget*, QSize> m_sizes100;
    QStringList m_fullTexts; ///< the central tabs' own names

    QAction* m_zoomIn = nullptr;
    QAction* m_zoomOut = nullptr;
    QAction* m_resetZoom = nullptr;
    QAction* m_contrast = nullptr;
    QAction* m_fullScreenAction = nullptr;
    QAction* m_leaveFullScreen = nullptr;
};

} // namespace astrolabe::gui
