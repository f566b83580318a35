#include "common/InterfaceScale.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QPen>
#include <QWidget>
#include <QXYSeries>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

namespace {

// The chart's own fonts come from its theme; the size first seen is kept on the object, so
// restyling at another factor scales from it, not from an already scaled size.
QFont scaledFont(QObject* owner, QFont font, const char* key = "astrolabeBasePointSize") {
    QVariant base = owner->property(key);
    if (!base.isValid()) {
        base = font.pointSizeF() > 0 ? font.pointSizeF() : 9.0;
        owner->setProperty(key, base);
    }
    font.setPointSizeF(base.toDouble() * InterfaceScale::factor());
    return font;
}

} // namespace

InterfaceScale& InterfaceScale::instance() {
    static InterfaceScale* scale = new InterfaceScale; // lives as long as the process
    return *scale;
}

int InterfaceScale::px(int pixels) {
    const int scaled = static_cast<int>(std::lround(pixels * factor()));
    return pixels >= 1 ? std::max(1, scaled) : scaled;
}

void InterfaceScale::setFactor(double factor) {
    factor = std::clamp(factor, kSteps[0], kSteps[std::size(kSteps) - 1]);
    if (factor == m_factor)
        return;
    m_factor = factor;
    emit changed();
}

void InterfaceScale::setHighContrast(bool on) {
    if (on == m_highContrast)
        return;
    m_highContrast = on;
    emit changed();
}

namespace {

/// A series colour for high contrast: fully saturated and dark enough to read on white.
QColor strong(const QColor& color) {
    int h = 0, s = 0, v = 0;
    color.getHsv(&h, &s, &v);
    return QColor::fromHsv(h, std::max(s, 210), std::min(v, 165));
}

/// Remembers `value` under `key` the first time (the theme's own), and returns what was kept.
template <typename T> T themeValue(QObject* object, const char* key, const T& value) {
    if (!object->property(key).isValid())
        object->setProperty(key, QVariant::fromValue(value));
    return object->property(key).value<T>();
}

} // namespace

/// Lines twice as thick and in strong colours, bars in strong colours with black edges; the
/// theme's own pens and brushes come back when high contrast is turned off.
void InterfaceScale::styleSeries(QAbstractSeries* series, bool contrast) {
    if (auto* xy = qobject_cast<QXYSeries*>(series)) {
        const QPen pen = themeValue(xy, "astrolabeThemePen", xy->pen());
        const QColor color = themeValue(xy, "astrolabeThemeColor", xy->color());
        QPen shown = pen;
        if (contrast) {
            shown.setColor(strong(color));
            shown.setWidthF(std::max(2.0 * pen.widthF(), scaled(2.5)));
        }
        xy->setPen(shown);
        if (series->type() == QAbstractSeries::SeriesTypeScatter)
            xy->setColor(contrast ? strong(color) : color);
    } else if (auto* area = qobject_cast<QAreaSeries*>(series)) {
        const QPen pen = themeValue(area, "astrolabeThemePen", area->pen());
        const QBrush brush = themeValue(area, "astrolabeThemeBrush", area->brush());
        area->setPen(contrast ? QPen(Qt::black, scaled(2)) : pen);
        area->setBrush(contrast ? QBrush(strong(brush.color())) : brush);
    } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
        for (QBarSet* set : bars->barSets()) {
            const QColor color = themeValue(set, "astrolabeThemeColor", set->color());
            const QColor border = themeValue(set, "astrolabeThemeBorder", set->borderColor());
            set->setColor(contrast ? strong(color) : color);
            set->setBorderColor(contrast ? QColor(Qt::black) : border);
        }
    }
}

void InterfaceScale::styleChart(QChart* chart) {
    if (!chart)
        return;
    const bool contrast = highContrast();
    chart->setTitleFont(scaledFont(chart, chart->titleFont()));
    if (QLegend* legend = chart->legend()) {
        legend->setFont(scaledFont(legend, legend->font()));
        if (!legend->property("astrolabeThemeLabels").isValid())
            legend->setProperty("astrolabeThemeLabels", legend->labelColor());
        legend->setLabelColor(contrast ? QColor(Qt::black)
                                       : legend->property("astrolabeThemeLabels").value<QColor>());
    }
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(scaledFont(axis, axis->labelsFont()));
        axis->setTitleFont(scaledFont(axis, axis->titleFont(), "astrolabeBaseTitleSize"));
        // The theme's colours are kept on the axis the first time, to come back to.
        if (!axis->property("astrolabeThemeLabels").isValid()) {
            axis->setProperty("astrolabeThemeLabels", axis->labelsColor());
            axis->setProperty("astrolabeThemeTitle", axis->titleBrush());
            axis->setProperty("astrolabeThemeLine", axis->linePen());
            axis->setProperty("astrolabeThemeGrid", axis->gridLinePen());
        }
        axis->setLabelsColor(contrast ? QColor(Qt::black)
                                      : axis->property("astrolabeThemeLabels").value<QColor>());
        axis->setTitleBrush(contrast ? QBrush(Qt::black)
                                     : axis->property("astrolabeThemeTitle").value<QBrush>());
        axis->setLinePen(contrast ? QPen(Qt::black, scaled(1.5))
                                  : axis->property("astrolabeThemeLine").value<QPen>());
        axis->setGridLinePen(contrast ? QPen(QColor(0x70, 0x70, 0x70), scaled(1))
                                      : axis->property("astrolabeThemeGrid").value<QPen>());
    }
    for (QAbstractSeries* series : chart->series())
        styleSeries(series, contrast);
    if (!chart->property("astrolabeThemeTitle").isValid())
        chart->setProperty("astrolabeThemeTitle", chart->titleBrush());
    chart->setTitleBrush(contrast ? QBrush(Qt::black)
                                  : chart->property("astrolabeThemeTitle").value<QBrush>());
}

} // namespace astrolabe::widgets

namespace astrolabe::widgets {

void InterfaceScale::followChart(QChartView* view) {
    styleChart(view->chart());
    connect(&instance(), &InterfaceScale::changed, view, [view] { styleChart(view->chart()); });
}

void InterfaceScale::followMinimumSize(QWidget* widget, QSize base) {
    // About 60 % of a chart's minimum is text (title, legend, labels, axis titles), which grows
    // with the scale; the plot keeps its pixels. (All of it scaled, the Compare and Bandwidth
    // tabs asked for a window taller than a 1000-pixel screen at 200 %.)
    const auto apply = [widget, base] {
        const auto grown = [](int pixels) {
            return static_cast<int>(std::lround(pixels * (0.4 + 0.6 * factor())));
        };
        widget->setMinimumSize(base.width() > 0 ? grown(base.width()) : widget->minimumWidth(),
                               base.height() > 0 ? grown(base.height()) : widget->minimumHeight());
    };
    apply();
    connect(&instance(), &InterfaceScale::changed, widget, apply);
}

} // namespace astrolabe::widgets
