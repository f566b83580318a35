#pragma once
// A small picture of a platform fitted into `size`: the gallery of the New Project wizard shows
// one per preset and example project. A dimension stack is drawn by NetworkPainter, a graph
// platform as the graph editor lays it out (links, NPUs as disks, switches as squares); under
// either hangs its memory tier, as in the Topology tab, without labels.

#include "spec/MemoryConfig.h"
#include "spec/PlatformSpec.h"

#include <QImage>
#include <QSize>

namespace astrolabe::widgets {

/// The drawing on white; a blank white image when the platform cannot be drawn.
QImage platformThumbnail(const PlatformSpec& platform, const RemoteMemoryConfig& memory,
                         QSize size);

} // namespace astrolabe::widgets
