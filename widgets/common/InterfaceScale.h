#pragma once
// Presentation mode's two display choices, read by every custom-painted view: the interface
// scale (1 = 100 %, 2 = 200 %) and the high-contrast theme. Like the unit convention
// (units::convention()), they are one choice for the whole process, made by the application
// (gui/PresentationController) and announced by changed(); a painter multiplies its pen widths,
// label sizes and row heights by factor() and picks strong colours when highContrast().
//
// The application font is scaled by the controller, so text drawn in a widget's own font grows
// by itself; Qt Charts keep their own fonts, which styleChart() scales.

#include <QColor>
#include <QObject>
#include <QSize>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
class QChartView;
class QWidget;
QT_END_NAMESPACE

namespace astrolabe::widgets {

class InterfaceScale : public QObject {
    Q_OBJECT
public:
    /// The steps Ctrl+= and Ctrl+- walk through.
    static constexpr double kSteps[] = {1.0, 1.25, 1.5, 1.75, 2.0, 2.5};

    /// The process's one instance (a display setting, like the application font).
    static InterfaceScale& instance();

    static double factor() { return instance().m_factor; }
    static bool highContrast() { return instance().m_highContrast; }
    /// `pixels` at the current scale, rounded (at least 1 when pixels >= 1).
    static int px(int pixels);
    /// `pixels` at the current scale, for pen widths and other fractional sizes.
    static double scaled(double pixels) { return pixels * factor(); }
    /// Pen width: scaled, and half again in the high-contrast theme.
    static double penWidth(double pixels) { return scaled(pixels) * (highContrast() ? 1.5 : 1.0); }
    /// `color`, or in the high-contrast theme `contrast` (typically black or a strong colour).
    static QColor pick(const QColor& color, const QColor& contrast) {
        return highContrast() ? contrast : color;
    }

    /// Clamps to [kSteps.front(), kSteps.back()]; emits changed() when the factor changes.
    void setFactor(double factor);
    void setHighContrast(bool on);

    /// Sets the chart's title, legend and axis fonts to their first-seen size times factor(),
    /// and in the high-contrast theme black labels and grid on white, series in strong colours
    /// with thicker lines (styleSeries). Idempotent: call it after adding axes and series and
    /// whenever changed() fires.
    static void styleChart(QChart* chart);
    /// One series in (or back out of) the high-contrast theme.
    static void styleSeries(QAbstractSeries* series, bool contrast);
    /// Styles the view's chart now and again whenever changed() fires.
    static void followChart(QChartView* view);
    /// Gives `widget` the minimum size `base` (pixels at 100 %, 0: no minimum that way) grown
    /// with the scale, now and whenever changed() fires: a chart's title, legend and labels grow
    /// with the scale, and a minimum that does not leaves its plot no room (Qt Charts then
    /// elides every label to "..."). The text's share (60 %) grows, the plot's does not.
    static void followMinimumSize(QWidget* widget, QSize base);

signals:
    void changed();

private:
    InterfaceScale() = default;
    double m_factor = 1.0;
    bool m_highContrast = false;
};

} // namespace astrolabe::widgets
