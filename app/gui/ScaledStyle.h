#pragma once
// The application's style with its pixel metrics at the interface scale (presentation mode):
// check boxes, radio buttons, scroll bars, spin box arrows and small icons grow with the text,
// which the application font alone does not make them do. At 100 % it is the style itself.

#include <QProxyStyle>

namespace astrolabe::gui {

class ScaledStyle : public QProxyStyle {
    Q_OBJECT
public:
    /// `baseStyle`: a style name for QStyleFactory ("Fusion"), the application's own.
    explicit ScaledStyle(const QString& baseStyle);

    int pixelMetric(PixelMetric metric, const QStyleOption* option = nullptr,
                    const QWidget* widget = nullptr) const override;

    /// Makes the application's style a ScaledStyle over it, once per process.
    static void install();
};

} // namespace astrolabe::gui
