#include "common/InterfaceScale.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QLegend>
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

void InterfaceScale::styleChart(QChart* chart) {
    if (!chart)
        return;
    const bool contrast = highContrast();
    chart->setTitleFont(scaledFont(chart, chart->titleFont()));
    if (QLegend* legend = chart->legend()) {
        legend->setFont(scaledFont(legend, legend->font()));
        legend->setLabelColor(contrast ? QColor(Qt::black) : chart->titleBrush().color());
    }
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(scaledFont(axis, axis->labelsFont()));
        axis->setTitleFont(scaledFont(axis, axis->titleFont(), "astrolabeBaseTitleSize"));
        if (contrast) {
            axis->setLabelsColor(Qt::black);
            axis->setTitleBrush(QBrush(Qt::black));
            axis->setLinePen(QPen(Qt::black, scaled(1.5)));
            axis->setGridLinePen(QPen(QColor(0x70, 0x70, 0x70), scaled(1)));
        }
    }
    if (contrast) {
        chart->setBackgroundBrush(Qt::white);
        chart->setTitleBrush(QBrush(Qt::black));
    }
}

} // namespace astrolabe::widgets

namespace astrolabe::widgets {

void InterfaceScale::followChart(QChartView* view) {
    styleChart(view->chart());
    connect(&instance(), &InterfaceScale::changed, view, [view] { styleChart(view->chart()); });
}

} // namespace astrolabe::widgets
