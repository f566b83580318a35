#pragma once
// A project saved over a file a person wrote keeps that person's comments. The writer lays the
// project out anew (projectYamlText), so the comments are carried by key path: the comment lines
// above a key, and the comment at the end of its line, go with that key ("system.chunks",
// "platform.dimensions[1]") wherever the new text puts it.

#include <string>

namespace astrolabe {

/// `written` with the comments of `original`:
/// - the comment lines before the original's first key replace the lines before the written
///   text's first key (its header);
/// - the comment lines above a key, and a comment at the end of a key's line, go above and at
///   the end of the written line with the same key path (list items by position), indented as
///   that line is; a written line with a comment of its own keeps it;
/// - the comment lines after the original's last key end the text.
/// Comments of key paths the written text no longer has are dropped with their keys. Text in
/// block scalars (`|`, `>`) is not searched for comments.
std::string withCommentsOf(const std::string& original, const std::string& written);

} // namespace astrolabe
