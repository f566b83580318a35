#pragma once
// Drawing many equal shapes fast: the helpers NetworkPainter batches its primitives with.
//   drawShape    one group outline; a group far larger than the view is drawn as what is
//                visible of it (Qt would otherwise flatten the whole huge ellipse every frame);
//   stampShapes  many equal shapes rendered once into a sprite and stamped with
//                drawPixmapFragments (thousands of antialiased ellipses would cost more than a
//                frame), optionally with a glyph of the block a collapsed tile stands for.
// Shapes are given in scene coordinates; the painter carries the scene-to-device transform.
#include "spec/PlatformSpec.h"

#include <QColor>
#include <QRectF>
#include <vector>

class QPainter;

namespace astrolabe::widgets {

struct Glyph {
    BlockKind kind;
    QColor color;
};

void drawShape(QPainter& p, const QRectF& r, bool circular);
void drawShapes(QPainter& p, const std::vector<QRectF>& shapes, bool circular);
/// Small drawing of a block (ring, clique or switch) inside r.
void drawGlyph(QPainter& p, const QRectF& r, BlockKind kind, const QColor& color);
void stampShapes(QPainter& p, const std::vector<QRectF>& shapes, bool circular,
                 const Glyph* glyph = nullptr);

} // namespace astrolabe::widgets
