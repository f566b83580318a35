#pragma once
// A small picture of a platform's network, drawn by NetworkPainter fitted into `size`: the
// gallery of the New Project wizard shows one per preset and example project.

#include "config/PlatformSpec.h"

#include <QImage>
#include <QSize>

namespace astrolabe::widgets {

/// The drawing on white; a blank white image when the platform cannot be drawn.
QImage platformThumbnail(const PlatformSpec& platform, QSize size);

} // namespace astrolabe::widgets
