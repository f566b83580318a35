#pragma once
// The example projects that come with Astrolabe (projects/ in the source tree, installed under
// share/astrolabe/projects): found on disk, named and described from their own files. Used by
// Help > Examples and the New Project wizard's gallery.

#include <QString>
#include <QStringList>

namespace astrolabe::gui::examples {

/// The installed share/astrolabe/<name> beside the program, else `sourceTree` (a developer's
/// build; may be empty); empty when neither exists.
QString dataDirectory(const QString& name, const QString& sourceTree);
/// The installed share/astrolabe/projects beside the program, else the source tree's projects/
/// (a developer's build); empty when neither exists.
QString directory();
/// Every example project (a .yaml with a platform, not a sweep) under `directory`, sorted.
QStringList projects(const QString& directory);
/// The project's `name:` as YAML reads it (without its quotes or a comment after it), or its
/// file name.
QString title(const QString& path);
/// The heading of the examples in a folder of `directory`, for a menu that groups them:
/// "Case studies" for case-studies/ (and whatever folders below it), "Serving", ...
QString groupTitle(const QString& directory, const QString& path);
/// The comment block at the top of the file, as one paragraph ("" when none).
QString description(const QString& path);

} // namespace astrolabe::gui::examples
