#pragma once
// Drag-and-drop and clipboard payloads of the topology editor.
//   application/x-astrolabe-block: a JSON array of dimensions (one for Ring/FC/Switch blocks,
//     several for presets such as a 2-D torus), inserted where it is dropped or pasted.
//   application/x-astrolabe-dimension-move: the index of a dimension being dragged to a new place
//     in the stack (also carries the block payload so other editors can copy it).
#include "spec/PlatformSpec.h"

#include <QByteArray>
#include <QString>
#include <vector>

class QMimeData;

namespace astrolabe::widgets {

inline constexpr char kBlockMimeType[] = "application/x-astrolabe-block";
inline constexpr char kDimensionMoveMimeType[] = "application/x-astrolabe-dimension-move";

QByteArray encodeDimensions(const std::vector<DimensionSpec>& dimensions);
/// Empty when the payload is malformed (a drop of something else is then ignored).
std::vector<DimensionSpec> decodeDimensions(const QByteArray& payload);

/// A new QMimeData (caller owns) with the block payload and a readable text/plain form.
QMimeData* makeBlockMimeData(const std::vector<DimensionSpec>& dimensions);
std::vector<DimensionSpec> dimensionsFromMimeData(const QMimeData* mime);

/// "Ring 8 @ 50 GiB/s, 500 ns": how a dimension reads in menus and the clipboard.
QString describeDimension(const DimensionSpec& dimension);

} // namespace astrolabe::widgets
