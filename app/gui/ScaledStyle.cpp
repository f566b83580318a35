#include "gui/ScaledStyle.h"

#include "common/InterfaceScale.h"

#include <QApplication>
#include <cmath>

namespace astrolabe::gui {

ScaledStyle::ScaledStyle(const QString& baseStyle)
    : QProxyStyle(baseStyle) {}

int ScaledStyle::pixelMetric(PixelMetric metric, const QStyleOption* option,
                             const QWidget* widget) const {
    const int base = QProxyStyle::pixelMetric(metric, option, widget);
    switch (metric) {
    case PM_IndicatorWidth:
    case PM_IndicatorHeight:
    case PM_ExclusiveIndicatorWidth:
    case PM_ExclusiveIndicatorHeight:
    case PM_ScrollBarExtent:
    case PM_ScrollBarSliderMin:
    case PM_SmallIconSize:
    case PM_ButtonIconSize:
    case PM_TabBarIconSize:
    case PM_ListViewIconSize:
    case PM_ToolBarIconSize:
    case PM_MenuButtonIndicator:
    case PM_DockWidgetTitleBarButtonMargin:
    case PM_TitleBarButtonIconSize:
        return static_cast<int>(std::lround(base * widgets::InterfaceScale::factor()));
    default:
        return base;
    }
}

void ScaledStyle::install() {
    if (qobject_cast<ScaledStyle*>(QApplication::style()))
        return;
    // A new instance of the same style: the application deletes the style it replaces.
    QApplication::setStyle(new ScaledStyle(QApplication::style()->name()));
}

} // namespace astrolabe::gui
